import { testCluster } from '@binnacle/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { KubeClient } from './client.ts';
import { resolveTarget } from './kubeconfig.ts';

const client = new KubeClient(await resolveTarget({ kubeconfig: testCluster().kubeconfigPath('admin') }));
afterAll(() => client.close());

interface Review {
  status: { userInfo: { username: string; groups: string[] } };
}

const whoAmI = (as?: { user: string; groups: string[] }) =>
  client.request<Review>({
    method: 'POST',
    path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    as,
  });

describe('the Kubernetes client', () => {
  it('impersonates a user with every group as a group of its own (one Impersonate-Group line each)', async () => {
    const groups = ['binnacle:role:owner', 'binnacle:idp:/platform-admins', 'binnacle:idp:équipe'];
    const review = await whoAmI({ user: 'binnacle:user:ada@example.com', groups });
    expect(review.status.userInfo).toEqual({
      username: 'binnacle:user:ada@example.com',
      groups: [...groups, 'system:authenticated'],
    });
  });

  it('acts as itself without an impersonation', async () => {
    const review = await whoAmI();
    expect(review.status.userInfo.groups).toContain('system:masters');
  });

  it('refuses to impersonate a blank or padded name, which the API server would trim into another identity', async () => {
    for (const as of [
      { user: ' ', groups: [] },
      { user: ' system:admin', groups: [] },
      { user: 'ada@example.com', groups: ['system:masters\t'] },
    ]) {
      await expect(whoAmI(as)).rejects.toMatchObject({ code: 'forbidden' });
      await expect(client.upgradeHeaders(as)).rejects.toMatchObject({ code: 'forbidden' });
    }
  });
});
