import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { ecosystemStates } from '../../testing/ecosystem/index.ts';
import { healthOf, healthWhy } from '../health.ts';

const condition = (type: string, status: string, reason = '', message = '') => ({
  type,
  status,
  reason,
  message,
});
const custom = (status: Record<string, unknown>, metadata: object = {}): KubeObject => ({
  apiVersion: 'database.example.org/v1',
  kind: 'XPostgres',
  metadata: { name: 'db', generation: 2, ...metadata },
  status,
});

describe('the integrations’ rules', () => {
  // Crossplane v2.1.0 writes no failure on an XRD or a Composition, only on the kinds they define (ADR 0127):
  // its failed states are the conventions' cases below.
  const withoutFailure = new Set(['crossplane']);
  for (const [id, fixtures] of Object.entries(ecosystemStates('shop', 'eco'))) {
    it(`judges every ${id} state as docs/integrations/${id}.md says`, () => {
      const states = withoutFailure.has(id) ? ['healthy'] : ['healthy', 'failed'];
      expect(fixtures.map((f) => f.state)).toEqual(expect.arrayContaining(states));
      for (const { object, expected } of fixtures) {
        const label = `${object.kind} ${object.metadata?.name}`;
        expect(healthWhy(object), label).toMatchObject(expected);
        expect(healthOf(object), label).toBe(expected.health);
      }
    });
  }

  it('tells kinds apart by their group: a Knative Service is not a core Service, Backups are Velero’s or CloudNativePG’s', () => {
    const failed = { conditions: [condition('Ready', 'False', 'RevisionFailed', 'boom')] };
    expect(healthOf({ apiVersion: 'serving.knative.dev/v1', kind: 'Service', status: failed })).toBe(
      'unhealthy',
    );
    expect(healthOf({ apiVersion: 'v1', kind: 'Service', status: failed })).toBe('healthy');
    expect(
      healthWhy({ apiVersion: 'velero.io/v1', kind: 'Backup', status: { phase: 'Completed' } }),
    ).toMatchObject({
      health: 'healthy',
      reason: 'Completed',
    });
    expect(
      healthOf({ apiVersion: 'postgresql.cnpg.io/v1', kind: 'Backup', status: { phase: 'Completed' } }),
    ).toBe('unknown');
    expect(
      healthOf({ apiVersion: 'postgresql.cnpg.io/v1', kind: 'Backup', status: { phase: 'completed' } }),
    ).toBe('healthy');
  });

  it('reads an object being deleted, or behind its generation, as on its way before any rule of its own', () => {
    const ready = { conditions: [condition('Ready', 'True', 'Ready')] };
    const certificate = (metadata: object, status: Record<string, unknown>): KubeObject => ({
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'c', generation: 3, ...metadata },
      status,
    });
    expect(healthWhy(certificate({ deletionTimestamp: '2026-01-01T00:00:00Z' }, ready))).toMatchObject({
      health: 'degraded',
      from: 'deletion',
      reason: 'Terminating',
    });
    const stale = { conditions: [{ ...condition('Ready', 'True', 'Ready'), observedGeneration: 2 }] };
    expect(healthWhy(certificate({}, stale))).toMatchObject({
      health: 'degraded',
      from: 'Ready',
      reason: 'LatestGenerationNotObserved',
    });
  });
});

