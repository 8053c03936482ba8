import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { compileSnapshot } from './compile.ts';
import { modelPods, snapshotOf } from './conformance/cases.ts';
import type { FlowEnd, ObservedFlow } from './flows.ts';
import { proposePolicies, stableLabels } from './generate.ts';
import { changedSnapshot, flowsImpact } from './impact.ts';
import { podReachabilityMatrix } from './matrix.ts';
import { matrixChange } from './matrix-change.ts';
import { cluster, connect, failure, namespace, pod, policy } from './test-fixtures.ts';

/** A shop: the outside calls web, web calls api, api calls db in the data namespace; a lone job talks to nobody. */
const pods = {
  web: [1, 2].map((i) =>
    pod(`shop/web-${i}`, { app: 'web', 'pod-template-hash': `h${i}` }, { ip: `10.1.0.${i}` }),
  ),
  api: [pod('shop/api-1', { app: 'api', tier: 'back' }, { ip: '10.1.0.10' })],
  job: [pod('shop/job-1', { app: 'job' }, { ip: '10.1.0.20' })],
  db: [pod('data/db-0', { app: 'db', 'statefulset.kubernetes.io/pod-name': 'db-0' }, { ip: '10.2.0.1' })],
};
const workloads = new Map<string, KubeObject[]>([
  ['deployment/shop/web', pods.web],
  ['deployment/shop/api', pods.api],
  ['pod/shop/job-1', pods.job],
  ['statefulset/data/db', pods.db],
]);
const end = (id: string): FlowEnd => {
  const [kind = '', namespace, name = ''] = id.split('/');
  return { id, kind: kind.charAt(0).toUpperCase() + kind.slice(1), name, namespace };
};
const outside: FlowEnd = {
  id: 'external/203.0.113.9',
  kind: 'External',
  name: '203.0.113.9',
  ip: '203.0.113.9',
};
const flow = (source: FlowEnd, destination: FlowEnd, port: number, dropped = 0): ObservedFlow => ({
  source,
  destination,
  protocol: 'TCP',
  port,
  flows: 4,
  dropped,
});
const [web, api, db] = [end('deployment/shop/web'), end('deployment/shop/api'), end('statefulset/data/db')];
const observed = [
  flow(outside, web, 8080),
  flow(web, api, 9000),
  flow(api, db, 5432),
  flow(web, db, 5432, 4),
];

const shop = (...policies: KubeObject[]) =>
  cluster({
    namespaces: [namespace('shop'), namespace('data')],
    pods: Object.values(pods).flat(),
    policies,
  });
const denyIngress = policy('shop/deny', { podSelector: {}, policyTypes: ['Ingress'] });
const pair = (f: { source: FlowEnd; destination: FlowEnd; port?: number }) =>
  `${f.source.id}→${f.destination.id}:${f.port}`;

