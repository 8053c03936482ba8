import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { rolloutStatus, strategyWords } from './rollout.ts';

const deployment = (
  spec: Record<string, unknown>,
  status: Record<string, unknown>,
  generation = 2,
): KubeObject => ({
  kind: 'Deployment',
  metadata: { generation } as KubeObject['metadata'],
  spec: { replicas: 3, ...spec },
  status: { observedGeneration: 2, ...status },
});

describe('a rollout in words, as kubectl rollout status decides it', () => {
  it('says a Deployment is rolled out once every replica is updated and available', () => {
    const done = deployment({}, { replicas: 3, updatedReplicas: 3, availableReplicas: 3 });
    expect(rolloutStatus(done)).toEqual({
      state: 'complete',
      tone: 'good',
      words: 'Rolled out: 3 of 3 replicas updated and available',
    });
  });

  it('counts what a Deployment still waits for: new replicas, old ones, availability', () => {
    expect(rolloutStatus(deployment({}, { replicas: 4, updatedReplicas: 1 }))?.words).toBe(
      '1 of 3 new replicas updated',
    );
    expect(rolloutStatus(deployment({}, { replicas: 4, updatedReplicas: 3 }))?.words).toBe(
      '1 old replicas pending termination',
    );
    expect(
      rolloutStatus(deployment({}, { replicas: 3, updatedReplicas: 3, availableReplicas: 2 }))?.words,
    ).toBe('2 of 3 updated replicas available');
  });

  it('names a stuck Deployment by its Progressing reason, before counting replicas', () => {
    const stuck = deployment(
      {},
      {
        updatedReplicas: 1,
        conditions: [
          {
            type: 'Progressing',
            status: 'False',
            reason: 'ProgressDeadlineExceeded',
            message: 'RS "web-1" has timed out',
          },
        ],
      },
    );
    expect(rolloutStatus(stuck)).toMatchObject({
      state: 'stuck',
      words: 'Rollout stuck: ProgressDeadlineExceeded (RS "web-1" has timed out)',
    });
  });

  it('waits for the controller while the spec is newer than what it observed, and says when paused', () => {
    expect(rolloutStatus(deployment({}, { updatedReplicas: 3 }, 3))?.words).toBe(
      'Waiting for the controller to observe the latest spec',
    );
    expect(rolloutStatus(deployment({ paused: true }, {}))?.state).toBe('paused');
  });

  it('follows a StatefulSet by revisions and partitions, and has no rollout for OnDelete', () => {
    const sts = (spec: Record<string, unknown>, status: Record<string, unknown>): KubeObject => ({
      kind: 'StatefulSet',
      metadata: { generation: 1 } as KubeObject['metadata'],
      spec: { replicas: 3, ...spec },
      status: { observedGeneration: 1, readyReplicas: 3, ...status },
    });
    expect(
      rolloutStatus(sts({}, { updatedReplicas: 1, currentRevision: 'a', updateRevision: 'b' }))?.words,
    ).toBe('Rolling update: 1 of 3 pods at revision b');
    expect(rolloutStatus(sts({}, { currentRevision: 'b', updateRevision: 'b' }))?.state).toBe('complete');
    expect(
      rolloutStatus(
        sts(
          { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } },
          { updatedReplicas: 1 },
        ),
      )?.words,
    ).toBe('Partitioned rollout complete: 1 new pods updated');
    expect(rolloutStatus(sts({ updateStrategy: { type: 'OnDelete' } }, {}))?.state).toBe('manual');
    expect(rolloutStatus(sts({}, { readyReplicas: 1 }))?.words).toBe('1 of 3 pods ready');
  });

  it('counts a DaemonSet by scheduled pods', () => {
    const ds: KubeObject = {
      kind: 'DaemonSet',
      metadata: { generation: 1 } as KubeObject['metadata'],
      status: {
        observedGeneration: 1,
        desiredNumberScheduled: 4,
        updatedNumberScheduled: 4,
        numberAvailable: 3,
      },
    };
    expect(rolloutStatus(ds)?.words).toBe('3 of 4 updated pods available');
  });

  it('words the strategy with its knobs', () => {
    expect(
      strategyWords({
        spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } } },
      }),
    ).toBe('RollingUpdate, max surge 25%, max unavailable 0');
    expect(strategyWords({ spec: { updateStrategy: { type: 'OnDelete' } } })).toBe('OnDelete');
    expect(strategyWords({ spec: {} })).toBeUndefined();
  });
});