describe('the conventions for any other custom resource', () => {
  it('follows kstatus: an unobserved generation, Stalled and Reconciling come first', () => {
    expect(
      healthWhy(custom({ observedGeneration: 1, conditions: [condition('Ready', 'True')] })),
    ).toMatchObject({
      health: 'degraded',
      from: 'generation',
      message: 'generation is 2, but latest observed generation is 1',
    });
    expect(
      healthWhy(
        custom({ conditions: [condition('Ready', 'True'), condition('Stalled', 'True', 'Broken', 'no')] }),
      ),
    ).toMatchObject({ health: 'unhealthy', from: 'Stalled', reason: 'Broken', message: 'no' });
    expect(
      healthWhy(custom({ conditions: [condition('Reconciling', 'True', 'Progressing')] })),
    ).toMatchObject({
      health: 'degraded',
      from: 'Reconciling',
    });
  });

  it('takes the worst of Ready, Available and Synced, a False one on its way when its reason says so', () => {
    const synced = condition('Synced', 'True', 'ReconcileSuccess');
    expect(healthOf(custom({ conditions: [synced, condition('Ready', 'True', 'Available')] }))).toBe(
      'healthy',
    );
    expect(
      healthWhy(
        custom({ conditions: [synced, condition('Ready', 'False', 'Creating', 'Unready resources: db')] }),
      ),
    ).toMatchObject({
      health: 'degraded',
      from: 'Ready',
      reason: 'Creating',
    });
    expect(
      healthWhy(
        custom({
          conditions: [
            condition('Synced', 'False', 'ReconcileError', 'cannot compose'),
            condition('Ready', 'False', 'Creating'),
          ],
        }),
      ),
    ).toMatchObject({ health: 'unhealthy', from: 'Synced', reason: 'ReconcileError' });
    expect(healthOf(custom({ conditions: [condition('Available', 'Unknown')] }))).toBe('degraded');
    expect(healthOf(custom({ conditions: [condition('Ready', 'False', 'Unavailable')] }))).toBe('unhealthy');
  });

  it('falls back on a phase word, and says unknown with nothing to go on', () => {
    expect(healthWhy(custom({ phase: 'Running' }))).toMatchObject({
      health: 'healthy',
      from: 'phase',
      reason: 'Running',
    });
    expect(healthOf(custom({ phase: 'Failed' }))).toBe('unhealthy');
    expect(healthOf(custom({ phase: 'Pending' }))).toBe('degraded');
    expect(healthWhy(custom({ phase: 'Warming' }))).toMatchObject({ health: 'unknown', reason: 'Warming' });
    expect(healthWhy(custom({}))).toEqual({ health: 'unknown' });
  });

  it('cuts a long message', () => {
    const why = healthWhy(custom({ conditions: [condition('Ready', 'False', 'Error', 'x'.repeat(5000))] }));
    expect(why.message?.length).toBeLessThan(600);
  });

  it('keeps the rules of built-in kinds and Argo CD’s Application', () => {
    expect(
      healthWhy({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        spec: { replicas: 2 },
        status: { readyReplicas: 1 },
      }),
    ).toEqual({
      health: 'degraded',
    });
    expect(
      healthOf({
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Application',
        status: { health: { status: 'Degraded' } },
      }),
    ).toBe('unhealthy');
  });
});

describe('rules with more than one signal', () => {
  it('names the failing listener of an otherwise programmed Gateway', () => {
    const ok = (type: string) => condition(type, 'True', type);
    const gateway: KubeObject = {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'Gateway',
      status: {
        conditions: [ok('Accepted'), ok('Programmed')],
        listeners: [
          {
            name: 'https',
            conditions: [
              ok('Accepted'),
              condition('ResolvedRefs', 'False', 'InvalidCertificateRef', 'secret tls not found'),
            ],
          },
        ],
      },
    };
    expect(healthWhy(gateway)).toMatchObject({
      health: 'degraded',
      from: 'listener https ResolvedRefs',
      reason: 'InvalidCertificateRef',
    });
  });

  it('counts a PolicyReport’s failures and names the first', () => {
    const report: KubeObject = {
      apiVersion: 'wgpolicyk8s.io/v1alpha2',
      kind: 'ClusterPolicyReport',
      summary: { fail: 2, error: 1 },
      results: [
        {
          policy: 'p',
          rule: 'r',
          result: 'fail',
          message: 'bad',
          resources: [{ kind: 'Namespace', name: 'shop' }],
        },
      ],
    };
    expect(healthWhy(report)).toMatchObject({
      health: 'unhealthy',
      message: '2 failed, 1 errored; p/r on Namespace shop: bad',
    });
  });

  it('reads a certificate request denied, or one waiting for approval', () => {
    const request = (conditions: object[]): KubeObject => ({
      apiVersion: 'cert-manager.io/v1',
      kind: 'CertificateRequest',
      status: { conditions },
    });
    expect(healthWhy(request([condition('Denied', 'True', 'policy.cert-manager.io', 'no')]))).toMatchObject({
      health: 'unhealthy',
      from: 'Denied',
    });
    expect(healthWhy(request([condition('InvalidRequest', 'False', 'x')]))).toMatchObject({
      health: 'degraded',
      reason: 'Pending',
    });
  });

  it('reads a NodePool whose nodes fail to register as unhealthy', () => {
    const pool: KubeObject = {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      status: {
        conditions: [
          condition('Ready', 'True', 'Ready'),
          condition('NodeRegistrationHealthy', 'False', 'RegistrationFailed', 'Failed to register node'),
        ],
      },
    };
    expect(healthWhy(pool)).toMatchObject({ health: 'unhealthy', from: 'NodeRegistrationHealthy' });
  });
});
