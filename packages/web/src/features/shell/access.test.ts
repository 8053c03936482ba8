import { describe, expect, it } from 'vitest';
import { type Access, hiddenFromView, identityWords, tableRefusal, whyNot } from './access.ts';

const owner = {
  user: 'binnacle:user:ada@example.com',
  groups: ['binnacle:role:owner', 'system:authenticated'],
};

/** A caller through the hub whose identity is bound to nothing in the cluster. */
const nothing: Access = {
  exec: false,
  logs: false,
  portForward: false,
  workloadWrites: { deployments: false, statefulSets: false, daemonSets: false },
  nodeWrites: false,
  authEnabled: true,
  deployment: { mode: 'cluster' },
  identity: { ...owner, impersonated: true },
  agent: { user: 'system:serviceaccount:binnacle:binnacle-agent', groups: ['system:serviceaccounts'] },
  view: { namespaces: [], hiddenKinds: ['Secret', 'Node'], unreadableKinds: [] },
};

/** The agent itself, on a laptop, with an admin's kubeconfig. */
const admin: Access = {
  ...nothing,
  exec: true,
  logs: true,
  portForward: true,
  workloadWrites: { deployments: true, statefulSets: true, daemonSets: true },
  nodeWrites: true,
  authEnabled: false,
  deployment: { mode: 'local' },
  identity: { user: 'kubernetes-admin', groups: ['system:masters'], impersonated: false },
  view: { hiddenKinds: [], unreadableKinds: [] },
};

const pods = { kind: 'Pod', plural: 'pods', namespaced: true };
const nodes = { kind: 'Node', plural: 'nodes', namespaced: false };

describe('the words for what the caller may not see', () => {
  it('names the identity with its groups, leaving out the one every authenticated user has', () => {
    expect(identityWords(owner)).toBe('binnacle:user:ada@example.com with the group binnacle:role:owner');
    expect(identityWords({ user: 'bob', groups: ['a', 'b'] })).toBe('bob with the groups a, b');
    expect(identityWords({ user: 'bob', groups: [] })).toBe('bob (no groups)');
  });

  it('says a caller may list pods nowhere, as whom, and how an admin grants it', () => {
    const refusal = hiddenFromView(nothing, pods);
    expect(refusal?.title).toBe('You may not list pods in this cluster');
    expect(refusal?.detail).toBe(
      'The agent asks the Kubernetes API as binnacle:user:ada@example.com with the group binnacle:role:owner. ' +
        'Namespaces are shown where the identity may list pods, and it may list them in none. ' +
        'A cluster admin grants it with a RoleBinding or ClusterRoleBinding naming that user or one of those groups.',
    );
    expect(refusal?.short).toBe(
      'You may not list pods in this cluster (as binnacle:user:ada@example.com with the group binnacle:role:owner).',
    );
    expect(hiddenFromView({ ...nothing, namespace: 'shop' }, pods)?.title).toBe(
      'You may not list pods in namespace shop',
    );
    expect(hiddenFromView(nothing, nodes)?.detail).toContain(
      'No binding lets it list Node objects cluster-wide',
    );
    const releases = { kind: 'Secret', plural: 'Helm releases', namespaced: true };
    const some = { ...nothing, view: { namespaces: ['shop'], hiddenKinds: ['Secret'], unreadableKinds: [] } };
    expect(hiddenFromView(some, releases)?.title).toBe(
      'You may not list Helm releases in every namespace you see',
    );
  });

  it('shows what the view holds: pods in some namespaces, nodes for the admin', () => {
    const some = { ...nothing, view: { namespaces: ['shop'], hiddenKinds: ['Node'], unreadableKinds: [] } };
    expect(hiddenFromView(some, pods)).toBeUndefined();
    expect(hiddenFromView(admin, nodes)).toBeUndefined();
    expect(hiddenFromView(admin, pods)).toBeUndefined();
  });

  it("blames the agent's own credentials when its cache cannot hold the kind", () => {
    const blind = { ...admin, view: { namespaces: [], hiddenKinds: ['Pod'], unreadableKinds: ['Pod'] } };
    expect(hiddenFromView(blind, pods)).toEqual({
      title: 'Nobody may list pods through this agent',
      detail: expect.stringContaining(
        "The agent's own credentials, system:serviceaccount:binnacle:binnacle-agent",
      ),
      short:
        'Nobody may list pods through this agent: its own credentials, system:serviceaccount:binnacle:binnacle-agent, may not.',
    });
  });

  it("refuses a kind's table only when the caller may list it nowhere", () => {
    const kind = {
      kind: 'ConfigMap',
      group: '',
      namespaced: true,
      list: 'none' as const,
      update: false,
      delete: false,
    };
    expect(tableRefusal({ ...nothing, kind }, 'configmaps')).toMatchObject({
      title: 'You may not list configmaps in this cluster',
      detail: expect.stringMatching(
        /as binnacle:user:ada@example\.com .*no binding lets it list ConfigMap objects in any namespace\./,
      ),
    });
    expect(tableRefusal({ ...nothing, kind: { ...kind, list: 'some' } }, 'configmaps')).toBeUndefined();
    expect(tableRefusal(nothing, 'configmaps')).toBeUndefined();
  });
});

