import { randomBytes } from 'node:crypto';
import {
  mcpClients,
  type PlantedStates,
  plantEcosystemStates,
  type StateFixture,
  startTestAgent,
  type TestAgent,
} from '@binnacle/agent/testing';
import { testCluster, waitUntil } from '@binnacle/testkit';
import { CoreV1Api } from '@kubernetes/client-node';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Every integration's objects in healthy, progressing and failed states, created against the projects' real CRDs
 * with their controllers' status shapes (packages/agent/src/testing/ecosystem/): the tables, the object answers,
 * the dashboard's problems, the topology and MCP all say the health and why docs/integrations/<id>.md gives them.
 */
const cluster = testCluster();
const connect = mcpClients();
const prefix = `eco${randomBytes(3).toString('hex')}`;
/**
 * Reads until `done` (the custom tier syncs after the built-in kinds; a status written a moment ago reaches the
 * cache after it), then lets the assertions after it say what differs if it never was.
 */
const settle = (what: string, done: () => Promise<boolean>) =>
  waitUntil(what, done, { timeoutMs: 30_000, intervalMs: 500 }).catch(() => undefined);
let agent: TestAgent;
let ns: { name: string; remove: () => Promise<void> };
let planted: PlantedStates;

interface Table {
  columns: { name: string }[];
  rows: { name: string; namespace?: string; cells: unknown[]; status?: { text: string; tone: string } }[];
}

const json = async <T>(path: string): Promise<T> => {
  const res = await agent.request(path);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};
const all = () => Object.values(planted.states).flat();
const kindRef = (fixture: StateFixture) => {
  const resource = planted.resourceOf(fixture.object);
  return `${resource.plural}.${resource.group}`;
};
const nameOf = (fixture: StateFixture) => fixture.object.metadata?.name ?? '';
const scopeOf = (fixture: StateFixture) =>
  planted.resourceOf(fixture.object).namespaced ? ns.name : undefined;
/** What HEALTH REASON prints for an expectation: `from: reason`, or the part of it the fixture names. */
const reasonMatches = (cell: unknown, expected: StateFixture['expected']) =>
  typeof cell === 'string' &&
  (expected.from === undefined || cell.startsWith(expected.from)) &&
  (expected.reason === undefined || cell.endsWith(expected.reason));

beforeAll(async () => {
  [agent, ns] = await Promise.all([startTestAgent(), cluster.namespace('eco-health')]);
  // The backend of the healthy HTTPRoute: the topology flags a route whose backend Service is missing.
  await cluster
    .kubeConfig('admin')
    .makeApiClient(CoreV1Api)
    .createNamespacedService({
      namespace: ns.name,
      body: { metadata: { name: 'web' }, spec: { ports: [{ port: 8080 }], selector: { app: 'web' } } },
    });
  planted = await plantEcosystemStates(cluster.kubeconfigPath('admin'), ns.name, prefix);
}, 120_000);
afterAll(async () => {
  await planted?.remove();
  await Promise.all([agent?.close(), ns?.remove()]);
});

