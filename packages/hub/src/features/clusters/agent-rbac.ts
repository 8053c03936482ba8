import { stringify } from 'yaml';

/**
 * What charts/binnacle-agent grants the agent's own identity (templates/rbac.yaml, without rbac.operations): read
 * everything for its cache, impersonate the people the hub forwards, ask the API server what they may do.
 * test/charts/binnacle-agent.int.test.ts checks these against the chart as rendered (ADR 0066).
 */
export const agentClusterRoleRules = [
  { apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['users', 'groups'], verbs: ['impersonate'] },
  {
    apiGroups: ['authorization.k8s.io'],
    resources: ['subjectaccessreviews', 'selfsubjectaccessreviews'],
    verbs: ['create'],
  },
];

/** The chart's default bindings of the hub's roles (cloud.defaultRbac.create): role group → built-in ClusterRole. */
export const hubRoleClusterRoles = { owner: 'admin', member: 'edit', viewer: 'view' } as const;

const rbacGroup = 'rbac.authorization.k8s.io';
const name = 'binnacle-agent';

/** The file the commands apply: the ClusterRole and its binding to the identity the agent runs as. */
export const agentRbacFile = 'binnacle-agent-rbac.yaml';

const manifest = `# ${agentRbacFile}: what an agent not installed with charts/binnacle-agent needs for itself.
${stringify({
  apiVersion: `${rbacGroup}/v1`,
  kind: 'ClusterRole',
  metadata: { name },
  rules: agentClusterRoleRules,
})}---
# Bind the identity the agent runs as: this ServiceAccount for a pod of your own manifests, or
# { kind: User, name: <the user of its kubeconfig>, apiGroup: ${rbacGroup} } for \`binnacle agent\` elsewhere.
${stringify({
  apiVersion: `${rbacGroup}/v1`,
  kind: 'ClusterRoleBinding',
  metadata: { name },
  subjects: [{ kind: 'ServiceAccount', name, namespace: 'binnacle' }],
  roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name },
})}`;

/** One shell word: a value with anything but plain characters (an e-mail or IdP group may) single-quoted. */
export const shellWord = (word: string) =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * The RBAC an agent outside the chart needs, as the connect page shows it: the manifest for the agent's own
 * identity, then the commands — apply it, bind the hub's roles as the chart would (in `clusterAccess: idp` mode
 * only IdP groups grant access, so an example of one instead), and check what `you` (the caller as the cluster
 * sees them) may now do there.
 */
export function agentRbac(you: { user: string; groups: string[] }, clusterAccess: 'idp' | 'roles') {
  const roleBindings =
    clusterAccess === 'idp'
      ? [
          '# clusterAccess is idp: only bindings to binnacle:idp:<group> grant access, for example',
          `kubectl create clusterrolebinding binnacle-idp-platform-admins --clusterrole=admin --group=binnacle:idp:/platform-admins`,
        ]
      : Object.entries(hubRoleClusterRoles).map(
          ([role, clusterRole]) =>
            `kubectl create clusterrolebinding binnacle-role-${role} --clusterrole=${clusterRole} --group=binnacle:role:${role}`,
        );
  const check = [
    'kubectl auth can-i list pods --all-namespaces',
    shellWord(`--as=${you.user}`),
    ...you.groups.map((group) => shellWord(`--as-group=${group}`)),
  ].join(' ');
  return {
    clusterAccess,
    manifest,
    commands: [`kubectl apply -f ${agentRbacFile}`, ...roleBindings, check],
  };
}
