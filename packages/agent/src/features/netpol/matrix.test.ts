import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { podReachabilityMatrix, reachabilityMatrix } from './matrix.ts';
import type { MatrixOptions, Protocol } from './model.ts';
import { cluster, connect, failure, namespace, pod, policy } from './test-fixtures.ts';

const tiers = ['web', 'api', 'db'];

/** Namespace app: web → api → db on TCP 8080/5432, db reachable on named port pg; ops may reach everything. */
function app(...extra: KubeObject[]) {
  return cluster({
    namespaces: [namespace('app', { env: 'prod' }), namespace('ops', { team: 'ops' })],
    pods: [
      ...tiers.map((tier, i) =>
        pod(`app/${tier}`, { tier }, { ip: `10.3.0.${i + 1}`, ports: [{ name: 'pg', containerPort: 5432 }] }),
      ),
      pod('app/batch', { tier: 'batch' }, { ip: '10.3.0.9' }),
      pod('ops/probe', { role: 'probe' }, { ip: '10.4.0.1' }),
    ],
    policies: [
      policy('app/default-deny', { podSelector: {}, policyTypes: ['Ingress'] }),
      policy('app/api-from-web', {
        podSelector: { matchLabels: { tier: 'api' } },
        ingress: [{ from: [{ podSelector: { matchLabels: { tier: 'web' } } }], ports: [{ port: 8080 }] }],
      }),
      policy('app/db-from-api', {
        podSelector: { matchLabels: { tier: 'db' } },
        ingress: [{ from: [{ podSelector: { matchLabels: { tier: 'api' } } }], ports: [{ port: 'pg' }] }],
      }),
      policy('app/from-ops', {
        podSelector: {},
        ingress: [{ from: [{ namespaceSelector: { matchLabels: { team: 'ops' } } }] }],
      }),
      policy('app/batch-egress', {
        podSelector: { matchLabels: { tier: 'batch' } },
        policyTypes: ['Egress'],
        egress: [{ to: [{ ipBlock: { cidr: '10.3.0.0/30' } }], ports: [{ port: 5432 }] }],
      }),
      ...extra,
    ],
  });
}

const grid = (cells: { allowed: boolean }[][]) =>
  cells.map((row) => row.map((cell) => (cell.allowed ? '.' : 'X')).join(''));

