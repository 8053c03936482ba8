import { cellText, type KubeObject, podSummary, podTone } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { podPrinter } from './pods.ts';

const now = Date.parse('2026-01-01T12:00:00Z');
const minutesAgo = (minutes: number) => new Date(now - minutes * 60_000).toISOString();

interface PodShape {
  init?: string[];
  sidecars?: string[];
  containers?: string[];
  phase?: string;
  reason?: string;
  conditions?: Record<string, string>;
  initStatuses?: Record<string, unknown>[];
  statuses?: Record<string, unknown>[];
  deleting?: boolean;
}

function pod(shape: PodShape): KubeObject {
  return {
    metadata: {
      name: 'p',
      creationTimestamp: minutesAgo(90),
      ...(shape.deleting ? { deletionTimestamp: minutesAgo(1) } : {}),
    },
    spec: {
      initContainers: [
        ...(shape.init ?? []).map((name) => ({ name })),
        ...(shape.sidecars ?? []).map((name) => ({ name, restartPolicy: 'Always' })),
      ],
      containers: (shape.containers ?? ['app']).map((name) => ({ name })),
    },
    status: {
      phase: shape.phase ?? 'Running',
      ...(shape.reason ? { reason: shape.reason } : {}),
      conditions: Object.entries(shape.conditions ?? {}).map(([type, status]) => ({ type, status })),
      initContainerStatuses: shape.initStatuses ?? [],
      containerStatuses: shape.statuses ?? [],
    },
  };
}

const running = (name: string, ready = true, extra: Record<string, unknown> = {}) => ({
  name,
  ready,
  restartCount: 0,
  state: { running: { startedAt: minutesAgo(5) } },
  ...extra,
});
const waiting = (name: string, reason: string, extra: Record<string, unknown> = {}) => ({
  name,
  ready: false,
  restartCount: 0,
  state: { waiting: { reason } },
  ...extra,
});
const terminated = (
  name: string,
  exitCode: number,
  reason?: string,
  extra: Record<string, unknown> = {},
) => ({
  name,
  ready: false,
  restartCount: 0,
  state: { terminated: { exitCode, ...(reason ? { reason } : {}), finishedAt: minutesAgo(2) } },
  ...extra,
});

