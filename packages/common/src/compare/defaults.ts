/**
 * The values the API server fills in when a manifest leaves a field out (its defaulting, admission and the
 * controllers that complete a spec), by field pattern: `[*]` stands for any element of a keyed list. A
 * difference where one side holds the default and the other lacks the field is version skew or a manifest's
 * habit, not a choice someone made: the comparison folds it (docs/adr/0117-compare-objects.md).
 */
type Predicate = (path: string, leaf: unknown, context: DefaultContext) => boolean;
type DefaultValue =
  | string
  | number
  | boolean
  | null
  | readonly unknown[]
  | Record<string, unknown>
  | Predicate;

/** What a rule that depends on another field may read: the side's value at a pattern's sibling path. */
export interface DefaultContext {
  sibling(path: string, name: string): unknown;
}

const probe = {
  timeoutSeconds: 1,
  periodSeconds: 10,
  successThreshold: 1,
  failureThreshold: 3,
  'httpGet.scheme': 'HTTP',
};

const container: Record<string, DefaultValue> = {
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
  resources: {},
  'ports[*].protocol': 'TCP',
  'env[*].valueFrom.fieldRef.apiVersion': 'v1',
  // `Always` for an image without a tag or tagged `latest`, `IfNotPresent` otherwise.
  imagePullPolicy: (path, leaf, context) => {
    const image = String(context.sibling(path, 'image') ?? '');
    const tag = image.includes('@') ? 'digest' : (/:([^/:]+)$/.exec(image)?.[1] ?? 'latest');
    return leaf === (tag === 'latest' ? 'Always' : 'IfNotPresent');
  },
  ...Object.fromEntries(
    ['livenessProbe', 'readinessProbe', 'startupProbe'].flatMap((kind) =>
      Object.entries(probe).map(([field, value]) => [`${kind}.${field}`, value]),
    ),
  ),
};

const podSpec: Record<string, DefaultValue> = {
  restartPolicy: 'Always',
  dnsPolicy: 'ClusterFirst',
  schedulerName: 'default-scheduler',
  securityContext: {},
  terminationGracePeriodSeconds: 30,
  enableServiceLinks: true,
  preemptionPolicy: 'PreemptLowerPriority',
  priority: 0,
  serviceAccount: 'default',
  serviceAccountName: 'default',
  'volumes[*].configMap.defaultMode': 420,
  'volumes[*].secret.defaultMode': 420,
  'volumes[*].projected.defaultMode': 420,
  'volumes[*].emptyDir': {},
  ...Object.fromEntries(
    ['containers', 'initContainers'].flatMap((list) =>
      Object.entries(container).map(([field, value]) => [`${list}[*].${field}`, value]),
    ),
  ),
};

const under = (prefix: string, rules: Record<string, DefaultValue>) =>
  Object.fromEntries(Object.entries(rules).map(([path, value]) => [`${prefix}.${path}`, value]));

const template = (prefix: string) => ({
  ...under(`${prefix}.spec`, podSpec),
  [`${prefix}.metadata.creationTimestamp`]: null,
});

/** Per kind, pattern → default. */
const byKind: Record<string, Record<string, DefaultValue>> = {
  Pod: under('spec', podSpec),
  Deployment: {
    'spec.replicas': 1,
    'spec.revisionHistoryLimit': 10,
    'spec.progressDeadlineSeconds': 600,
    'spec.strategy.type': 'RollingUpdate',
    'spec.strategy.rollingUpdate.maxSurge': '25%',
    'spec.strategy.rollingUpdate.maxUnavailable': '25%',
    ...template('spec.template'),
  },
  ReplicaSet: { 'spec.replicas': 1, ...template('spec.template') },
  StatefulSet: {
    'spec.replicas': 1,
    'spec.revisionHistoryLimit': 10,
    'spec.podManagementPolicy': 'OrderedReady',
    'spec.updateStrategy.type': 'RollingUpdate',
    'spec.updateStrategy.rollingUpdate.partition': 0,
    'spec.persistentVolumeClaimRetentionPolicy.whenDeleted': 'Retain',
    'spec.persistentVolumeClaimRetentionPolicy.whenScaled': 'Retain',
    'spec.volumeClaimTemplates[*].spec.volumeMode': 'Filesystem',
    ...template('spec.template'),
  },
  DaemonSet: {
    'spec.revisionHistoryLimit': 10,
    'spec.updateStrategy.type': 'RollingUpdate',
    'spec.updateStrategy.rollingUpdate.maxUnavailable': 1,
    'spec.updateStrategy.rollingUpdate.maxSurge': 0,
    ...template('spec.template'),
  },
  Job: {
    'spec.backoffLimit': 6,
    'spec.completions': 1,
    'spec.parallelism': 1,
    'spec.completionMode': 'NonIndexed',
    'spec.suspend': false,
    'spec.manualSelector': false,
    'spec.podReplacementPolicy': 'TerminatingOrFailed',
    ...template('spec.template'),
  },
  CronJob: {
    'spec.concurrencyPolicy': 'Allow',
    'spec.suspend': false,
    'spec.successfulJobsHistoryLimit': 3,
    'spec.failedJobsHistoryLimit': 1,
    ...under('spec.jobTemplate', {
      'spec.backoffLimit': 6,
      'spec.completionMode': 'NonIndexed',
      'spec.suspend': false,
      'spec.podReplacementPolicy': 'TerminatingOrFailed',
      ...template('spec.template'),
    }),
    'spec.jobTemplate.metadata.creationTimestamp': null,
  },
  Service: {
    'spec.type': 'ClusterIP',
    'spec.sessionAffinity': 'None',
    'spec.internalTrafficPolicy': 'Cluster',
    'spec.ipFamilyPolicy': 'SingleStack',
    'spec.ipFamilies': ['IPv4'],
    'spec.ports[*].protocol': 'TCP',
    // The target port defaults to the port itself.
    'spec.ports[*].targetPort': (path, leaf, context) => leaf === context.sibling(path, 'port'),
  },
  PersistentVolumeClaim: { 'spec.volumeMode': 'Filesystem' },
  HorizontalPodAutoscaler: { 'spec.minReplicas': 1 },
  Ingress: {},
};

const patternOf = (path: string) => path.replace(/\[[^\]]*\]/g, '[*]');

/** Whether `leaf` at `path` of an object of `kind` is the value the API server would have filled in. */
export function isDefaultValue(kind: string, path: string, leaf: unknown, context: DefaultContext): boolean {
  const rules = byKind[kind];
  if (!rules) return false;
  const pattern = patternOf(path);
  if (!(pattern in rules)) return false;
  const rule = rules[pattern];
  if (typeof rule === 'function') return Boolean(rule(path, leaf, context));
  return JSON.stringify(rule) === JSON.stringify(leaf);
}
