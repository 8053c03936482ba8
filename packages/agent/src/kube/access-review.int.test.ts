import { testCluster } from '@binnacle/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { AccessReviewer } from './access-review.ts';
import { KubeClient } from './client.ts';
import { resolveTarget } from './kubeconfig.ts';

const target = await resolveTarget({ kubeconfig: testCluster().kubeconfigPath('admin') });
const client = new KubeClient(target);
// The same credentials against a port where no API server listens: every review fails to be asked.
const unreachable = new KubeClient({ ...target, server: new URL('https://127.0.0.1:9') });
afterAll(() => Promise.all([client.close(), unreachable.close()]));

const listSecrets = { verb: 'list', group: '', resource: 'secrets', namespace: 'default' };
const stranger = { user: 'binnacle:user:nobody@example.com', groups: ['binnacle:idp:nobody'] };

describe('access reviews', () => {
  it('asks the API server: the agent itself (self review) may, an unbound caller may not', async () => {
    const reviewer = new AccessReviewer(client);
    expect(await reviewer.allowed(undefined, listSecrets)).toBe(true);
    expect(await reviewer.allowed(stranger, listSecrets)).toBe(false);
  });

  it('fails closed: a review that cannot be asked is a refusal, for the agent and for a caller', async () => {
    const reviewer = new AccessReviewer(unreachable);
    expect(await reviewer.allowed(undefined, listSecrets)).toBe(false);
    expect(await reviewer.allowed(stranger, listSecrets)).toBe(false);
  });

  it('asks a question once while it is being asked (parallel views share the answer)', () => {
    const reviewer = new AccessReviewer(client);
    const first = reviewer.allowed(stranger, listSecrets);
    expect(reviewer.allowed(stranger, listSecrets)).toBe(first);
    return first;
  });
});
