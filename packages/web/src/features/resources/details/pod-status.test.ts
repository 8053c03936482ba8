import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { containerTroubles, endedWords, probeWords, stateWords } from './pod-status.ts';

const pod = (
  status: Record<string, unknown>,
  spec: Record<string, unknown> = {},
  metadata = {},
): KubeObject => ({
  kind: 'Pod',
  metadata: { name: 'p', ...metadata },
  spec: { containers: [{ name: 'main' }], ...spec },
  status,
});

const crashLooping = pod({
  phase: 'Running',
  containerStatuses: [
    {
      name: 'main',
      ready: false,
      restartCount: 4,
      state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container' } },
      lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: '2026-11-28T12:00:00Z' } },
    },
  ],
});

describe('containerTroubles', () => {
  it('gives the waiting reason and message, the last run’s reason and exit code, and the restarts', () => {
    expect(containerTroubles(crashLooping)).toEqual([
      {
        container: 'main',
        init: false,
        now: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container' },
        last: { exitCode: 1, reason: 'Error', finishedAt: '2026-11-28T12:00:00Z' },
        restarts: 4,
      },
    ]);
  });

  it('leaves out containers that are starting or fine, and keeps an OOMKilled last run of a running one', () => {
    const status = {
      containerStatuses: [
        { name: 'a', state: { waiting: { reason: 'ContainerCreating' } } },
        { name: 'b', ready: true, state: { running: {} } },
        {
          name: 'c',
          ready: true,
          restartCount: 1,
          state: { running: {} },
          lastState: { terminated: { exitCode: 137, reason: 'OOMKilled' } },
        },
      ],
    };
    expect(containerTroubles(pod(status))).toEqual([
      {
        container: 'c',
        init: false,
        now: undefined,
        last: { exitCode: 137, reason: 'OOMKilled' },
        restarts: 1,
      },
    ]);
  });
});

describe('words', () => {
  it('says how runs ended and what state a container is in', () => {
    expect(endedWords({ reason: 'OOMKilled', exitCode: 137 })).toBe('OOMKilled, exit code 137');
    expect(endedWords({ exitCode: 0, signal: 15 })).toBe('exit code 0, signal 15');
    expect(stateWords({ waiting: { reason: 'ImagePullBackOff' } })).toBe('Waiting: ImagePullBackOff');
    expect(stateWords({ terminated: { reason: 'Error', exitCode: 1 } })).toBe(
      'Terminated: Error, exit code 1',
    );
    expect(stateWords(undefined)).toBe('Unknown');
  });

  it('puts probes in words with the defaults filled in', () => {
    expect(probeWords({ httpGet: { path: '/healthz', port: 8080 } })).toBe(
      'HTTP GET :8080/healthz every 10s, failure 3',
    );
    expect(
      probeWords({
        tcpSocket: { port: 5432 },
        periodSeconds: 5,
        initialDelaySeconds: 15,
        timeoutSeconds: 2,
        failureThreshold: 6,
      }),
    ).toBe('TCP :5432 every 5s, after 15s, timeout 2s, failure 6');
    expect(probeWords({ exec: { command: ['pg_isready', '-q'] } })).toBe(
      'exec pg_isready -q every 10s, failure 3',
    );
    expect(probeWords({ grpc: { port: 9000 }, httpGet: undefined })).toBe('gRPC :9000 every 10s, failure 3');
    expect(probeWords({ httpGet: { port: 'https', scheme: 'HTTPS' } })).toBe(
      'HTTPS GET :https/ every 10s, failure 3',
    );
  });
});
