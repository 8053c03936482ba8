import { identities } from '@binnacle/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentsAndNamespace } from '../../testing/index.ts';
import { leaks, plantSecrets } from '../../testing/planted-secrets.ts';

const fixture = agentsAndNamespace('ai');

beforeAll(() => plantSecrets(fixture.agent, fixture.ns.name));

describe('AI resource views', () => {
  it('lists at every verbosity: one line, the table fields, the whole object', async () => {
    const ns = fixture.ns.name;
    const compact = await fixture.agent.json<{ items: string[]; total: number }>(
      `/api/ai/resources/deployments?namespace=${ns}&verbosity=compact`,
    );
    expect(compact.total).toBe(1);
    expect(compact.items[0]).toMatch(
      new RegExp(`^Deployment ${ns}/web: 1/1 ready, 1 up to date \\(healthy, \\d+s\\)$`),
    );
    const summary = await fixture.agent.json<{
      items: { metadata: Record<string, unknown>; spec: unknown }[];
    }>(`/api/ai/resources/deployments?namespace=${ns}`);
    expect(summary.items[0]?.metadata).not.toHaveProperty('uid');
    expect(summary.items[0]?.spec).toMatchObject({
      replicas: 1,
      template: { spec: { containers: [{ name: 'app' }] } },
    });
    const detail = await fixture.agent.json<{
      resource: { metadata: Record<string, unknown>; spec: unknown };
    }>(`/api/ai/resources/deployments/${ns}/web`);
    expect(detail.resource.metadata).not.toHaveProperty('managedFields');
    expect(JSON.stringify(detail.resource.spec)).toContain('"LOG_LEVEL","value":"info"');
    expect(JSON.stringify(detail.resource.spec)).toContain('secretKeyRef');
  });

  it("gives a Secret's keys, never its values, and scrubs env, args, ConfigMaps and annotations in every view", async () => {
    const ns = fixture.ns.name;
    const secret = await fixture.agent.json<{ resource: Record<string, unknown> }>(
      `/api/ai/resources/secrets/${ns}/db`,
    );
    expect(secret.resource.dataKeys).toEqual(['password', 'user']);
    expect(secret.resource).not.toHaveProperty('data');
    const settings = await fixture.agent.json<{ resource: { data: Record<string, string> } }>(
      `/api/ai/resources/configmaps/${ns}/settings`,
    );
    expect(settings.resource.data.LOG_LEVEL).toBe('info');
    expect(settings.resource.data['app.yaml']).toContain('pool: 5');
    const texts: string[] = [];
    for (const kind of ['secrets', 'configmaps', 'deployments', 'replicasets', 'pods'])
      for (const verbosity of ['compact', 'summary', 'detail']) {
        const list = await fixture.agent.request(
          `/api/ai/resources/${kind}?namespace=${ns}&verbosity=${verbosity}`,
        );
        expect(list.status, `${kind} ${verbosity}`).toBe(200);
        const text = await list.text();
        texts.push(text);
        for (const item of (JSON.parse(text) as { items: (string | { metadata: { name: string } })[] })
          .items) {
          if (typeof item === 'string') continue;
          texts.push(
            await (
              await fixture.agent.request(
                `/api/ai/resources/${kind}/${ns}/${item.metadata.name}?verbosity=${verbosity}`,
              )
            ).text(),
          );
        }
      }
    expect(texts.length).toBeGreaterThan(20);
    expect(texts.flatMap(leaks)).toEqual([]);
  });

  it('says when a list was cut and how to narrow it', async () => {
    const ns = fixture.ns.name;
    const cut = await fixture.agent.json<{ total: number; items: unknown[]; truncated?: string }>(
      `/api/ai/resources/configmaps?namespace=${ns}&limit=1`,
    );
    expect(cut.items).toHaveLength(1);
    expect(cut.total).toBeGreaterThan(1);
    expect(cut.truncated).toMatch(/^showing 1 of \d+: narrow it with a namespace or a label selector/);
  });

  it('answers 404 for a missing object, 400 for a bad verbosity, 403 for an identity that may not read', async () => {
    const ns = fixture.ns.name;
    expect((await fixture.agent.request(`/api/ai/resources/pods/${ns}/nowhere`)).status).toBe(404);
    const bad = await fixture.agent.request(`/api/ai/resources/pods?verbosity=everything`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain('verbosity');
    const refused = await fixture.restricted.request(`/api/ai/resources/pods?namespace=${ns}`);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toContain(identities.restricted.user);
  });
});
