/**
 * What the caller may not see or do, in words, from the agent's `/api/capabilities` (ADR 0065): a page says "You
 * may not list pods in this cluster" and who the agent asked as, rather than show an empty list; a button the
 * caller may not use is disabled with the reason. Pure, so the words are unit-tested.
 */

import type { Answer } from '../../api/client.ts';

/** The parts of `/api/capabilities` the words are made from. */
export type Access = Pick<
  Answer<'/api/capabilities'>,
  | 'exec'
  | 'logs'
  | 'portForward'
  | 'workloadWrites'
  | 'nodeWrites'
  | 'authEnabled'
  | 'deployment'
  | 'namespace'
  | 'identity'
  | 'agent'
  | 'view'
  | 'kind'
>;

/** A kind as a page lists it. */
export interface Listed {
  kind: string;
  /** As people write it in a sentence: "pods", "Helm releases". */
  plural: string;
  namespaced: boolean;
}

export const pods: Listed = { kind: 'Pod', plural: 'pods', namespaced: true };

/** Helm keeps a release in Secrets of its namespace: the releases shown are those the caller may list Secrets for. */
export const helmReleases: Listed = { kind: 'Secret', plural: 'Helm releases', namespaced: true };

/** Why a page shows nothing of a kind: a title, the sentences that say who and what to do, and one line of both. */
export interface Refusal {
  title: string;
  detail: string;
  /** For a card inside a page: the title and who, in one sentence. */
  short: string;
}

/** "binnacle:user:ada@example.com with the groups binnacle:role:owner, binnacle:idp:/sre" */
export function identityWords(identity: { user: string; groups: readonly string[] }): string {
  const groups = identity.groups.filter((g) => g !== 'system:authenticated');
  if (groups.length === 0) return `${identity.user} (no groups)`;
  return `${identity.user} with the group${groups.length === 1 ? '' : 's'} ${groups.join(', ')}`;
}

/** Who the agent asks the Kubernetes API as for this caller, as a phrase. */
function asWhom(access: Access): string {
  return access.identity.impersonated
    ? `the agent asks the Kubernetes API as ${identityWords(access.identity)}`
    : `the agent uses its own credentials, ${identityWords(access.identity)}`;
}

const where = (namespace: string | undefined) =>
  namespace ? `in namespace ${namespace}` : 'in this cluster';

/**
 * Why the cluster-wide views (dashboard, topology, timeline …) show nothing of a kind, or undefined when they
 * may show it: the agent's own credentials may not list it (its cache holds none), or the caller may not —
 * a namespaced kind in no namespace of its view, a cluster-scoped kind not cluster-wide.
 */
export function hiddenFromView(access: Access, listed: Listed): Refusal | undefined {
  const { view } = access;
  // Secrets are left out wherever the caller may not list them in every namespace it sees: some may show.
  const partly = listed.kind === 'Secret' && view.namespaces?.length !== 0;
  const title = `You may not list ${listed.plural} ${partly ? 'in every namespace you see' : where(access.namespace)}`;
  if (view.unreadableKinds.includes(listed.kind))
    return {
      title: `Nobody may list ${listed.plural} through this agent`,
      detail: `The agent's own credentials, ${identityWords(access.agent)}, may not list ${listed.kind} objects, so its cache holds none. Give them read access to everything, as the agent's Helm chart does.`,
      short: `Nobody may list ${listed.plural} through this agent: its own credentials, ${access.agent.user}, may not.`,
    };
  const hidden = listed.namespaced
    ? view.namespaces?.length === 0 || (listed.kind === 'Secret' && view.hiddenKinds.includes('Secret'))
    : view.hiddenKinds.includes(listed.kind);
  if (!hidden) return undefined;
  const scope =
    listed.namespaced && listed.kind !== 'Secret'
      ? 'Namespaces are shown where the identity may list pods, and it may list them in none'
      : `No binding lets it list ${listed.kind} objects ${listed.namespaced ? 'in every namespace it sees' : 'cluster-wide'}`;
  return {
    title,
    detail: `${capitalized(asWhom(access))}. ${scope}.${remedy(access)}`,
    short: shortOf(title, access),
  };
}

