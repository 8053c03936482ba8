import type { KubeObject } from './kube-object.ts';

/**
 * The actions Binnacle takes on ecosystem projects' custom resources, each the object change the project's own
 * CLI makes (docs/ecosystem-actions.md, ADR 0129). The agent's routes (`POST /api/ecosystem/{kind}/{ns}/{name}/
 * {action}`) and MCP tool take the kinds named here; the web's object pages offer the same buttons.
 */
export type EcosystemAction = 'renew' | 'backup' | 'pause' | 'resume' | 'disrupt' | 'restart';

export interface ActionKind {
  group: string;
  kind: string;
  /** The resource name in the API path (and in the route's `{kind}` segment, optionally `.group`). */
  plural: string;
  namespaced: boolean;
  /** The docs page of its integration: `docs/integrations/<integration>.md`. */
  integration: string;
}

const certificate = {
  group: 'cert-manager.io',
  kind: 'Certificate',
  plural: 'certificates',
  namespaced: true,
  integration: 'cert-manager',
};
const veleroSchedule = {
  group: 'velero.io',
  kind: 'Schedule',
  plural: 'schedules',
  namespaced: true,
  integration: 'velero',
};
const scaledObject = {
  group: 'keda.sh',
  kind: 'ScaledObject',
  plural: 'scaledobjects',
  namespaced: true,
  integration: 'keda',
};
const scaledJob = {
  group: 'keda.sh',
  kind: 'ScaledJob',
  plural: 'scaledjobs',
  namespaced: true,
  integration: 'keda',
};
const nodeClaim = {
  group: 'karpenter.sh',
  kind: 'NodeClaim',
  plural: 'nodeclaims',
  namespaced: false,
  integration: 'karpenter',
};
const postgresCluster = {
  group: 'postgresql.cnpg.io',
  kind: 'Cluster',
  plural: 'clusters',
  namespaced: true,
  integration: 'cloudnative-pg',
};

/** Which kinds each action takes. */
export const ecosystemActionKinds: Readonly<Record<EcosystemAction, readonly ActionKind[]>> = {
  renew: [certificate],
  backup: [veleroSchedule, postgresCluster],
  pause: [scaledObject, scaledJob],
  resume: [scaledObject, scaledJob],
  disrupt: [nodeClaim],
  restart: [postgresCluster],
};

/** The actions an object of this group and kind offers, in the order its page shows them. */
export function ecosystemActionsOf(group: string, kind: string): EcosystemAction[] {
  return (Object.keys(ecosystemActionKinds) as EcosystemAction[]).filter((action) =>
    ecosystemActionKinds[action].some((k) => k.group === group && k.kind === kind),
  );
}

/** `certificates.cert-manager.io`: how the route's `{kind}` segment names a kind without doubt. */
export const qualifiedKind = (k: Pick<ActionKind, 'plural' | 'group'>) => `${k.plural}.${k.group}`;

/**
 * The kind an action's `{kind}` segment names — its plural, Kind or `plural.group`, in any case — among the kinds
 * the action takes; undefined when it names none of them.
 */
export function actionKindOf(action: EcosystemAction, text: string): ActionKind | undefined {
  const wanted = text.toLowerCase();
  return ecosystemActionKinds[action].find(
    (k) => wanted === k.plural || wanted === k.kind.toLowerCase() || wanted === qualifiedKind(k),
  );
}

/**
 * `kubectl cnpg backup`'s choices (cloudnative-pg/cloudnative-pg v1.27.0, internal/cmd/plugin/backup/cmd.go):
 * `--method` (the cluster's own setting when left out; `plugin` needs `--plugin-name`, which no other method
 * takes) and `--backup-target`.
 */
export const postgresBackupMethods = ['barmanObjectStore', 'volumeSnapshot', 'plugin'] as const;
export const postgresBackupTargets = ['primary', 'prefer-standby'] as const;
export type PostgresBackupMethod = (typeof postgresBackupMethods)[number];
export type PostgresBackupTarget = (typeof postgresBackupTargets)[number];

/** A name among `--plugin-parameters`: what a plugin's parameter is called, bounded (the CLI takes any text). */
export const pluginParameterNamePattern = '^[A-Za-z0-9._/-]{1,253}$';
export const pluginParametersMax = 32;
export const pluginParameterValueMax = 1024;

/**
 * `--plugin-parameters` as the plugin reads it (internal/cmd/plugin/backup/parameters.go `Set`):
 * `name=value` pairs separated by commas, empty entries skipped, a pair without `=` an empty value, the last of
 * a repeated name kept.
 */
export function parsePluginParameters(text: string): Record<string, string> {
  const parameters: Record<string, string> = {};
  for (const entry of text.split(',')) {
    if (entry === '') continue;
    const equals = entry.indexOf('=');
    if (equals === -1) parameters[entry] = '';
    else parameters[entry.slice(0, equals)] = entry.slice(equals + 1);
  }
  return parameters;
}

export const pausedAnnotation = 'autoscaling.keda.sh/paused';
export const pausedReplicasAnnotation = 'autoscaling.keda.sh/paused-replicas';

/**
 * Whether KEDA treats a ScaledObject or ScaledJob as paused (kedacore/keda v2.20.2, apis/keda/v1alpha1/
 * scaledobject_types.go `NeedToBePausedByAnnotation`): `paused-replicas` present (ScaledObjects only), or `paused`
 * a true boolean — a value Go's ParseBool refuses counts as true.
 */
export function kedaPaused(object: KubeObject): boolean {
  const annotations = object.metadata?.annotations ?? {};
  if (object.kind !== 'ScaledJob' && pausedReplicasAnnotation in annotations) return true;
  const value = annotations[pausedAnnotation];
  if (value === undefined) return false;
  return !['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(value);
}
