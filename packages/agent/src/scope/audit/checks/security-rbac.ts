import type { KubeObject } from '@binnacle/common';
import { defineCheck, type Problem } from './define.ts';
import type { AuditContext, Check } from './types.ts';
import { few, list, nameOf, type Obj, obj, str, strings } from './values.ts';

/** Roles and bindings Kubernetes and its distributions create: not the cluster owner's to change. */
const builtIn = (name: string) => name.startsWith('system:') || name === 'gce:podsecuritypolicy:calico-sa';
/** The user-facing ClusterRoles Kubernetes ships, which allow exec by design. */
const defaultClusterRoles = ['admin', 'edit', 'cluster-admin'];

const has = (values: string[], ...wanted: string[]) => values.some((v) => wanted.includes(v));
const allVerbs = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

/** A rule that lets its subjects open a shell in pods: exec or attach (a websocket `get` suffices). */
function allowsExec(rule: Obj): boolean {
  return (
    has(strings(rule.apiGroups), '', '*') &&
    has(strings(rule.resources), '*', 'pods/*', 'pods/exec', 'pods/attach') &&
    has(strings(rule.verbs), '*', 'get', 'create')
  );
}

/** A rule with every verb on every resource of every group: cluster-admin under another name. */
function isWildcardAdmin(rule: Obj): boolean {
  const verbs = strings(rule.verbs);
  return (
    strings(rule.apiGroups).includes('*') &&
    strings(rule.resources).includes('*') &&
    (verbs.includes('*') || allVerbs.every((verb) => verbs.includes(verb)))
  );
}

const rulesOf = (role: KubeObject | undefined) => list(role?.rules);

interface RoleRef {
  kind: 'Role' | 'ClusterRole';
  name: string;
  /** The role, undefined when it does not exist. */
  role: KubeObject | undefined;
}

/** What a RoleBinding or ClusterRoleBinding grants; undefined for built-in bindings and malformed refs. */
function resolveBinding(binding: KubeObject, context: AuditContext): RoleRef | undefined {
  const ref = obj(binding.roleRef);
  const name = str(ref.name);
  const bindingName = binding.metadata?.name ?? '';
  if (
    !name ||
    builtIn(bindingName) ||
    (binding.kind === 'ClusterRoleBinding' && bindingName === 'cluster-admin')
  )
    return undefined;
  if (ref.kind === 'ClusterRole')
    return { kind: 'ClusterRole', name, role: context.get('ClusterRole', '', name) };
  if (ref.kind === 'Role')
    return { kind: 'Role', name, role: context.get('Role', binding.metadata?.namespace ?? '', name) };
  return undefined;
}

const subjectsOf = (binding: KubeObject) =>
  few(
    list(binding.subjects).map(
      (s) => `${String(s.kind)} ${s.namespace ? `${String(s.namespace)}/` : ''}${String(s.name)}`,
    ),
  );

function roleExec(role: KubeObject): Problem[] {
  const name = nameOf(role);
  if (builtIn(name) || (role.kind === 'ClusterRole' && defaultClusterRoles.includes(name))) return [];
  return rulesOf(role).some(allowsExec) ? [{ message: 'allows pods/exec or pods/attach' }] : [];
}

function bindingExec(binding: KubeObject, context: AuditContext): Problem[] {
  const ref = resolveBinding(binding, context);
  // cluster-admin is bindingClusterAdmin's; view cannot exec.
  if (
    !ref ||
    builtIn(ref.name) ||
    (ref.kind === 'ClusterRole' && ['cluster-admin', 'view'].includes(ref.name))
  )
    return [];
  if (!ref.role)
    return [{ message: `refers to ${ref.kind} ${ref.name}, which does not exist`, severity: 'warning' }];
  if (!rulesOf(ref.role).some(allowsExec)) return [];
  return [
    { message: `grants pods/exec or pods/attach through ${ref.kind} ${ref.name} to ${subjectsOf(binding)}` },
  ];
}

function bindingAdmin(binding: KubeObject, context: AuditContext): Problem[] {
  const ref = resolveBinding(binding, context);
  if (!ref || builtIn(ref.name)) return [];
  const admin =
    (ref.kind === 'ClusterRole' && ref.name === 'cluster-admin') || rulesOf(ref.role).some(isWildcardAdmin);
  return admin
    ? [{ message: `grants ${ref.kind} ${ref.name} (all verbs on all resources) to ${subjectsOf(binding)}` }]
    : [];
}

const bindingKinds = ['RoleBinding', 'ClusterRoleBinding'];

export const securityRbacChecks: Check[] = [
  defineCheck('roleAllowsPodExec', ['Role', 'ClusterRole'], roleExec),
  defineCheck('bindingAllowsPodExec', bindingKinds, bindingExec),
  defineCheck('bindingClusterAdmin', bindingKinds, bindingAdmin),
];