describe('flowsImpact', () => {
  it('a default-deny ingress policy newly denies exactly the flows into its namespace, naming the policy', () => {
    const impact = flowsImpact(shop(), { apply: [denyIngress], remove: [] }, observed, workloads);
    expect(impact.newlyDenied.map(pair)).toEqual([
      'external/203.0.113.9→deployment/shop/web:8080',
      'deployment/shop/web→deployment/shop/api:9000',
    ]);
    expect(impact.newlyDenied[0]).toMatchObject({
      before: 'allowed',
      after: 'denied',
      decidedBy: [{ policy: 'shop/deny', direction: 'ingress' }],
      reason: expect.stringContaining('isolated by shop/deny'),
    });
    expect(impact).toMatchObject({ judged: 4, unchanged: 2, newlyAllowed: [], unjudged: [] });
  });

  it('deleting a policy newly allows what it denied, with the rule that now lets it through', () => {
    const allowWeb = policy('shop/web-in', {
      podSelector: { matchLabels: { app: 'web' } },
      ingress: [{ ports: [{ port: 8080 }] }],
    });
    const impact = flowsImpact(
      shop(denyIngress, allowWeb),
      { apply: [], remove: ['shop/deny'] },
      observed,
      workloads,
    );
    expect(impact.newlyDenied).toEqual([]);
    expect(impact.newlyAllowed.map(pair)).toEqual(['deployment/shop/web→deployment/shop/api:9000']);
    // web keeps its own policy: the flow into web is unchanged.
    expect(impact.unchanged).toBe(3);
  });

  it('an edit replaces the policy of that name and names the rule by index', () => {
    const edited = policy('shop/deny', {
      podSelector: {},
      policyTypes: ['Ingress'],
      ingress: [{ from: [{ ipBlock: { cidr: '0.0.0.0/0' } }], ports: [{ port: 8080 }] }],
    });
    const impact = flowsImpact(shop(denyIngress), { apply: [edited], remove: [] }, observed, workloads);
    expect(impact.newlyAllowed).toMatchObject([
      {
        source: outside,
        after: 'allowed',
        decidedBy: [{ policy: 'shop/deny', direction: 'ingress', ruleIndex: 0 }],
      },
    ]);
  });

  it('leaves out ends it cannot judge, saying why, and refuses a malformed proposal with a 400 naming the field', () => {
    const hidden: FlowEnd = { id: 'hidden', kind: 'Hidden', name: 'hidden' };
    const gone = end('deployment/shop/gone');
    const icmp = { ...flow(web, api, 0), protocol: 'ICMPV4', port: undefined } as ObservedFlow;
    const impact = flowsImpact(
      shop(),
      { apply: [denyIngress], remove: [] },
      [flow(hidden, web, 80), flow(web, gone, 80), icmp],
      workloads,
    );
    expect(impact.unjudged.map((u) => u.reason)).toEqual([
      'one end is outside the namespaces you may see',
      'Deployment shop/gone has no pods now',
      'NetworkPolicy rules name TCP, UDP and SCTP ports, not ICMPV4',
    ]);
    const bad = policy('shop/bad', { podSelector: {}, ingress: [{ ports: [{ port: 70000 }] }] });
    expect(failure(() => flowsImpact(shop(), { apply: [bad], remove: [] }, observed, workloads))).toEqual({
      status: 400,
      message: expect.stringContaining('NetworkPolicy shop/bad: spec.ingress[0].ports[0].port'),
    });
  });

  it('judges 10 000 flows against 200 policies quickly enough to answer an editor', () => {
    const many = Array.from({ length: 200 }, (_, i) =>
      policy(`shop/p${i}`, {
        podSelector: { matchLabels: { app: i % 2 ? 'web' : 'api' } },
        ingress: [
          { from: [{ podSelector: { matchLabels: { app: `x${i}` } } }], ports: [{ port: 1000 + i }] },
        ],
      }),
    );
    const flows = Array.from({ length: 10_000 }, (_, i) =>
      flow(i % 2 ? web : outside, i % 3 ? api : web, 1 + (i % 5000)),
    );
    const started = performance.now();
    const impact = flowsImpact(shop(...many), { apply: [denyIngress], remove: [] }, flows, workloads);
    expect(impact.judged).toBe(10_000);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('proposePolicies', () => {
  const proposal = proposePolicies('shop', observed, compileSnapshot(shop()), workloads);

  it('writes one policy per workload: stable labels, ingress from its callers, egress to its callees, ports seen', () => {
    expect(stableLabels(pods.web)).toEqual({ app: 'web' });
    const byName = new Map(proposal.policies.map((p) => [p.metadata?.name, p.spec]));
    expect([...byName.keys()]).toEqual([
      'allow-observed-deployment-api',
      'allow-observed-deployment-web',
      'allow-observed-pod-job-1',
    ]);
    expect(byName.get('allow-observed-deployment-web')).toEqual({
      podSelector: { matchLabels: { app: 'web' } },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [
        { from: [{ ipBlock: { cidr: '203.0.113.9/32' } }], ports: [{ protocol: 'TCP', port: 8080 }] },
      ],
      egress: [
        {
          to: [{ podSelector: { matchLabels: { app: 'api', tier: 'back' } } }],
          ports: [{ protocol: 'TCP', port: 9000 }],
        },
      ],
    });
    expect(byName.get('allow-observed-deployment-api')?.egress).toEqual([
      {
        to: [
          {
            podSelector: { matchLabels: { app: 'db' } },
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'data' } },
          },
        ],
        ports: [{ protocol: 'TCP', port: 5432 }],
      },
    ]);
    // The job talked to nobody: it is isolated both ways.
    expect(byName.get('allow-observed-pod-job-1')).toMatchObject({ ingress: [], egress: [] });
    expect(proposal.skipped.map((s) => s.reason)).toEqual([
      'every flow of the pair was dropped: the network did not let it through',
    ]);
  });

  it('applied, it denies none of the flows that went through and denies flows that were not observed', () => {
    const change = { apply: proposal.policies, remove: [] };
    const impact = flowsImpact(shop(), change, observed, workloads);
    expect(impact.newlyDenied.map(pair)).toEqual(['deployment/shop/web→statefulset/data/db:5432']);
    expect(impact.newlyDenied[0]?.dropped).toBe(4);
    const after = changedSnapshot(shop(), change);
    expect(connect(after, 'shop/web-1', 'shop/api-1', 9000).allowed).toBe(true);
    expect(connect(after, 'shop/api-1', 'shop/web-1', 8080).allowed).toBe(false);
    expect(connect(after, 'shop/web-1', 'shop/api-1', 9001).allowed).toBe(false);
    expect(connect(after, 'shop/job-1', 'shop/api-1', 9000).allowed).toBe(false);
  });

  it('shows the namespace matrix before and after', () => {
    const after = changedSnapshot(shop(), { apply: proposal.policies, remove: [] });
    const matrix = matrixChange(shop(), after, 'shop', workloads);
    expect(matrix.workloads).toEqual(['deployment/shop/api', 'deployment/shop/web', 'pod/shop/job-1']);
    expect(matrix.cells.map((row) => row.map((c) => `${+c.before}${+c.after}`))).toEqual([
      ['10', '10', '10'],
      ['11', '10', '10'],
      ['10', '10', '10'],
    ]);
  });
});

describe('a proposal on the conformance model', () => {
  // The upstream x/y/z × a/b/c world, each pod a workload of its own: the flows observed are a few pairs on
  // ports 80 and 81; the proposals for the three namespaces, applied, must allow exactly those pairs.
  const world = snapshotOf({
    title: 'no policies',
    policies: [],
    probe: { port: 80, protocol: 'TCP' },
    expected: {},
  });
  const podsById = new Map(world.pods.map((p) => [`pod/${p.metadata?.namespace}/${p.metadata?.name}`, [p]]));
  const at = (ref: string) => end(`pod/${ref}`);
  const seen = [
    flow(at('x/a'), at('y/b'), 80),
    flow(at('y/b'), at('z/c'), 81),
    flow(at('z/a'), at('x/a'), 80),
    flow(at('x/b'), at('x/c'), 81),
  ];
  const compiled = compileSnapshot(world);
  const policies = ['x', 'y', 'z'].flatMap((ns) => proposePolicies(ns, seen, compiled, podsById).policies);
  const after = changedSnapshot(world, { apply: policies, remove: [] });

  it.each([80, 81])('allows on port %i exactly the pairs observed on it, and denies every other', (port) => {
    const matrix = podReachabilityMatrix(after, modelPods, { port });
    const allowed = matrix.pods.flatMap((source, s) =>
      matrix.pods.flatMap((destination, d) =>
        matrix.cells[s]?.[d]?.allowed ? [`${source}→${destination}`] : [],
      ),
    );
    expect(allowed.sort()).toEqual(
      seen
        .filter((f) => f.port === port)
        .map((f) => `${f.source.namespace}/${f.source.name}→${f.destination.namespace}/${f.destination.name}`)
        .sort(),
    );
    expect(flowsImpact(world, { apply: policies, remove: [] }, seen, podsById).newlyDenied).toEqual([]);
  });
});
