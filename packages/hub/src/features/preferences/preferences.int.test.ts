import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/index.ts';

let t: TestHub;
let as: { as: { cookie: string } };
beforeAll(async () => {
  t = await startTestHub();
  const orgId = await t.createOrg('prefs');
  as = { as: { cookie: (await t.addUser('viewer@prefs.example', 'viewer', orgId)).cookie } };
});
afterAll(() => t.close());

describe('preferences', () => {
  it('keep the fields not sent, and start from the defaults', async () => {
    expect((await t.request('GET', '/api/preferences', as)).json()).toEqual({
      theme: 'system',
      timeZone: 'local',
      defaultClusterId: null,
      defaultNamespace: null,
    });
    await t.request('PATCH', '/api/preferences', { ...as, body: { defaultNamespace: 'shop' } });
    const changed = await t.request('PATCH', '/api/preferences', { ...as, body: { theme: 'dark' } });
    expect(changed.json()).toMatchObject({ theme: 'dark', defaultNamespace: 'shop' });
    const cleared = await t.request('PATCH', '/api/preferences', { ...as, body: { defaultNamespace: null } });
    expect(cleared.json()).toMatchObject({ theme: 'dark', defaultNamespace: null });
  });

  it('refuse a default namespace that no namespace could be called, and unknown fields', async () => {
    for (const body of [{ defaultNamespace: 'Shop' }, { defaultNamespace: '-x' }, { colour: 'teal' }]) {
      const answer = await t.request('PATCH', '/api/preferences', { ...as, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json()).toMatchObject({ code: 'invalid_request' });
    }
    expect((await t.request('GET', '/api/preferences', as)).json()).toMatchObject({ defaultNamespace: null });
  });
});
