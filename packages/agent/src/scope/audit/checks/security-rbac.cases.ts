import { type Case, check } from './cases.ts';
import { namespace } from './fixtures.ts';
import type { Obj } from './values.ts';

const rbac = 'rbac.authorization.k8s.io/v1';
type RoleKind = 'Role' | 'ClusterRole';
const scoped = (kind: string, name: string) => (kind.startsWith('Cluster') ? { name } : { name, namespace });
const role = (kind: RoleKind, name: string, rules: Obj[]) => ({
  apiVersion: rbac,
  kind,
  metadata: scoped(kind, name),
  rules,
});
/** A binding of a role to the user alice (a RoleBinding unless told). */
function binding(roleKind: RoleKind, roleName: string, kind = 'RoleBinding', name = 'team') {
  return {
    apiVersion: rbac,
    kind,
    metadata: scoped(kind, name),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: roleName },
    subjects: [{ kind: 'User', name: 'alice' }],
  };
}
const exec = { apiGroups: [''], resources: ['pods/exec'], verbs: ['create'] };
const allVerbs = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
const readPods = { apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list'] };
/** The roles the bindings below refer to (ghost is missing). */
const roles = {
  cluster: [
    role('Role', 'debugger', [exec]),
    role('ClusterRole', 'edit', [exec]),
    role('ClusterRole', 'exec', [exec]),
    role('Role', 'reader', [readPods]),
    role('Role', 'all', [{ apiGroups: ['*'], resources: ['*'], verbs: allVerbs }]),
  ],
};
const crb = 'ClusterRoleBinding';

export const securityRbacCases: Case[] = [
  ...check('roleAllowsPodExec', (flags, passes) => [
    flags('pods/exec create', role('ClusterRole', 'debugger', [exec]), ['danger', 'allows pods/exec']),
    flags('wildcards', role('Role', 'ops', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]), [
      'danger',
      'allows',
    ]),
    passes('the built-in edit role', role('ClusterRole', 'edit', [exec])),
    passes('reads pods and logs', role('Role', 'reader', [readPods])),
    passes('pods/exec with list only', role('Role', 'lister', [{ ...exec, verbs: ['list'] }])),
  ]),
  ...check(
    'bindingAllowsPodExec',
    (flags, passes) => [
      flags('to a Role that allows exec', binding('Role', 'debugger'), [
        'danger',
        'Role debugger to User alice',
      ]),
      flags('to the edit ClusterRole', binding('ClusterRole', 'edit'), [
        'danger',
        'through ClusterRole edit',
      ]),
      flags('to a missing ClusterRole', binding('ClusterRole', 'ghost', crb), [
        'warning',
        'ghost, which does not exist',
      ]),
      passes('to view', binding('ClusterRole', 'view', crb)),
      passes('built in', binding('ClusterRole', 'exec', crb, 'system:job')),
      passes('to a read-only Role', binding('Role', 'reader')),
    ],
    roles,
  ),
  ...check(
    'bindingClusterAdmin',
    (flags, passes) => [
      flags('cluster-admin', binding('ClusterRole', 'cluster-admin', crb), [
        'danger',
        'cluster-admin (all verbs on all',
      ]),
      flags('a Role with every verb on everything', binding('Role', 'all'), [
        'danger',
        'grants Role all (all verbs on all resources)',
      ]),
      passes('the built-in binding', binding('ClusterRole', 'cluster-admin', crb, 'cluster-admin')),
      passes('a read-only Role', binding('Role', 'reader')),
    ],
    roles,
  ),
];