/** What to do about it, said once: bind the identity (through the hub, the role and IdP groups it carries). */
function remedy(access: Access): string {
  if (!access.identity.impersonated) return '';
  return ' A cluster admin grants it with a RoleBinding or ClusterRoleBinding naming that user or one of those groups.';
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const shortOf = (title: string, access: Access) => `${title} (as ${identityWords(access.identity)}).`;

/** A kind's table: may the caller list it at all (`/api/capabilities?kind=`)? */
export function tableRefusal(access: Access, plural: string): Refusal | undefined {
  const kind = access.kind;
  if (kind?.list !== 'none') return undefined;
  const unreadable = access.view.unreadableKinds.includes(kind.kind);
  if (unreadable) return hiddenFromView(access, { kind: kind.kind, plural, namespaced: kind.namespaced });
  const title = `You may not list ${plural} ${kind.namespaced ? where(access.namespace) : 'in this cluster'}`;
  return {
    title,
    detail: `${capitalized(asWhom(access))}, and no binding lets it list ${kind.kind} objects ${kind.namespaced ? (access.namespace ? 'there' : 'in any namespace') : 'cluster-wide'}.${remedy(access)}`,
    short: shortOf(title, access),
  };
}

/** What a person may do on an object page: each with the RBAC it takes, as kubectl auth can-i would ask. */
export type Act =
  | 'exec'
  | 'logs'
  | 'portForward'
  | 'scale'
  | 'restart'
  | 'rollback'
  | 'cordon'
  | 'drain'
  | 'update'
  | 'delete';

const workloadPlural: Record<string, keyof Access['workloadWrites']> = {
  Deployment: 'deployments',
  StatefulSet: 'statefulSets',
  DaemonSet: 'daemonSets',
};

/** Whether the capabilities allow it, and what it takes in RBAC terms when they do not. */
function rule(access: Access, act: Act, kind: string): { allowed: boolean; takes: string } | undefined {
  switch (act) {
    case 'exec':
      return { allowed: access.exec, takes: 'create pods/exec' };
    case 'logs':
      return { allowed: access.logs, takes: 'get pods/log' };
    case 'portForward':
      return { allowed: access.portForward, takes: 'create pods/portforward' };
    case 'scale':
    case 'restart':
    case 'rollback': {
      const writes = workloadPlural[kind];
      if (!writes) return undefined; // Argo Rollouts: not among the capabilities, the API server decides
      return { allowed: access.workloadWrites[writes], takes: `patch ${kind.toLowerCase()}s.apps` };
    }
    case 'cordon':
    case 'drain':
      return { allowed: access.nodeWrites, takes: 'patch nodes' };
    case 'update':
    case 'delete':
      if (access.kind?.kind !== kind) return undefined;
      return {
        allowed: act === 'update' ? access.kind.update : access.kind.delete,
        takes: `${act === 'update' ? 'patch' : 'delete'} ${kind} objects`,
      };
  }
}

/**
 * Port-forwards listen on the agent's host: through the hub (or for anyone signed in to the agent) that is not
 * the person's machine, and in a cluster it is the agent's pod. Said plainly, with what to run instead.
 */
export function portForwardElsewhere(
  access: Access | undefined,
  throughHub: boolean,
  target?: string,
): string | undefined {
  const instead = target ? ` Run kubectl port-forward ${target} on your own machine instead.` : '';
  if (throughHub)
    return `Port-forward is not available through the hub: a forward would listen on the host the agent runs on, not on your machine.${instead}`;
  if (!access) return undefined;
  if (access.authEnabled)
    return `Port-forward is offered only to the agent's own user: for people signed in to it, a forward would listen on the agent's host.${instead}`;
  if (access.deployment.mode !== 'local')
    return `The agent runs in a cluster: a forward would listen inside its own pod, out of your reach.${instead}`;
  return undefined;
}

/**
 * Why the caller may not do this here, or undefined when it may (or the capabilities do not say: then the API
 * server decides, and its refusal is shown).
 */
export function whyNot(
  access: Access | undefined,
  act: Act,
  context: { kind: string; throughHub?: boolean; portForwardTarget?: string },
): string | undefined {
  // Through the hub a forward is never served: known before the agent answers, so nothing asks for one.
  if (act === 'portForward') {
    const elsewhere = portForwardElsewhere(access, context.throughHub === true, context.portForwardTarget);
    if (elsewhere) return elsewhere;
  }
  if (!access) return undefined;
  const check = rule(access, act, context.kind);
  if (!check || check.allowed) return undefined;
  return `You may not ${check.takes} ${where(access.namespace)}: ${asWhom(access)}.`;
}