describe('reachabilityMatrix', () => {
  it('lists the pods of the namespace by name, rows as sources and columns as destinations', () => {
    const matrix = reachabilityMatrix(app(), 'app', { port: 8080 });
    expect(matrix.pods).toEqual(['app/api', 'app/batch', 'app/db', 'app/web']);
    expect(matrix).toMatchObject({ port: 8080, protocol: 'TCP' });
    // Only web → api is open on 8080: a row/column mix-up would put the dot at [0][3] instead.
    expect(grid(matrix.cells)).toEqual(['XXXX', 'XXXX', 'XXXX', '.XXX']);
  });

  it('agrees cell by cell with evaluateConnection, for a port, a named port, another protocol and any port', () => {
    const snapshot = app();
    const refs = ['app/web', 'app/api', 'app/db', 'app/batch', 'ops/probe'];
    const options: MatrixOptions[] = [{ port: 8080 }, { port: 5432 }, { port: 5432, protocol: 'UDP' }, {}];
    for (const option of options) {
      const matrix = podReachabilityMatrix(
        snapshot,
        refs.map((ref) => ({ namespace: ref.split('/')[0] ?? '', name: ref.split('/')[1] ?? '' })),
        option,
      );
      refs.forEach((from, s) => {
        refs.forEach((to, d) => {
          const single = connect(snapshot, from, to, option.port, option.protocol as Protocol | undefined);
          expect(matrix.cells[s]?.[d]?.allowed, `${from} → ${to} ${JSON.stringify(option)}`).toBe(
            single.allowed,
          );
        });
      });
    }
  });

  it('names the policies that allowed a cell, and the isolating ones of the direction that denied it', () => {
    const matrix = podReachabilityMatrix(
      app(),
      [
        { namespace: 'app', name: 'api' },
        { namespace: 'app', name: 'db' },
        { namespace: 'app', name: 'batch' },
      ],
      { port: 5432 },
    );
    const [, , batch] = matrix.cells;
    expect(matrix.cells[0]?.[1]).toEqual({
      allowed: true,
      egress: true,
      ingress: true,
      policies: ['app/db-from-api'],
    });
    expect(matrix.cells[1]?.[0]).toEqual({
      allowed: false,
      egress: true,
      ingress: false,
      policies: ['app/default-deny', 'app/api-from-web', 'app/from-ops'],
    });
    // batch → db: egress allows (10.3.0.3 is in the /30), ingress denies; batch's egress policy is not blamed.
    expect(batch?.[1]).toMatchObject({ allowed: false, egress: true, ingress: false });
    expect(batch?.[1]?.policies).not.toContain('app/batch-egress');
    // batch → batch: egress denies (10.3.0.9 is outside the /30) and so does ingress.
    expect(batch?.[2]?.policies).toEqual(['app/batch-egress', 'app/default-deny', 'app/from-ops']);
  });

  it('answers "any port" when no port is given', () => {
    const matrix = reachabilityMatrix(app(), 'app');
    expect(matrix.port).toBe('any');
    // api → db on pg; batch → api has egress on 5432 and ingress on 8080 only, so no port in common.
    expect(grid(matrix.cells)).toEqual(['XX.X', 'XXXX', 'XXXX', '.XXX']);
  });

  it('is empty for a namespace without pods', () => {
    expect(reachabilityMatrix(app(), 'nowhere')).toMatchObject({ pods: [], cells: [] });
  });

  it('refuses bad options with a 400 and unknown pods with a 404', () => {
    const status = (run: () => unknown) => failure(run).status;
    expect(status(() => reachabilityMatrix(app(), 'app', { protocol: 'ICMP' as Protocol }))).toBe(400);
    expect(status(() => reachabilityMatrix(app(), 'app', { port: 65536 }))).toBe(400);
    expect(status(() => podReachabilityMatrix(app(), [{ namespace: 'app', name: 'gone' }]))).toBe(404);
    const broken = policy('app/broken', {
      podSelector: {},
      ingress: [{ from: [{ ipBlock: { cidr: 'x' } }] }],
    });
    expect(status(() => reachabilityMatrix(app(broken), 'app'))).toBe(400);
  });
});

describe('reachabilityMatrix at scale', () => {
  it('handles 200 pods and 20 policies quickly', () => {
    const pods = Array.from({ length: 200 }, (_, i) =>
      pod(
        `big/p${String(i).padStart(3, '0')}`,
        { group: `g${i % 10}`, shard: `s${i % 7}` },
        {
          ip: `10.9.${Math.floor(i / 250)}.${i % 250}`,
          ports: [{ name: 'http', containerPort: 8080 }],
        },
      ),
    );
    const policies = Array.from({ length: 20 }, (_, i) =>
      policy(`big/p${i}`, {
        podSelector: { matchLabels: { group: `g${i % 10}` } },
        policyTypes: i % 2 ? ['Ingress', 'Egress'] : ['Ingress'],
        ingress: [
          { from: [{ podSelector: { matchLabels: { shard: `s${i % 7}` } } }], ports: [{ port: 'http' }] },
          { from: [{ ipBlock: { cidr: `10.9.0.${i * 8}/29` } }] },
        ],
        egress: [
          {
            to: [
              { podSelector: { matchExpressions: [{ key: 'group', operator: 'NotIn', values: ['g0'] }] } },
            ],
          },
        ],
      }),
    );
    const started = performance.now();
    const matrix = reachabilityMatrix(cluster({ namespaces: [namespace('big')], pods, policies }), 'big', {
      port: 8080,
    });
    const elapsed = performance.now() - started;
    expect(matrix.cells.length * (matrix.cells[0]?.length ?? 0)).toBe(40_000);
    expect(matrix.cells.flat().some((cell) => cell.allowed)).toBe(true);
    expect(matrix.cells.flat().some((cell) => !cell.allowed)).toBe(true);
    expect(elapsed).toBeLessThan(2000);
  });
});