describe('why an action is disabled', () => {
  it('names the RBAC it takes and who lacks it', () => {
    expect(whyNot({ ...nothing, namespace: 'shop' }, 'exec', { kind: 'Pod' })).toBe(
      'You may not create pods/exec in namespace shop: the agent asks the Kubernetes API as binnacle:user:ada@example.com with the group binnacle:role:owner.',
    );
    expect(whyNot(nothing, 'scale', { kind: 'StatefulSet' })).toMatch(
      /^You may not patch statefulsets\.apps/,
    );
    expect(whyNot(nothing, 'drain', { kind: 'Node' })).toMatch(/^You may not patch nodes in this cluster/);
    const kind = {
      kind: 'ConfigMap',
      group: '',
      namespaced: true,
      list: 'all' as const,
      update: false,
      delete: true,
    };
    expect(whyNot({ ...nothing, kind }, 'update', { kind: 'ConfigMap' })).toMatch(
      /^You may not patch ConfigMap/,
    );
    expect(whyNot({ ...nothing, kind }, 'delete', { kind: 'ConfigMap' })).toBeUndefined();
  });

  it('leaves to the API server what the capabilities do not cover, and everything when they are unknown', () => {
    expect(whyNot(nothing, 'restart', { kind: 'Rollout' })).toBeUndefined();
    expect(whyNot(nothing, 'update', { kind: 'Secret' })).toBeUndefined();
    expect(whyNot(undefined, 'exec', { kind: 'Pod' })).toBeUndefined();
    expect(whyNot(undefined, 'portForward', { kind: 'Pod', throughHub: true })).toMatch(
      /^Port-forward is not/,
    );
    expect(whyNot(admin, 'exec', { kind: 'Pod' })).toBeUndefined();
    expect(whyNot(admin, 'portForward', { kind: 'Pod' })).toBeUndefined();
  });

  it('says port-forward is not available through the hub, in words, with what to run instead', () => {
    expect(
      whyNot(nothing, 'portForward', {
        kind: 'Pod',
        throughHub: true,
        portForwardTarget: '-n shop pod/web-0 8080',
      }),
    ).toBe(
      'Port-forward is not available through the hub: a forward would listen on the host the agent runs on, not on your machine. Run kubectl port-forward -n shop pod/web-0 8080 on your own machine instead.',
    );
    expect(
      whyNot({ ...admin, deployment: { mode: 'cluster' }, portForward: false }, 'portForward', {
        kind: 'Pod',
      }),
    ).toMatch(/^The agent runs in a cluster/);
    expect(whyNot({ ...admin, portForward: false }, 'portForward', { kind: 'Pod' })).toMatch(
      /^You may not create pods\/portforward in this cluster: the agent uses its own credentials, kubernetes-admin/,
    );
  });
});
