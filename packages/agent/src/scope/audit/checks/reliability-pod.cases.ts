import { type Case, check } from './cases.ts';
import { container, deployment, now, object, pod, workload } from './fixtures.ts';
import type { Obj } from './values.ts';

const image = (fields: Obj) => deployment({ containers: [container(fields)] });
const noProbes = { containers: [container({ readinessProbe: undefined, livenessProbe: undefined })] };
const digest = `sha256:${'a'.repeat(64)}`;
const instance = (value?: string) => ({ metadata: { labels: { 'app.kubernetes.io/instance': value } } });
const deleting = (minutesAgo: number, finalizers?: string[]) => {
  const deletionTimestamp = new Date(now - minutesAgo * 60_000).toISOString();
  return object('v1', 'PersistentVolumeClaim', 'data', {
    metadata: { name: 'data', deletionTimestamp, finalizers },
  });
};

export const reliabilityPodCases: Case[] = [
  ...check('readinessProbeMissing', (flags, passes) => [
    flags('no readiness probe', deployment(noProbes), ['warning', 'has no readinessProbe', 'app']),
    passes('a Job runs to completion', workload('Job', noProbes)),
    passes('a pod that never restarts', pod({ ...noProbes, restartPolicy: 'Never' })),
    passes('probes set', deployment()),
  ]),
  ...check('livenessProbeMissing', (flags, passes) => [
    flags('no liveness probe', workload('StatefulSet', noProbes), ['warning', 'has no livenessProbe', 'app']),
    passes('a CronJob runs to completion', workload('CronJob', noProbes)),
    passes('probes set', deployment()),
  ]),
  ...check('imageTagLatest', (flags, passes) => [
    flags('no tag', image({ image: 'nginx' }), ['danger', 'image nginx has no tag', 'app']),
    flags('a registry port but no tag', image({ image: 'registry:5000/team/app' }), [
      'danger',
      'has no tag',
      'app',
    ]),
    flags('latest', image({ image: 'nginx:latest' }), [
      'danger',
      'image nginx:latest uses the latest tag',
      'app',
    ]),
    passes('a version tag behind a registry port', image({ image: 'registry:5000/team/app:1.2' })),
    passes('pinned by digest', image({ image: `nginx:latest@${digest}` })),
  ]),
  ...check('pullPolicyNotAlways', (flags, passes) => [
    flags('IfNotPresent', image({ imagePullPolicy: 'IfNotPresent' }), [
      'warning',
      'imagePullPolicy is IfNotPresent',
      'app',
    ]),
    flags('unset with a version tag', image({ imagePullPolicy: undefined }), [
      'warning',
      'is IfNotPresent',
      'app',
    ]),
    passes(
      'unset with latest (defaults to Always)',
      image({ image: 'nginx:latest', imagePullPolicy: undefined }),
    ),
    passes('Always', deployment()),
  ]),
  ...check('priorityClassNotSet', (flags, passes) => [
    flags('no priority class', deployment({ priorityClassName: undefined }), [
      'warning',
      'sets no priorityClassName',
    ]),
    passes('a priority class', deployment()),
  ]),
  ...check('missingTopologySpread', (flags, passes) => [
    flags('no constraints', deployment({ topologySpreadConstraints: undefined }), [
      'warning',
      'sets no topologySpread',
    ]),
    passes('a DaemonSet runs on every node anyway', workload('DaemonSet', { topologySpreadConstraints: [] })),
    passes('a hostname constraint', deployment()),
  ]),
  ...check('metadataAndInstanceMismatched', (flags, passes) => [
    flags('no instance label', deployment({}, instance()), [
      'warning',
      'has no app.kubernetes.io/instance label',
    ]),
    flags('another instance', deployment({}, instance('shop')), [
      'warning',
      'app.kubernetes.io/instance is shop, not web',
    ]),
    passes('the instance label is the name', deployment()),
  ]),
  ...check('stuckTerminating', (flags, passes) => [
    flags('10 minutes, held by a finalizer', deleting(10, ['kubernetes.io/pvc-protection']), [
      'warning',
      'has been terminating for 10 minutes; finalizers: kubernetes.io/pvc-protection',
    ]),
    flags('45 minutes', deleting(45), ['danger', 'terminating for 45 minutes']),
    passes('deleted 2 minutes ago', deleting(2)),
    passes('not deleted', pod()),
  ]),
];