describe('the pod STATUS kubectl prints', () => {
  it.each<[string, PodShape, string, string]>([
    ['running and ready', { statuses: [running('app')] }, 'Running', '1/1'],
    ['running, not ready', { statuses: [running('app', false)] }, 'Running', '0/1'],
    [
      'the first init container still running',
      {
        phase: 'Pending',
        init: ['a', 'b'],
        initStatuses: [running('a', false), waiting('b', 'PodInitializing')],
      },
      'Init:0/2',
      '0/1',
    ],
    [
      'the second init container after the first succeeded',
      {
        phase: 'Pending',
        init: ['a', 'b'],
        initStatuses: [terminated('a', 0, 'Completed'), running('b', false)],
      },
      'Init:1/2',
      '0/1',
    ],
    [
      'an init container in a crash loop',
      {
        phase: 'Pending',
        init: ['a'],
        initStatuses: [waiting('a', 'CrashLoopBackOff', { restartCount: 3 })],
      },
      'Init:CrashLoopBackOff',
      '0/1',
    ],
    [
      'an init container that failed',
      { phase: 'Pending', init: ['a'], initStatuses: [terminated('a', 1, 'Error')] },
      'Init:Error',
      '0/1',
    ],
    [
      'an init container killed by a signal without a reason',
      {
        phase: 'Pending',
        init: ['a'],
        initStatuses: [
          terminated('a', 137, undefined, { state: { terminated: { exitCode: 137, signal: 9 } } }),
        ],
      },
      'Init:Signal:9',
      '0/1',
    ],
    [
      'a crash loop',
      { statuses: [waiting('app', 'CrashLoopBackOff', { restartCount: 5 })] },
      'CrashLoopBackOff',
      '0/1',
    ],
    [
      'an image pull error',
      { phase: 'Pending', statuses: [waiting('app', 'ErrImagePull')] },
      'ErrImagePull',
      '0/1',
    ],
    [
      'creating containers',
      { phase: 'Pending', statuses: [waiting('app', 'ContainerCreating')] },
      'ContainerCreating',
      '0/1',
    ],
    ['completed', { phase: 'Succeeded', statuses: [terminated('app', 0, 'Completed')] }, 'Completed', '0/1'],
    ['a failed container', { phase: 'Failed', statuses: [terminated('app', 2, 'Error')] }, 'Error', '0/1'],
    [
      'a terminated container without a reason',
      { phase: 'Failed', statuses: [terminated('app', 3)] },
      'ExitCode:3',
      '0/1',
    ],
    ['OOMKilled now', { statuses: [terminated('app', 137, 'OOMKilled')] }, 'OOMKilled', '0/1'],
    ['evicted', { phase: 'Failed', reason: 'Evicted' }, 'Evicted', '0/1'],
    ['unschedulable', { phase: 'Pending', conditions: { PodScheduled: 'False' } }, 'Pending', '0/1'],
    ['terminating', { deleting: true, statuses: [running('app')] }, 'Terminating', '1/1'],
    [
      'a deleted pod whose phase is terminal stays Completed',
      { deleting: true, phase: 'Succeeded', statuses: [terminated('app', 0, 'Completed')] },
      'Completed',
      '0/1',
    ],
    [
      'a pod on a lost node',
      { deleting: true, reason: 'NodeLost', statuses: [running('app')] },
      'Unknown',
      '1/1',
    ],
    [
      'one container done, one running, pod ready',
      {
        containers: ['a', 'b'],
        conditions: { Ready: 'True' },
        statuses: [terminated('a', 0, 'Completed'), running('b')],
      },
      'Running',
      '1/2',
    ],
    [
      'one container done, one running, pod not ready',
      { containers: ['a', 'b'], statuses: [terminated('a', 0, 'Completed'), running('b')] },
      'NotReady',
      '1/2',
    ],
    [
      'one container completed after the other failed',
      { containers: ['a', 'b'], statuses: [terminated('a', 0, 'Completed'), terminated('b', 1, 'Error')] },
      'Error',
      '0/2',
    ],
    [
      'a started sidecar counts as a container and does not hold initialization',
      {
        sidecars: ['proxy'],
        conditions: { Initialized: 'True' },
        initStatuses: [running('proxy', true, { started: true })],
        statuses: [running('app')],
      },
      'Running',
      '2/2',
    ],
  ])('%s', (_name, shape, status, ready) => {
    const summary = podSummary(pod(shape));
    expect(summary.reason).toBe(status);
    expect(summary.ready).toBe(ready);
  });

  it('says SchedulingGated when the scheduler is gated', () => {
    const gated = pod({ phase: 'Pending' });
    (gated.status as { conditions: unknown[] }).conditions = [
      { type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' },
    ];
    expect(podSummary(gated).reason).toBe('SchedulingGated');
  });
});

describe('the pod row', () => {
  it('prints restarts with the age of the last one, across init and app containers once initialized', () => {
    const row = podPrinter.print(
      pod({
        containers: ['a', 'b'],
        statuses: [
          running('a', true, {
            restartCount: 2,
            lastState: { terminated: { exitCode: 1, finishedAt: minutesAgo(7) } },
          }),
          running('b', true, {
            restartCount: 3,
            lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', finishedAt: minutesAgo(3) } },
          }),
        ],
      }),
    );
    expect(row.cells.map((cell) => cellText(cell, now))).toEqual([
      '2/2',
      'Running',
      '5 (3m ago)',
      '90m',
      '<none>',
      '<none>',
      '<none>',
      '<none>',
    ]);
    expect(row.cells[2]).toEqual({ before: '5 (', at: minutesAgo(3), after: ' ago)' });
    expect(row.status).toEqual({ text: 'Running', tone: 'ok' });
  });

  it('counts only the init containers while initializing', () => {
    const summary = podSummary(
      pod({
        phase: 'Pending',
        init: ['a'],
        initStatuses: [
          waiting('a', 'CrashLoopBackOff', {
            restartCount: 4,
            lastState: { terminated: { exitCode: 1, finishedAt: minutesAgo(1) } },
          }),
        ],
        statuses: [waiting('app', 'PodInitializing', { restartCount: 9 })],
      }),
    );
    expect(summary).toEqual({
      ready: '0/1',
      reason: 'Init:CrashLoopBackOff',
      restarts: 4,
      lastRestart: minutesAgo(1),
    });
  });

  it('prints a bare count when no restart time is known', () => {
    const row = podPrinter.print(pod({ statuses: [running('app', true, { restartCount: 2 })] }));
    expect(row.cells[2]).toBe('2');
  });

  it('fills the wide columns: IP, node, nominated node, readiness gates passed', () => {
    const object = pod({ statuses: [running('app')] });
    Object.assign(object.spec ?? {}, {
      nodeName: 'n1',
      readinessGates: [{ conditionType: 'x' }, { conditionType: 'y' }],
    });
    Object.assign(object.status ?? {}, {
      podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }],
      nominatedNodeName: 'n2',
      conditions: [
        { type: 'x', status: 'True' },
        { type: 'y', status: 'False' },
      ],
    });
    expect(podPrinter.print(object).cells.slice(4)).toEqual(['10.0.0.1', 'n1', 'n2', '1/2']);
  });
});

describe('the tone of a pod status', () => {
  it.each([
    ['Running', 'ok'],
    ['Completed', 'muted'],
    ['Succeeded', 'muted'],
    ['Pending', 'progress'],
    ['ContainerCreating', 'progress'],
    ['PodInitializing', 'progress'],
    ['Terminating', 'progress'],
    ['Init:0/2', 'progress'],
    ['NotReady', 'warning'],
    ['Unknown', 'warning'],
    ['CrashLoopBackOff', 'error'],
    ['Init:CrashLoopBackOff', 'error'],
    ['Init:Error', 'error'],
    ['OOMKilled', 'error'],
    ['ErrImagePull', 'error'],
    ['ImagePullBackOff', 'error'],
    ['Evicted', 'error'],
    ['Failed', 'error'],
    ['ExitCode:3', 'error'],
  ])('%s is %s', (reason, tone) => {
    expect(podTone(reason)).toBe(tone);
  });
});
