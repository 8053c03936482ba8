import type { KubeObject } from '@binnacle/common';
import { badRequest } from '@binnacle/common/server';
import { requireAccess } from '../../http/caller.ts';
import type { Impersonation } from '../../kube/client.ts';
import type { RbacContext } from './module.ts';
import type { SubjectKind } from './subject-permissions.ts';

const rbac = 'rbac.authorization.k8s.io';
const authorization = 'authorization.k8s.io';

/** A subject as a binding names it. */
export interface Subject {
  kind: SubjectKind;
  name: string;
  /** A ServiceAccount's namespace. */
  namespace?: string;
}

/**
 * A subject as the API server authenticates it: a User its name; a ServiceAccount its user name (the API server
 * adds its `system:serviceaccounts` groups when impersonating it, as for its token); a Group a member of it with
 * a user name no binding names (Kubernetes impersonates a group only with a user).
 */
export function identityOf(subject: Subject): Impersonation {
  if (subject.kind === 'User') return { user: subject.name, groups: [] };
  if (subject.kind === 'ServiceAccount') {
    if (!subject.namespace) throw badRequest('namespace is required for a ServiceAccount');
    return { user: `system:serviceaccount:${subject.namespace}:${subject.name}`, groups: [] };
  }
  return { user: 'binnacle:access-probe', groups: [subject.name] };
}

/** Asking what another subject may do is what `create subjectaccessreviews` allows (kubectl auth can-i --as). */
export const requireReviewRight = (ctx: RbacContext, caller: Impersonation | undefined) =>
  requireAccess(ctx, caller, { verb: 'create', group: authorization, resource: 'subjectaccessreviews' });

export interface ResourceRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames?: string[];
}

export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs: string[];
}

export interface SubjectRules {
  subject: Subject;
  namespace: string;
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  /** The API server could not evaluate every rule (a webhook authorizer, a missing role): the lists may be short. */
  incomplete: boolean;
  evaluationError?: string;
}

interface RulesReview {
  status?: {
    resourceRules?: ResourceRule[];
    nonResourceRules?: NonResourceRule[];
    incomplete?: boolean;
    evaluationError?: string;
  };
}

/**
 * What a subject may do in a namespace, as the API server itself evaluates it: a SelfSubjectRulesReview made as
 * the subject, which is what `kubectl auth can-i --list --as <subject> -n <namespace>` asks.
 */
export async function subjectRules(
  ctx: RbacContext,
  caller: Impersonation | undefined,
  subject: Subject,
  namespace: string,
): Promise<SubjectRules> {
  await requireReviewRight(ctx, caller);
  const review = await ctx.cluster.client.request<RulesReview>({
    method: 'POST',
    path: `/apis/${authorization}/v1/selfsubjectrulesreviews`,
    body: {
      apiVersion: `${authorization}/v1`,
      kind: 'SelfSubjectRulesReview',
      spec: { namespace },
    },
    as: identityOf(subject),
  });
  const status = review.status ?? {};
  return {
    subject,
    namespace,
    resourceRules: status.resourceRules ?? [],
    nonResourceRules: status.nonResourceRules ?? [],
    incomplete: status.incomplete ?? false,
    ...(status.evaluationError ? { evaluationError: status.evaluationError } : {}),
  };
}

/** What is asked of "who can": a verb on a kind (and one object of it), in a namespace or cluster-wide. */
export interface AccessQuestion {
  verb: string;
  /** The resource as RBAC names it (`pods`, `deployments`, `pods/log`). */
  resource: string;
  group: string;
  namespace?: string;
  name?: string;
}

/** A question as a caller puts it (a kind as the resources routes take it, or `*`) in RBAC's terms. */
export function questionOf(
  ctx: RbacContext,
  asked: {
    verb: string;
    kind: string;
    group?: string;
    subresource?: string;
    namespace?: string;
    name?: string;
  },
): AccessQuestion {
  // Every resource of every group: the question whose answer is who is cluster-admin in effect.
  if (asked.kind === '*')
    return {
      verb: asked.verb,
      resource: '*',
      group: '*',
      ...(asked.namespace ? { namespace: asked.namespace } : {}),
    };
  const resource = ctx.cluster.resolve(asked.kind, asked.group);
  return {
    verb: asked.verb,
    resource: asked.subresource ? `${resource.plural}/${asked.subresource}` : resource.plural,
    group: resource.group,
    ...(asked.namespace ? { namespace: asked.namespace } : {}),
    ...(asked.name ? { name: asked.name } : {}),
  };
}

interface RawRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

const has = (list: string[] | undefined, value: string) => (list ?? []).some((v) => v === '*' || v === value);

/**
 * Whether an RBAC rule allows the question, as the API server's rule resolver matches: the verb, the group, the
 * resource (a subresource also by a star before its slash, as RBAC allows), and its names when the rule lists some.
 */
