import { describe, expect, it } from 'vitest';
import { isFailingPod, isFailingStatus, type PodLike, podStatusText } from './pod-status.ts';

const ready = { type: 'Ready', status: 'True' };
const running = (isReady = true) => ({ name: 'app', ready: isReady, state: { running: {} } });
const waiting = (reason: string) => ({ name: 'app', ready: false, state: { waiting: { reason } } });
const terminated = (reason: string | undefined, exitCode: number, signal?: number) => ({
  name: 'app',
  ready: false,
  state: { terminated: { reason, exitCode, signal } },
});
const pod = (status: PodLike['status'], extra: Omit<PodLike, 'status'> = {}): PodLike => ({
  ...extra,
  status,
});

describe('podStatusText, as kubectl get pods prints it', () => {
  it.each<[string, PodLike, string]>([
    [
      'running and ready',
      pod({ phase: 'Running', conditions: [ready], containerStatuses: [running()] }),
      'Running',
    ],
    ['pending, nothing started', pod({ phase: 'Pending' }), 'Pending'],
    [
      'crash looping',
      pod({ phase: 'Running', containerStatuses: [waiting('CrashLoopBackOff')] }),
      'CrashLoopBackOff',
    ],
    [
      'image pull',
      pod({ phase: 'Pending', containerStatuses: [waiting('ImagePullBackOff')] }),
      'ImagePullBackOff',
    ],
    [
      'creating',
      pod({ phase: 'Pending', containerStatuses: [waiting('ContainerCreating')] }),
      'ContainerCreating',
    ],
    ['OOM killed', pod({ phase: 'Running', containerStatuses: [terminated('OOMKilled', 137)] }), 'OOMKilled'],
    ['job pod that failed', pod({ phase: 'Failed', containerStatuses: [terminated('Error', 1)] }), 'Error'],
    [
      'job pod that completed',
      pod({ phase: 'Succeeded', containerStatuses: [terminated('Completed', 0)] }),
      'Completed',
    ],
    [
      'ended without a reason',
      pod({ phase: 'Running', containerStatuses: [terminated(undefined, 2)] }),
      'ExitCode:2',
    ],
    [
      'killed by a signal',
      pod({ phase: 'Running', containerStatuses: [terminated(undefined, 0, 9)] }),
      'Signal:9',
    ],
    ['evicted', pod({ phase: 'Failed', reason: 'Evicted' }), 'Evicted'],
    ['rejected by the kubelet', pod({ phase: 'Failed', reason: 'OutOfcpu' }), 'OutOfcpu'],
    [
      'init container failing',
      pod(
        {
          phase: 'Pending',
          initContainerStatuses: [{ name: 'init', state: { terminated: { reason: 'Error', exitCode: 1 } } }],
        },
        { spec: { initContainers: [{ name: 'init' }] } },
      ),
      'Init:Error',
    ],
    [
      'init container crash looping',
      pod(
        {
          phase: 'Pending',
          initContainerStatuses: [{ name: 'init', state: { waiting: { reason: 'CrashLoopBackOff' } } }],
        },
        { spec: { initContainers: [{ name: 'init' }] } },
      ),
      'Init:CrashLoopBackOff',
    ],
    [
      'second of two init containers running',
      pod(
        {
          phase: 'Pending',
          initContainerStatuses: [
            { name: 'a', state: { terminated: { reason: 'Completed', exitCode: 0 } } },
            { name: 'b', state: { running: {} } },
          ],
        },
        { spec: { initContainers: [{ name: 'a' }, { name: 'b' }] } },
      ),
      'Init:1/2',
    ],
    [
      'a started sidecar does not hold the pod in Init',
      pod(
        {
          phase: 'Running',
          conditions: [ready],
          initContainerStatuses: [{ name: 'proxy', started: true, state: { running: {} } }],
          containerStatuses: [running()],
        },
        { spec: { initContainers: [{ name: 'proxy', restartPolicy: 'Always' }] } },
      ),
      'Running',
    ],
    [
      'one container done, one still running',
      pod({
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'False' }],
        containerStatuses: [
          running(),
          { name: 'b', state: { terminated: { reason: 'Completed', exitCode: 0 } } },
        ],
      }),
      'NotReady',
    ],
    [
      'being deleted',
      pod(
        { phase: 'Running', containerStatuses: [running()] },
        { metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' } },
      ),
      'Terminating',
    ],
  ])('%s: %s', (_what, p, text) => {
    expect(podStatusText(p)).toBe(text);
  });
});

describe('the failing pod', () => {
  it.each([
    'CrashLoopBackOff',
    'Error',
    'ImagePullBackOff',
    'ErrImagePull',
    'OOMKilled',
    'Evicted',
    'CreateContainerConfigError',
    'Init:Error',
    'Init:CrashLoopBackOff',
    'ExitCode:1',
    'Signal:9',
  ])('%s is failing', (text) => {
    expect(isFailingStatus(text)).toBe(true);
  });

  it.each([
    'Running',
    'Pending',
    'ContainerCreating',
    'Completed',
    'Init:0/1',
    'Terminating',
    'NotReady',
    'ExitCode:0',
  ])('%s is not failing', (text) => {
    expect(isFailingStatus(text)).toBe(false);
  });

  it('counts every pod in phase Failed, whatever kubectl calls it', () => {
    expect(isFailingPod(pod({ phase: 'Failed', reason: 'OutOfcpu' }))).toBe(true);
  });

  it('does not count a running pod that is not ready yet, nor one being deleted, even failed', () => {
    expect(isFailingPod(pod({ phase: 'Running', containerStatuses: [running(false)] }))).toBe(false);
    const leaving = pod(
      { phase: 'Running', containerStatuses: [waiting('CrashLoopBackOff')] },
      { metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' } },
    );
    expect(isFailingPod(leaving)).toBe(false);
    const failedLeaving = pod(
      { phase: 'Failed', reason: 'Evicted' },
      { metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' } },
    );
    expect(isFailingPod(failedLeaving)).toBe(false);
  });
});
