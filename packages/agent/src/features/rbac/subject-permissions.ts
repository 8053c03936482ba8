import type { KubeObject } from '@binnacle/common';
import { AppError, badRequest } from '@binnacle/common/server';
import type { AgentContext } from '../../context.ts';
import { requireAccess } from '../../http/caller.ts';
import { namespacesToList, visibleNamespaces } from '../../http/caller-view.ts';
import type { Impersonation } from '../../kube/client.ts';

export type SubjectKind = 'ServiceAccount' | 'User' | 'Group';

export interface SubjectQuery {
  kind: SubjectKind;
  name: string;
  /** A ServiceAccount's namespace (required for one); for a User or Group, only RoleBindings in it are read. */
  namespace?: string;
}

export interface Rule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Grant {
  /** `RoleBinding ns/name` or `ClusterRoleBinding name`. */
  binding: string;
  /** How the binding names the subject: itself, or a group it is in (`Group system:serviceaccounts:ns`). */
  via: string;
  /** `Role ns/name` or `ClusterRole name`. */
  role: string;
  /** `cluster-wide` or `namespace <ns>`: where the role's rules apply through this binding. */
  scope: string;
  /** The role's rules; undefined when the role does not exist or the caller may not read it (see `note`). */
  rules?: Rule[];
  note?: string;
}

export interface SubjectPermissions {
  subject: string;
  /** The namespaces whose RoleBindings were read: `all`, or those the caller may list them in. */
  roleBindingsIn: 'all' | string[];
  grants: Grant[];
  /** Every rule the grants give, once per scope: what the subject may do, all bindings together. */
  rules: (Rule & { scope: string })[];
}

type Obj = Record<string, unknown>;
interface Subject {
  kind?: string;
  name?: string;
  namespace?: string;
}
const strings = (value: unknown) => (Array.isArray(value) ? value.map(String) : undefined);
const rbac = 'rbac.authorization.k8s.io';

/** How a binding names the subject, if it does: directly, or (a ServiceAccount) by one of its groups or its user name. */
function namedBy(binding: KubeObject, query: SubjectQuery): string | undefined {
  const subjects = (binding.subjects as Subject[] | undefined) ?? [];
  const { kind, name, namespace } = query;
  const saGroups = ['system:serviceaccounts', `system:serviceaccounts:${namespace}`];
  for (const s of subjects) {
    if (kind !== 'ServiceAccount') {
      if (s.kind === kind && s.name === name) return `${kind} ${name}`;
      continue;
    }
    const saNamespace = s.namespace ?? binding.metadata?.namespace;
    if (s.kind === 'ServiceAccount' && s.name === name && saNamespace === namespace)
      return `ServiceAccount ${namespace}/${name}`;
    if (s.kind === 'User' && s.name === `system:serviceaccount:${namespace}:${name}`) return `User ${s.name}`;
    if (s.kind === 'Group' && saGroups.includes(s.name ?? '')) return `Group ${s.name}`;
  }
  return undefined;
}

const rulesOf = (role: KubeObject): Rule[] =>
  ((role.rules as Obj[] | undefined) ?? []).map((r) => ({
    verbs: strings(r.verbs) ?? [],
    ...(r.apiGroups ? { apiGroups: strings(r.apiGroups) } : {}),
    ...(r.resources ? { resources: strings(r.resources) } : {}),
    ...(r.resourceNames ? { resourceNames: strings(r.resourceNames) } : {}),
    ...(r.nonResourceURLs ? { nonResourceURLs: strings(r.nonResourceURLs) } : {}),
  }));

/**
 * The RBAC rules that apply to a subject: the RoleBindings and ClusterRoleBindings naming it (a ServiceAccount
 * also through the groups every ServiceAccount is in), with the rules of the roles they grant, read from the cache
 * as the caller may read them. A caller who may not list the bindings gets a 403 saying so.
 */
export async function subjectPermissions(
  ctx: Pick<AgentContext, 'cluster' | 'access'>,
  caller: Impersonation | undefined,
  query: SubjectQuery,
): Promise<SubjectPermissions> {
  if (query.kind === 'ServiceAccount' && !query.namespace)
    throw badRequest('namespace is required for a ServiceAccount');
  const { cluster } = ctx;
  const resolve = (plural: string) => cluster.resolve(plural, rbac);
  const [roleBindings, clusterRoleBindings] = [resolve('rolebindings'), resolve('clusterrolebindings')];
  const [roles, clusterRoles] = [resolve('roles'), resolve('clusterroles')];
  for (const resource of [clusterRoleBindings, clusterRoles])
    await requireAccess(ctx, caller, { verb: 'list', group: rbac, resource: resource.plural });
  const requested = query.kind !== 'ServiceAccount' && query.namespace ? [query.namespace] : undefined;
  const bindingNamespaces = await namespacesToList(ctx, caller, roleBindings, requested);
  if (caller && bindingNamespaces?.length === 0)
    throw new AppError('forbidden', `${caller.user} cannot list rolebindings in any namespace`);
  const namespaced = bindingNamespaces
    ? bindingNamespaces.flatMap((ns) => cluster.cache.list(roleBindings, ns))
    : cluster.cache.list(roleBindings);
  const bindings = [...cluster.cache.list(clusterRoleBindings), ...namespaced]
    .map((binding) => ({ binding, via: namedBy(binding, query) }))
    .filter((b): b is { binding: KubeObject; via: string } => b.via !== undefined);
  const roleNamespaces = [
    ...new Set(
      bindings.flatMap((b) => (b.binding.metadata?.namespace ? [b.binding.metadata.namespace] : [])),
    ),
  ];
  const readableRoles = await visibleNamespaces(
    ctx,
    caller,
    { group: rbac, resource: 'roles' },
    roleNamespaces,
  );
  const grants = bindings.map(({ binding, via }): Grant => {
    const ns = binding.metadata?.namespace;
    const ref = (binding.roleRef ?? {}) as { kind?: string; name?: string };
    const isRole = ref.kind === 'Role';
    const base = {
      binding: ns
        ? `RoleBinding ${ns}/${binding.metadata?.name}`
        : `ClusterRoleBinding ${binding.metadata?.name}`,
      via,
      role: isRole ? `Role ${ns}/${ref.name}` : `ClusterRole ${ref.name}`,
      scope: ns ? `namespace ${ns}` : 'cluster-wide',
    };
    if (isRole && readableRoles && !readableRoles.includes(ns ?? ''))
      return { ...base, note: `${caller?.user} cannot list roles in namespace ${ns}` };
    const role = isRole
      ? cluster.cache.get(roles, ref.name ?? '', ns)
      : cluster.cache.get(clusterRoles, ref.name ?? '');
    return role ? { ...base, rules: rulesOf(role) } : { ...base, note: `${base.role} does not exist` };
  });
  const rules = new Map<string, Rule & { scope: string }>();
  for (const grant of grants)
    for (const rule of grant.rules ?? [])
      rules.set(JSON.stringify([grant.scope, rule]), { scope: grant.scope, ...rule });
  return {
    subject: `${query.kind} ${query.kind === 'ServiceAccount' ? `${query.namespace}/` : ''}${query.name}`,
    roleBindingsIn: bindingNamespaces ?? 'all',
    grants,
    rules: [...rules.values()],
  };
}