export function ruleAllows(rule: RawRule, question: AccessQuestion): boolean {
  if (!has(rule.verbs, question.verb) || !has(rule.apiGroups, question.group)) return false;
  const sub = question.resource.split('/')[1];
  const matches = (rule.resources ?? []).some(
    (r) => r === '*' || r === question.resource || (sub !== undefined && r === `*/${sub}`),
  );
  if (!matches) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || (question.name !== undefined && names.includes(question.name));
}

/** A subject that may do what was asked, with the bindings that grant it, checked by the API server. */
export interface Granted {
  subject: Subject;
  grants: { binding: string; role: string }[];
  /** The API server's own answer (a SubjectAccessReview as the subject). */
  allowed: boolean;
}

interface SubjectAccessReview {
  status?: { allowed?: boolean };
}

/**
 * Who may do it: the subjects of every ClusterRoleBinding, and of the RoleBindings of the namespace, whose role has
 * a rule that allows it (read from the cache), each then asked of the API server with a SubjectAccessReview as
 * that subject, so a binding to a missing role or an authorizer besides RBAC is not taken on trust.
 */
export async function whoCan(
  ctx: RbacContext,
  caller: Impersonation | undefined,
  question: AccessQuestion,
): Promise<Granted[]> {
  await requireReviewRight(ctx, caller);
  const { cache } = ctx.cluster;
  const resolve = (plural: string) => ctx.cluster.resolve(plural, rbac);
  await requireAccess(ctx, caller, { verb: 'list', group: rbac, resource: 'clusterrolebindings' });
  if (question.namespace)
    await requireAccess(ctx, caller, {
      verb: 'list',
      group: rbac,
      resource: 'rolebindings',
      namespace: question.namespace,
    });
  const clusterBindings = cache.list(resolve('clusterrolebindings'));
  const namespaced = question.namespace ? cache.list(resolve('rolebindings'), question.namespace) : [];
  const roleOf = (binding: KubeObject): KubeObject | undefined => {
    const ref = (binding.roleRef ?? {}) as { kind?: string; name?: string };
    return ref.kind === 'Role'
      ? cache.get(resolve('roles'), ref.name ?? '', binding.metadata?.namespace)
      : cache.get(resolve('clusterroles'), ref.name ?? '');
  };
  const found = new Map<string, Granted>();
  for (const binding of [...clusterBindings, ...namespaced]) {
    const role = roleOf(binding);
    if (!((role?.rules as RawRule[] | undefined) ?? []).some((rule) => ruleAllows(rule, question))) continue;
    const ref = binding.roleRef as { kind: string; name: string };
    const ns = binding.metadata?.namespace;
    const grant = {
      binding: ns
        ? `RoleBinding ${ns}/${binding.metadata?.name}`
        : `ClusterRoleBinding ${binding.metadata?.name}`,
      role: ref.kind === 'Role' ? `Role ${ns}/${ref.name}` : `ClusterRole ${ref.name}`,
    };
    for (const named of (binding.subjects as { kind?: string; name?: string; namespace?: string }[]) ?? []) {
      if (named.kind !== 'User' && named.kind !== 'Group' && named.kind !== 'ServiceAccount') continue;
      const subject: Subject = {
        kind: named.kind,
        name: named.name ?? '',
        ...(named.kind === 'ServiceAccount' ? { namespace: named.namespace ?? ns ?? '' } : {}),
      };
      const key = `${subject.kind}/${subject.namespace ?? ''}/${subject.name}`;
      const entry = found.get(key) ?? { subject, grants: [], allowed: false };
      entry.grants.push(grant);
      found.set(key, entry);
    }
  }
  const granted = [...found.values()];
  await Promise.all(
    granted.map(async (entry) => (entry.allowed = await reviewed(ctx, entry.subject, question))),
  );
  return granted.sort(
    (a, b) =>
      a.subject.kind.localeCompare(b.subject.kind) ||
      (a.subject.namespace ?? '').localeCompare(b.subject.namespace ?? '') ||
      a.subject.name.localeCompare(b.subject.name),
  );
}

/** The API server's answer for one subject: a SubjectAccessReview naming it (with a ServiceAccount's groups). */
async function reviewed(ctx: RbacContext, subject: Subject, question: AccessQuestion): Promise<boolean> {
  const identity = identityOf(subject);
  const groups =
    subject.kind === 'ServiceAccount'
      ? ['system:serviceaccounts', `system:serviceaccounts:${subject.namespace}`, 'system:authenticated']
      : [...identity.groups, 'system:authenticated'];
  const [resource, subresource] = question.resource.split('/');
  const review = await ctx.cluster.client.request<SubjectAccessReview>({
    method: 'POST',
    path: `/apis/${authorization}/v1/subjectaccessreviews`,
    body: {
      apiVersion: `${authorization}/v1`,
      kind: 'SubjectAccessReview',
      spec: {
        user: identity.user,
        groups,
        resourceAttributes: {
          verb: question.verb,
          group: question.group,
          resource,
          ...(subresource ? { subresource } : {}),
          ...(question.namespace ? { namespace: question.namespace } : {}),
          ...(question.name ? { name: question.name } : {}),
        },
      },
    },
  });
  return review.status?.allowed === true;
}
