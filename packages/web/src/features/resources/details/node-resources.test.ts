import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { nodeFigures, nodeRoles, podRequest } from './node-resources.ts';

const container = (requests: Record<string, string>) => ({ resources: { requests } });
const pod = (spec: Record<string, unknown>, phase = 'Running'): KubeObject => ({
  kind: 'Pod',
  spec,
  status: { phase },
});

describe('podRequest', () => {
  it('sums the containers, takes the largest init container when larger, and adds the overhead', () => {
    const p = pod({
      containers: [container({ cpu: '100m', memory: '64Mi' }), container({ cpu: '250m' })],
      initContainers: [container({ cpu: '500m', memory: '16Mi' })],
      overhead: { memory: '1Mi' },
    });
    expect(podRequest(p, 'cpu')).toBeCloseTo(0.5);
    expect(podRequest(p, 'memory')).toBe(65 * 1024 ** 2);
    expect(podRequest(p, 'ephemeral-storage')).toBe(0);
    expect(podRequest(p, 'pods')).toBe(1);
  });
});

describe('podRequest with a sidecar', () => {
  it('counts a running init container beside the app containers, as the scheduler and the drain fit do', () => {
    const pod = {
      spec: {
        initContainers: [
          { name: 'proxy', restartPolicy: 'Always', resources: { requests: { cpu: '200m' } } },
          { name: 'migrate', resources: { requests: { cpu: '1' } } },
        ],
        containers: [{ name: 'app', resources: { requests: { cpu: '300m' } } }],
      },
    };
    // app + sidecar = 0.5; migrate with the sidecar started before it = 1.2, the larger.
    expect(podRequest(pod, 'cpu')).toBeCloseTo(1.2);
  });
});

describe('nodeFigures', () => {
  it('puts capacity and allocatable beside the requests of pods that have not finished', () => {
    const node: KubeObject = {
      kind: 'Node',
      status: {
        capacity: { cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' },
        allocatable: { cpu: '3500m', memory: '15Gi', pods: '110' },
      },
    };
    const pods = [
      pod({ containers: [container({ cpu: '1', memory: '1Gi' })] }),
      pod({ containers: [container({ cpu: '1' })] }, 'Succeeded'),
    ];
    expect(nodeFigures(node, pods)).toEqual([
      { resource: 'cpu', capacity: 4, allocatable: 3.5, requested: 1 },
      { resource: 'memory', capacity: 16 * 1024 ** 3, allocatable: 15 * 1024 ** 3, requested: 1024 ** 3 },
      { resource: 'pods', capacity: 110, allocatable: 110, requested: 1 },
      { resource: 'ephemeral-storage', capacity: 100 * 1024 ** 3, allocatable: undefined, requested: 0 },
    ]);
  });
});

describe('nodeRoles', () => {
  it('reads node-role labels and the legacy role label', () => {
    const node = (labels: Record<string, string>): KubeObject => ({ metadata: { labels } });
    expect(
      nodeRoles(
        node({ 'node-role.kubernetes.io/control-plane': '', 'node-role.kubernetes.io/worker': '', x: 'y' }),
      ),
    ).toEqual(['control-plane', 'worker']);
    expect(nodeRoles(node({ 'kubernetes.io/role': 'agent' }))).toEqual(['agent']);
    expect(nodeRoles(node({}))).toEqual([]);
  });
});
