import { type MetadataExtras, metadata, type StateFixture, withStatus } from './fixture.ts';

/**
 * KEDA objects in each state, statuses as KEDA v2.18.0's operator wrote them on the test control plane (ADR 0127:
 * run against it, not kept in the full profile): its conditions carry no lastTransitionTime
 * (apis/keda/v1alpha1/condition_types.go), Paused False has no reason until a pause is lifted. Ready
 * `ScaledObjectReady` or `ScaledObjectCheckFailed` with "ScaledObject doesn't have correct scaleTargetRef
 * specification: …" (controllers/keda/scaledobject_controller.go, pkg/common/message/message.go); a cpu trigger is
 * always Active `ScalerActive` (pkg/scaling/executor/scale_scaledobjects.go); paused, Ready keeps its reason with
 * "ScaledObject is paused" and KEDA deletes its HPA (status.hpaName stays); Fallback `FallbackExists`
 * (pkg/fallback/fallback.go, not observed: a cpu trigger has no fallback). A ScaledJob's cron trigger outside its
 * window is Active False `ScalerNotActive` (pkg/scaling/executor/scale_jobs.go), its Fallback Unknown.
 */
const api = 'keda.sh/v1alpha1';
const cpuTrigger = { type: 'cpu', metricType: 'Utilization', metadata: { value: '60' } };
/** A condition as KEDA writes it: no lastTransitionTime; Unknown and False ones may have no reason. */
const condition = (
  type: string,
  status: 'True' | 'False' | 'Unknown',
  reason?: string,
  message?: string,
) => ({
  type,
  status,
  ...(reason ? { reason, message } : {}),
});
const readyMessage = 'ScaledObject is defined correctly and is ready for scaling';
const ready = condition('Ready', 'True', 'ScaledObjectReady', readyMessage);
const active = condition(
  'Active',
  'True',
  'ScalerActive',
  'Scaling is performed because triggers are active',
);
const idle = condition(
  'Active',
  'False',
  'ScalerNotActive',
  'Scaling is not performed because triggers are not active',
);
const noFallback = condition(
  'Fallback',
  'False',
  'NoFallbackFound',
  'No fallbacks are active on this scaled object',
);
const notPaused = condition('Paused', 'False');

type Status = Record<string, unknown>;

/**
 * A ScaledObject scaling Deployment `target` (its own name unless given) between 1 and `maxReplicas` (10 unless
 * given), on CPU unless given.
 */
export const scaledObject = (
  name: string,
  options: {
    namespace?: string;
    target?: string;
    maxReplicas?: number;
    triggers?: object[];
    annotations?: Record<string, string>;
    status?: Status;
  } = {},
) => ({
  apiVersion: api,
  kind: 'ScaledObject',
  metadata: metadata(
    name,
    options.namespace,
    options.annotations ? { annotations: options.annotations } : {},
  ),
  spec: {
    scaleTargetRef: { name: options.target ?? name },
    minReplicaCount: 1,
    maxReplicaCount: options.maxReplicas ?? 10,
    triggers: options.triggers ?? [cpuTrigger],
  },
  ...withStatus(options.status),
});

/** A ScaledJob running one container per event of an hourly cron trigger. */
export const scaledJob = (name: string, namespace?: string, status?: Status) => ({
  apiVersion: api,
  kind: 'ScaledJob',
  metadata: metadata(name, namespace),
  spec: {
    jobTargetRef: {
      template: {
        spec: {
          restartPolicy: 'Never',
          containers: [{ name: 'work', image: 'registry.example/work:1' }],
        },
      },
    },
    maxReplicaCount: 10,
    triggers: [
      {
        type: 'cron',
        metadata: { timezone: 'UTC', start: '0 * * * *', end: '30 * * * *', desiredReplicas: '1' },
      },
    ],
  },
  ...withStatus(status),
});

/** A TriggerAuthentication handing a trigger `parameter` from key `key` of Secret `secret`. */
export const triggerAuthentication = (
  name: string,
  namespace: string,
  secretRef: { parameter: string; name: string; key: string },
  extras: MetadataExtras = {},
) => ({
  apiVersion: api,
  kind: 'TriggerAuthentication',
  metadata: metadata(name, namespace, extras),
  spec: { secretTargetRef: [secretRef] },
});

export function kedaStates(namespace: string, prefix: string): StateFixture[] {
  const absent = `${prefix}-absent`;
  const ownScaledObject = (
    name: string,
    target: string,
    conditions: object[],
    annotations?: Record<string, string>,
  ) =>
    scaledObject(name, {
      namespace,
      target,
      maxReplicas: 5,
      ...(annotations ? { annotations } : {}),
      status: {
        // KEDA records the target's kind and its HPA once it found the target.
        ...(target === absent
          ? {}
          : {
              scaleTargetKind: 'apps/v1.Deployment',
              scaleTargetGVKR: { group: 'apps', kind: 'Deployment', resource: 'deployments', version: 'v1' },
              hpaName: `keda-hpa-${name}`,
            }),
        conditions,
      },
    });
  return [
    {
      state: 'healthy',
      object: ownScaledObject(`${prefix}-scaler`, `${prefix}-web`, [ready, active, noFallback, notPaused]),
      expected: { health: 'healthy', from: 'Ready', reason: 'ScaledObjectReady' },
    },
    {
      state: 'progressing',
      object: ownScaledObject(
        `${prefix}-scaler-paused`,
        `${prefix}-web`,
        [
          condition('Ready', 'True', 'ScaledObjectReady', 'ScaledObject is paused'),
          active,
          noFallback,
          condition('Paused', 'True', 'ScaledObjectPaused', 'ScaledObject is paused'),
        ],
        { 'autoscaling.keda.sh/paused': 'true' },
      ),
      expected: { health: 'degraded', from: 'Paused', reason: 'ScaledObjectPaused' },
    },
    {
      state: 'failed',
      object: ownScaledObject(`${prefix}-scaler-notarget`, absent, [
        condition(
          'Ready',
          'False',
          'ScaledObjectCheckFailed',
          `ScaledObject doesn't have correct scaleTargetRef specification: deployments.apps "${absent}" not found`,
        ),
        condition('Active', 'Unknown', 'UnknownState', 'ScaledObject check failed'),
        noFallback,
        notPaused,
      ]),
      expected: { health: 'unhealthy', from: 'Ready', reason: 'ScaledObjectCheckFailed' },
    },
    {
      state: 'progressing',
      object: ownScaledObject(`${prefix}-scaler-fallback`, `${prefix}-web`, [
        ready,
        active,
        condition(
          'Fallback',
          'True',
          'FallbackExists',
          'At least one trigger is falling back on this scaled object',
        ),
        notPaused,
      ]),
      expected: { health: 'degraded', from: 'Fallback', reason: 'FallbackExists' },
    },
    {
      state: 'healthy',
      object: scaledJob(`${prefix}-jobs`, namespace, {
        conditions: [
          condition(
            'Ready',
            'True',
            'ScaledJobReady',
            'ScaledJob is defined correctly and is ready to scaling',
          ),
          idle,
          condition('Fallback', 'Unknown'),
          notPaused,
        ],
        triggersTypes: 'cron',
      }),
      expected: { health: 'healthy', from: 'Ready' },
    },
    {
      state: 'healthy',
      object: triggerAuthentication(`${prefix}-auth`, namespace, {
        parameter: 'password',
        name: `${prefix}-secret`,
        key: 'password',
      }),
      expected: { health: 'healthy' },
    },
  ];
}
