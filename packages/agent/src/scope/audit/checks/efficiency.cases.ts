import { type Case, check } from './cases.ts';
import type { PodMetrics } from './context.ts';
import { container, deployment, namespace, readyPod } from './fixtures.ts';

const withResources = (resources: object) => deployment({ containers: [container({ resources })] });
const cluster = [readyPod('web-1', 'node-a'), readyPod('web-2', 'node-b')];
/** Both pods' metrics, with the same usage of the `app` container. */
function usage(cpuMillicores: number, memoryMi: number) {
  const containers = [{ name: 'app', cpuMillicores, memoryBytes: memoryMi * 2 ** 20 }];
  const podMetrics: PodMetrics[] = ['web-1', 'web-2'].map((name) => ({ name, namespace, containers }));
  return { cluster, options: { podMetrics } };
}

/** The four "missing" checks: what each wants, and resources that satisfy it. */
const missing: [id: string, wanted: string, enough: object][] = [
  ['cpuRequestMissing', 'cpu request', { limits: { cpu: '1' } }], // the API server copies a limit to the request
  ['memoryRequestMissing', 'memory request', { requests: { memory: '1Gi' } }],
  ['cpuLimitMissing', 'cpu limit', { limits: { cpu: '1' } }],
  ['memoryLimitMissing', 'memory limit', { limits: { memory: '1Gi' } }],
];
const missingCases = ([id, wanted, enough]: (typeof missing)[number]) =>
  check(id, (flags, passes) => [
    flags('no resources', withResources({}), ['warning', `sets no ${wanted}`, 'app']),
    passes(`a ${wanted}`, withResources(enough)),
  ]);

const cpuLow = 'uses 5% of its CPU request (5m of 100m, average over 2 pods)';
const memoryHigh = 'uses 98% of its memory request (125Mi of 128Mi, average over 2 pods)';

export const efficiencyCases: Case[] = [
  ...missing.flatMap(missingCases),
  ...check('resourceUtilization', (flags, passes) => [
    flags('CPU far below the request', deployment(), ['warning', cpuLow, 'app'], usage(5, 64)),
    flags('memory near the request', deployment(), ['warning', memoryHigh, 'app'], usage(50, 125)),
    passes('usage within bounds', deployment(), usage(50, 64)),
    passes('no metrics', deployment(), { cluster }),
  ]),
];