describe('the health of the ecosystem’s custom resources', () => {
  it('is each table’s HEALTH and HEALTH REASON, the row’s status, after the CRD’s own columns', async () => {
    const byKind = Map.groupBy(all(), kindRef);
    for (const [kind, fixtures] of byKind) {
      const scope = scopeOf(fixtures[0] as StateFixture);
      const path = `/api/tables/${kind}?limit=1000${scope ? `&namespace=${scope}` : ''}`;
      let table: Table = { columns: [], rows: [] };
      const healthOf = (name: string) => {
        const at = table.columns.findIndex((c) => c.name === 'HEALTH');
        return table.rows.find((r) => r.name === name)?.cells[at];
      };
      await settle(`${kind} in the table`, async () => {
        table = await json<Table>(path);
        return fixtures.every((f) => healthOf(nameOf(f)) === f.expected.health);
      });
      const health = table.columns.findIndex((c) => c.name === 'HEALTH');
      const reason = table.columns.findIndex((c) => c.name === 'HEALTH REASON');
      expect(health, kind).toBeGreaterThan(0);
      expect(reason).toBe(health + 1);
      for (const fixture of fixtures) {
        const row = table.rows.find((r) => r.name === nameOf(fixture));
        const label = `${kind} ${nameOf(fixture)}`;
        expect(row?.cells[health], label).toBe(fixture.expected.health);
        expect(row?.status?.text, label).toBe(fixture.expected.health);
        expect(
          reasonMatches(row?.cells[reason], fixture.expected),
          `${label}: ${String(row?.cells[reason])}`,
        ).toBe(true);
      }
    }
  });

  it('is the object answer’s health with why', async () => {
    for (const fixture of all()) {
      const answer = await json<{ health: unknown }>(
        `/api/resources/${kindRef(fixture)}/${scopeOf(fixture) ?? '_'}/${nameOf(fixture)}`,
      );
      expect(answer.health, `${fixture.object.kind} ${nameOf(fixture)}`).toMatchObject(fixture.expected);
    }
  });

  it('makes every failed state a dashboard problem with its reason', async () => {
    const failed = all().filter((f) => f.expected.health === 'unhealthy');
    type Problem = { kind: string; name: string; reason: string; message: string; source: string };
    let problems: Problem[] = [];
    // A problem names its kind, or plural.group when the kind's name is ambiguous.
    const problemOf = (f: StateFixture) =>
      problems.find((p) => p.name === nameOf(f) && (p.kind === f.object.kind || p.kind === kindRef(f)));
    await settle('the failed states among the problems', async () => {
      ({ problems } = await json<{ problems: Problem[] }>(`/api/dashboard?namespace=${ns.name}`));
      return failed.every((f) => problemOf(f) !== undefined);
    });
    for (const fixture of failed) {
      const problem = problemOf(fixture);
      expect(problem, nameOf(fixture)).toMatchObject({
        source: 'health',
        ...(fixture.expected.reason ? { reason: fixture.expected.reason } : {}),
      });
    }
    const healthy = all().filter((f) => f.expected.health === 'healthy');
    expect(healthy.filter((f) => problemOf(f) !== undefined).map(nameOf)).toEqual([]);
    // Knative's Service is named by plural.group: a core Service of that name would open instead.
    expect(problems.filter((p) => p.kind === 'Service').map((p) => p.name)).toEqual([]);
    expect(problemOf((planted.states.knative ?? [])[2] as StateFixture)?.kind).toBe(
      'services.serving.knative.dev',
    );
  });

  it('colours the Gateway API nodes of the topology with the same health', async () => {
    // The topology draws every route and the Gateways routes name.
    const gatewayStates = (planted.states['gateway-api'] ?? []).filter(
      (f) => f.object.kind?.endsWith('Route') || nameOf(f) === `${prefix}-gateway`,
    );
    type Topology = { nodes: { kind: string; name: string; status: string }[] };
    let topology: Topology = { nodes: [] };
    const nodeOf = (fixture: StateFixture) =>
      topology.nodes.find((n) => n.kind === fixture.object.kind && n.name === nameOf(fixture));
    await settle('the gateways and routes in the topology', async () => {
      topology = await json<Topology>(`/api/topology?namespaces=${ns.name}`);
      return gatewayStates.every((f) => nodeOf(f)?.status === f.expected.health);
    });
    for (const fixture of gatewayStates) {
      expect(nodeOf(fixture)?.status, nameOf(fixture)).toBe(fixture.expected.health);
    }
  });

  it('is what MCP’s get_resource and compact lines say', async () => {
    const client: Client = await connect(agent);
    const failing = (planted.states['cert-manager'] ?? []).find((f) => nameOf(f) === `${prefix}-cert-failed`);
    const result = await client.callTool({
      name: 'get_resource',
      arguments: { kind: 'certificates.cert-manager.io', name: `${prefix}-cert-failed`, namespace: ns.name },
    });
    const text = (result.content as { text: string }[]).map((c) => c.text).join('');
    expect(JSON.parse(text).health).toMatchObject(failing?.expected ?? {});
    const listed = await client.callTool({
      name: 'list_resources',
      arguments: { kind: 'certificates.cert-manager.io', namespace: ns.name, verbosity: 'compact' },
    });
    expect(listed.isError).not.toBe(true);
    const lines = (listed.content as { text: string }[]).map((c) => c.text).join('\n');
    expect(lines).toContain(`${prefix}-cert-failed: (unhealthy: Issuing Failed — The certificate request`);
    expect(lines).toMatch(new RegExp(`${prefix}-cert: \\(healthy, `));
  });
});
