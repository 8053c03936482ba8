import { testCluster } from '@binnacle/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { AccessReviewer } from './access-review.ts';
import { KubeClient } from './client.ts';
import { resolveTarget } from './kubeconfig.ts';

const target = await resolveTarget({ kubeconfig: testCluster().kubeconfigPath('admin') });
const client = new KubeClient(target);
// The same credentials against a port where no API server listens: every review fails to be asked.
const unreachable = new KubeClient({ ...target, server: new URL('https://127.0.0.1:9') });
// An identity without any binding: it may not create SubjectAccessReviews.
const restricted = new KubeClient(
  await resolveTarget({ kubeconfig: testCluster().kubeconfigPath('restricted') }),
);
afterAll(() => Promise.all([client.close(), unreachable.close(), restricted.close()]));

const listSecrets = { verb: 'list', group: '', resource: 'secrets', namespace: 'default' };
const stranger = { user: 'binnacle:user:nobody@example.com', groups: ['binnacle:idp:nobody'] };

describe('access reviews', () => {
  it('asks the API server: the agent itself (self review) may, an unbound caller may not', async () => {
    const reviewer = new AccessReviewer(client);
    expect(await reviewer.allowed(undefined, listSecrets)).toBe(true);
    expect(await reviewer.allowed(stranger, listSecrets)).toBe(false);
  });

  it('fails closed without pretending: a review that cannot be made is 503 access_review_unavailable, not a no', async () => {
    const reviewer = new AccessReviewer(unreachable);
    for (const caller of [undefined, stranger]) {
      await expect(reviewer.allowed(caller, listSecrets)).rejects.toMatchObject({
        code: 'access_review_unavailable',
        status: 503,
        message: expect.stringContaining('(cluster_unreachable)'),
        detail: expect.objectContaining({ cause: expect.stringContaining('127.0.0.1:9 is unreachable') }),
      });
    }
  });

  it('is unavailable as well when the API server refuses the agent its review (no RBAC to create reviews)', async () => {
    const reviewer = new AccessReviewer(restricted);
    await expect(reviewer.allowed(stranger, listSecrets)).rejects.toMatchObject({
      code: 'access_review_unavailable',
      message: expect.stringContaining('the SubjectAccessReview failed (forbidden)'),
    });
    // Its own (self) review needs no rights: a plain "no".
    expect(await reviewer.allowed(undefined, listSecrets)).toBe(false);
  });

  it('does not keep a failed review: the next request asks again', async () => {
    const reviewer = new AccessReviewer(unreachable);
    const first = reviewer.allowed(stranger, listSecrets);
    await expect(first).rejects.toMatchObject({ code: 'access_review_unavailable' });
    const second = reviewer.allowed(stranger, listSecrets);
    expect(second).not.toBe(first);
    await expect(second).rejects.toMatchObject({ code: 'access_review_unavailable' });
  });

  it('asks a question once while it is being asked (parallel views share the answer)', () => {
    const reviewer = new AccessReviewer(client);
    const first = reviewer.allowed(stranger, listSecrets);
    expect(reviewer.allowed(stranger, listSecrets)).toBe(first);
    return first;
  });
});
