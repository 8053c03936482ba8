import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import {
  accessModes,
  backendProblem,
  base64Bytes,
  claimsOf,
  hpaMetrics,
  jobState,
  ruleCells,
} from './words.ts';

describe('the words of the kinds’ pages', () => {
  it('flags an Ingress backend whose Service or port is missing', () => {
    const services: KubeObject[] = [
      { metadata: { name: 'web' }, spec: { ports: [{ name: 'http', port: 80 }] } },
    ];
    const backend = (name: string, port: { name?: string; number?: number }) => ({ service: { name, port } });
    expect(backendProblem(backend('web', { name: 'http' }), services)).toBeUndefined();
    expect(backendProblem(backend('web', { number: 80 }), services)).toBeUndefined();
    expect(backendProblem(backend('api', { number: 80 }), services)).toBe('no such Service');
    expect(backendProblem(backend('web', { name: 'grpc' }), services)).toBe('no port named grpc');
    expect(backendProblem(backend('web', { number: 8080 }), services)).toBe('no port 8080');
    expect(backendProblem({ resource: { kind: 'Bucket', name: 'static' } }, services)).toBeUndefined();
  });

  it('writes RBAC rules as kubectl describe reads them', () => {
    expect(
      ruleCells({ apiGroups: ['', 'apps'], resources: ['pods', 'deployments'], verbs: ['get', 'list'] }),
    ).toEqual({
      apiGroups: 'core, apps',
      resources: 'pods, deployments',
      verbs: 'get, list',
      resourceNames: 'all',
    });
    expect(ruleCells({ nonResourceURLs: ['/healthz'], verbs: ['get'], resourceNames: [] }).resources).toBe(
      '/healthz',
    );
    expect(
      ruleCells({ apiGroups: ['*'], resources: ['secrets'], resourceNames: ['tls'], verbs: ['*'] }),
    ).toMatchObject({
      apiGroups: '*',
      resourceNames: 'tls',
    });
  });

  it('sets each HPA metric’s current value beside its target, matched by metric, not by place', () => {
    const spec = [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
      },
      {
        type: 'Pods',
        pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '100' } },
      },
    ];
    const status = [
      { type: 'Pods', pods: { metric: { name: 'rps' }, current: { averageValue: '42' } } },
      {
        type: 'Resource',
        resource: { name: 'cpu', current: { averageUtilization: 35, averageValue: '120m' } },
      },
    ];
    expect(hpaMetrics(spec, status)).toEqual([
      { metric: 'cpu', current: '35%', target: '70%' },
      { metric: 'rps (per pod)', current: '42 (average)', target: '100 (average)' },
    ]);
    expect(hpaMetrics(spec, undefined)[0]).toEqual({ metric: 'cpu', current: '<unknown>', target: '70%' });
  });

  it('reads a Job’s state from its conditions, suspension included', () => {
    const job = (status: Record<string, unknown>, spec: Record<string, unknown> = {}): KubeObject => ({
      spec,
      status,
    });
    expect(jobState(job({ conditions: [{ type: 'Complete', status: 'True' }] }))).toBe('Complete');
    expect(jobState(job({ conditions: [{ type: 'Failed', status: 'True' }] }))).toBe('Failed');
    expect(jobState(job({}, { suspend: true }))).toBe('Suspended');
    expect(jobState(job({ active: 1 }))).toBe('Running');
  });

  it('measures base64 data without decoding it, and shortens access modes as kubectl does', () => {
    expect(base64Bytes(btoa('hello'))).toBe(5);
    expect(base64Bytes(btoa('hell'))).toBe(4);
    expect(base64Bytes(btoa('hel'))).toBe(3);
    expect(base64Bytes('')).toBe(0);
    expect(accessModes(['ReadWriteOnce', 'ReadWriteMany'])).toBe('RWO,RWX');
  });

  it('finds the claims a pod mounts', () => {
    const pod: KubeObject = {
      spec: {
        volumes: [
          { name: 'data', persistentVolumeClaim: { claimName: 'data-0' } },
          { name: 'tmp', emptyDir: {} },
        ],
      },
    };
    expect(claimsOf(pod)).toEqual(['data-0']);
  });
});
