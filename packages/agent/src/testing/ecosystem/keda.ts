import { condition, metadata, type StateFixture } from './fixture.ts';

/**
 * KEDA objects in each state, statuses as KEDA v2.18.0 writes them: Ready `ScaledObjectReady` or
 * `ScaledObjectCheckFailed` with "ScaledObject doesn't have correct scaleTargetRef specification: …"
 * (controllers/keda/scaledobject_controller.go, pkg/common/message/message.go), Active `ScalerActive` /
 * `ScalerNotActive` (pkg/scaling/executor/scale_scaledobjects.go), Fallback `NoFallbackFound`
 * (pkg/fallback/fallback.go), Paused `ScaledObjectPaused` (apis/keda/v1alpha1/condition_types.go).
 */
const api = 'keda.sh/v1alpha1';
const cpuTrigger = { type: 'cpu', metricType: 'Utilization', metadata: { value: '60' } };
const ready = condition(
  'Ready',
  'True',
  'ScaledObjectReady',
  'ScaledObject is defined correctly and is ready for scaling',
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

export function kedaStates(namespace: string, prefix: string): StateFixture[] {
  const scaledObject = (
    name: string,
    target: string,
    conditions: object[],
    annotations?: Record<string, string>,
  ) => ({
    apiVersion: api,
    kind: 'ScaledObject',
    metadata: { ...metadata(name, namespace), ...(annotations ? { annotations } : {}) },
    spec: {
      scaleTargetRef: { name: target },
      minReplicaCount: 1,
      maxReplicaCount: 5,
      triggers: [cpuTrigger],
    },
    status: {
      scaleTargetKind: 'apps/v1.Deployment',
      scaleTargetGVKR: { group: 'apps', kind: 'Deployment', resource: 'deployments', version: 'v1' },
      hpaName: `keda-hpa-${name}`,
      conditions,
    },
  });
  return [
    {
      state: 'healthy',
      object: scaledObject(`${prefix}-scaler`, `${prefix}-web`, [ready, idle, noFallback]),
      expected: { health: 'healthy', from: 'Ready', reason: 'ScaledObjectReady' },
    },
    {
      state: 'progressing',
      object: scaledObject(
        `${prefix}-scaler-paused`,
        `${prefix}-web`,
        [
          ready,
          idle,
          noFallback,
          condition('Paused', 'True', 'ScaledObjectPaused', 'ScaledObject is paused'),
        ],
        { 'autoscaling.keda.sh/paused': 'true' },
      ),
      expected: { health: 'degraded', from: 'Paused', reason: 'ScaledObjectPaused' },
    },
    {
      state: 'failed',
      object: scaledObject(`${prefix}-scaler-notarget`, `${prefix}-absent`, [
        condition(
          'Ready',
          'False',
          'ScaledObjectCheckFailed',
          `ScaledObject doesn't have correct scaleTargetRef specification: deployments.apps "${prefix}-absent" not found`,
        ),
        condition('Active', 'Unknown', 'UnknownState', 'ScaledObject check failed'),
        noFallback,
      ]),
      expected: { health: 'unhealthy', from: 'Ready', reason: 'ScaledObjectCheckFailed' },
    },
    {
      state: 'progressing',
      object: scaledObject(`${prefix}-scaler-fallback`, `${prefix}-web`, [
        ready,
        idle,
        condition(
          'Fallback',
          'True',
          'FallbackExists',
          'At least one trigger is falling back on this scaled object',
        ),
      ]),
      expected: { health: 'degraded', from: 'Fallback', reason: 'FallbackExists' },
    },
    {
      state: 'healthy',
      object: {
        apiVersion: api,
        kind: 'ScaledJob',
        metadata: metadata(`${prefix}-jobs`, namespace),
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
        status: {
          conditions: [
            condition(
              'Ready',
              'True',
              'ScaledJobReady',
              'ScaledJob is defined correctly and is ready to scaling',
            ),
            idle,
          ],
        },
      },
      expected: { health: 'healthy', from: 'Ready' },
    },
    {
      state: 'healthy',
      object: {
        apiVersion: api,
        kind: 'TriggerAuthentication',
        metadata: metadata(`${prefix}-auth`, namespace),
        spec: { secretTargetRef: [{ parameter: 'password', name: `${prefix}-secret`, key: 'password' }] },
      },
      expected: { health: 'healthy' },
    },
  ];
}
