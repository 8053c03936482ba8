import { cellText, type KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import type { ApiResource } from '../../../kube/discovery.ts';
import { csrCondition } from './admission.ts';
import { nodeStatus } from './cluster.ts';
import { formatLabelSelector, selectorString } from './format.ts';
import { printerFor } from './index.ts';

const now = Date.parse('2026-01-01T12:00:00Z');
const resource = (group: string, kind: string, version = 'v1'): ApiResource => ({
  group,
  version,
  kind,
  plural: `${kind.toLowerCase()}s`,
  singular: kind.toLowerCase(),
  namespaced: true,
  verbs: [],
  shortNames: [],
  categories: [],
});
const texts = (group: string, kind: string, object: KubeObject) =>
  printerFor(resource(group, kind), undefined)
    .print(object)
    .cells.map((cell) => cellText(cell, now));

describe('selectors as the API server prints them', () => {
  it('sorts requirements by key and values inside a set', () => {
    expect(
      formatLabelSelector({
        matchLabels: { b: '2', a: '1' },
        matchExpressions: [
          { key: 'tier', operator: 'NotIn', values: ['z', 'x'] },
          { key: 'env', operator: 'In', values: ['prod'] },
          { key: 'old', operator: 'DoesNotExist' },
          { key: 'new', operator: 'Exists' },
        ],
      }),
    ).toBe('a=1,b=2,env in (prod),new,!old,tier notin (x,z)');
  });

  it('prints none for an empty or absent selector, and an error for an unknown operator', () => {
    expect(formatLabelSelector({})).toBeNull();
    expect(formatLabelSelector(undefined)).toBeNull();
    expect(formatLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Near' }] })).toBe('<error>');
    expect(selectorString(undefined)).toBe('');
    expect(selectorString({ matchExpressions: [{ key: 'a', operator: 'Near' }] })).toBe('<invalid>');
  });
});

describe('status texts', () => {
  it.each<[object, string]>([
    [{ status: { conditions: [{ type: 'Ready', status: 'True' }] } }, 'Ready'],
    [{ status: { conditions: [{ type: 'Ready', status: 'False' }] } }, 'NotReady'],
    [{ status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } }, 'NotReady'],
    [{ status: {} }, 'Unknown'],
    [
      { spec: { unschedulable: true }, status: { conditions: [{ type: 'Ready', status: 'True' }] } },
      'Ready,SchedulingDisabled',
    ],
  ])('node %j is %s', (node, text) => {
    expect(nodeStatus(node)).toBe(text);
  });

  it.each<[object, string]>([
    [{}, 'Pending'],
    [{ conditions: [{ type: 'Approved' }] }, 'Approved'],
    [{ conditions: [{ type: 'Approved' }], certificate: 'LS0t' }, 'Approved,Issued'],
    [{ conditions: [{ type: 'Approved' }, { type: 'Denied' }] }, 'Denied'],
    [{ conditions: [{ type: 'Approved' }, { type: 'Failed' }] }, 'Approved,Failed'],
  ])('CSR status %j is %s', (status, text) => {
    expect(csrCondition(status)).toBe(text);
  });

  it.each<[object, string]>([
    [{ status: { conditions: [{ type: 'Complete', status: 'True' }] } }, 'Complete'],
    [{ status: { conditions: [{ type: 'Failed', status: 'True' }] } }, 'Failed'],
    [{ metadata: { deletionTimestamp: '2026-01-01T11:00:00Z' }, status: {} }, 'Terminating'],
    [{ status: { conditions: [{ type: 'Suspended', status: 'True' }] } }, 'Suspended'],
    [{ status: { conditions: [{ type: 'FailureTarget', status: 'True' }] } }, 'FailureTarget'],
    [{ status: { conditions: [{ type: 'Complete', status: 'False' }] } }, 'Running'],
  ])('job %j is %s', (job, text) => {
    expect(printerFor(resource('batch', 'Job'), undefined).print(job as KubeObject).status?.text).toBe(text);
  });
});

describe('rows', () => {
  it('prints a Job that ran as a fixed duration and one that runs as a moment', () => {
    const job = (status: Record<string, unknown>): KubeObject => ({
      metadata: { creationTimestamp: '2026-01-01T11:00:00Z' },
      spec: { parallelism: 2, template: { spec: { containers: [{ name: 'a', image: 'i' }] } } },
      status,
    });
    expect(
      texts(
        'batch',
        'Job',
        job({ startTime: '2026-01-01T11:00:00Z', completionTime: '2026-01-01T11:07:30Z' }),
      ),
    ).toEqual(['Running', '0/1 of 2', '7m30s', '60m', 'a', 'i', '<none>']);
    expect(texts('batch', 'Job', job({ startTime: '2026-01-01T11:58:00Z', succeeded: 1 }))[2]).toBe('2m');
  });

  it('lists at most three endpoints and says how many more', () => {
    const cells = texts('', 'Endpoints', {
      subsets: [{ addresses: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }], ports: [{ port: 80 }, { port: 443 }] }],
    } as KubeObject);
    expect(cells[0]).toBe('10.0.0.1:80,[fd00::1]:80,10.0.0.1:443 + 1 more...');
  });

  it('prints HPA targets: utilization, average values, and more than two', () => {
    const cells = texts('autoscaling', 'HorizontalPodAutoscaler', {
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web' },
        maxReplicas: 4,
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
          },
          { type: 'Pods', pods: { target: { averageValue: '10' } } },
          { type: 'External', external: { target: { value: '3' } } },
        ],
      },
      status: { currentMetrics: [{ type: 'Resource', resource: { current: { averageUtilization: 12 } } }] },
    } as KubeObject);
    expect(cells.slice(0, 5)).toEqual([
      'Deployment/web',
      'cpu: 12%/80%, <unknown>/10 + 1 more...',
      '<unset>',
      '4',
      '0',
    ]);
  });

  it('gives kinds without a server printer the CREATED AT column, and CRDs their own', () => {
    const role = printerFor(resource('rbac.authorization.k8s.io', 'Role'), undefined);
    expect(role.columns.map((column) => column.name)).toEqual(['CREATED AT']);
    expect(role.print({ metadata: { creationTimestamp: '2026-01-01T11:00:00Z' } }).cells).toEqual([
      '2026-01-01T11:00:00Z',
    ]);
    const crd = {
      spec: {
        versions: [
          {
            name: 'v1',
            additionalPrinterColumns: [{ name: 'Phase', type: 'string', jsonPath: '.status.phase' }],
          },
        ],
      },
    };
    const thing = printerFor(resource('example.com', 'Thing'), crd);
    expect(thing.columns.map((column) => column.name)).toEqual(['PHASE']);
    expect(printerFor(resource('example.com', 'Thing'), crd)).toBe(thing);
    expect(printerFor(resource('example.com', 'Thing'), structuredClone(crd))).not.toBe(thing);
  });
});
