import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { type DrainFit, drainFit, type FitSnapshot } from './drain-fit.ts';
import { podRequests } from './requests.ts';

const node = (
  name: string,
  extra: {
    cpu?: string;
    pods?: string;
    labels?: Record<string, string>;
    taints?: unknown[];
    cordoned?: boolean;
  } = {},
): KubeObject => ({
  metadata: {
    name,
    labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', ...extra.labels },
  },
  spec: {
    ...(extra.taints ? { taints: extra.taints } : {}),
    ...(extra.cordoned ? { unschedulable: true } : {}),
  },
  status: { allocatable: { cpu: extra.cpu ?? '4', memory: '16Gi', pods: extra.pods ?? '110' } },
});

const pod = (
  name: string,
  on: string,
  extra: {
    cpu?: string;
    labels?: Record<string, string>;
    owner?: string;
    spec?: Record<string, unknown>;
  } = {},
): KubeObject => ({
  metadata: {
    name,
    namespace: 'shop',
    labels: extra.labels ?? { app: name.replace(/-\d+$/, '') },
    ownerReferences: [
      { apiVersion: 'apps/v1', kind: extra.owner ?? 'ReplicaSet', name: 'owner', uid: 'u', controller: true },
    ],
  },
  spec: {
    nodeName: on,
    containers: [{ name: 'main', resources: { requests: { cpu: extra.cpu ?? '1' } } }],
    ...extra.spec,
  },
  status: { phase: 'Running' },
});

const pdb = (name: string, app: string, allowed: number): KubeObject => ({
  metadata: { name, namespace: 'shop' },
  spec: { minAvailable: 1, selector: { matchLabels: { app } } },
  status: { disruptionsAllowed: allowed, currentHealthy: 2, expectedPods: 2 },
});

const snapshot = (nodes: KubeObject[], pods: KubeObject[], budgets: KubeObject[] = []): FitSnapshot => ({
  nodes,
  pods,
  budgets,
  namespaces: [{ metadata: { name: 'shop', labels: { team: 'a' } } }],
  daemonSetExists: () => true,
});
const options = { ignoreDaemonSets: true, deleteEmptyDirData: false, force: false };
const outcomes = (fit: DrainFit) =>
  Object.fromEntries(fit.pods.map((p) => [p.name, p.target ? `${p.outcome} ${p.target}` : p.outcome]));
const reasonOf = (fit: DrainFit, name: string) => fit.pods.find((p) => p.name === name)?.reason;

describe('podRequests', () => {
  it('adds app containers and sidecars, takes a bigger init container, and adds the overhead', () => {
    const requests = podRequests({
      spec: {
        containers: [
          { name: 'a', resources: { requests: { cpu: '250m', memory: '1Gi' } } },
          { name: 'b', resources: { requests: { cpu: '250m' } } },
        ],
        initContainers: [
          { name: 'proxy', restartPolicy: 'Always', resources: { requests: { cpu: '100m' } } },
          { name: 'migrate', resources: { requests: { cpu: '2', memory: '512Mi' } } },
        ],
        overhead: { cpu: '10m' },
      },
    });
    // cpu: max(0.5 + 0.1, 0.1 + 2) + 0.01; memory: max(1Gi, 512Mi)
    expect(requests.get('cpu')).toBe(2110);
    expect(requests.get('memory')).toBe(1024 ** 3 * 1000);
  });
});

describe('drainFit', () => {
  it('places every evicted pod on the first node that passes the filters, consuming its capacity', () => {
    const fit = drainFit(
      snapshot(
        [node('a'), node('b', { cpu: '2' }), node('c', { cpu: '2' })],
        [pod('web-1', 'a'), pod('web-2', 'a'), pod('api-1', 'a'), pod('db-1', 'b', { cpu: '1' })],
      ),
      ['a'],
      options,
    );
    expect(outcomes(fit)).toEqual({ 'api-1': 'placed b', 'web-1': 'placed c', 'web-2': 'placed c' });
    expect(fit.fits).toBe(true);
    expect(fit.sequence).toEqual({ possible: true, batches: [{ nodes: ['a'], evictions: 3 }] });
    expect(fit.summary).toBe('draining node a fits: 3 placed elsewhere');
  });

  it("says why a pod stays Pending in the scheduler's words, counting every node under its reason", () => {
    const taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
    const fit = drainFit(
      snapshot(
        [
          node('a', { cpu: '8' }),
          node('b', { cpu: '2' }),
          node('c', { taints: [taint] }),
          node('d', { labels: { 'kubernetes.io/os': 'windows' } }),
          node('e', { cordoned: true }),
          node('f', { pods: '1' }),
        ],
        [
          pod('big-1', 'a', { cpu: '3', spec: { nodeSelector: { 'kubernetes.io/os': 'linux' } } }),
          pod('filler-1', 'f', { cpu: '0' }),
        ],
      ),
      ['a'],
      options,
    );
    expect(outcomes(fit)).toEqual({ 'big-1': 'pending' });
    expect(reasonOf(fit, 'big-1')).toBe(
      "0/6 nodes are available: 1 Insufficient cpu, 1 Too many pods, 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint {dedicated: gpu}, 2 node(s) were unschedulable.",
    );
    expect(fit.fits).toBe(false);
    expect(fit.sequence.reason).toContain('1 pod(s) would stay Pending: shop/big-1 (0/6 nodes are available');
  });

  it('names every resource a node is short of, and too many pods, sorted as the scheduler sorts its strings', () => {
    const fit = drainFit(
      snapshot(
        [node('a', { cpu: '8' }), node('b', { cpu: '1', pods: '1' }), node('c', { cpu: '1' })],
        [pod('big-1', 'a', { cpu: '3' }), pod('small-1', 'b', { cpu: '0' })],
      ),
      ['a'],
      options,
    );
    expect(reasonOf(fit, 'big-1')).toBe(
      '0/3 nodes are available: 1 Too many pods, 1 node(s) were unschedulable, 2 Insufficient cpu.',
    );
  });

  it('follows required node affinity, tolerations and the Exists operator', () => {
    const taint = { key: 'dedicated', value: 'batch', effect: 'NoExecute' };
    const affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'pool', operator: 'In', values: ['batch'] }] },
            { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['z'] }] },
          ],
        },
      },
    };
    const fit = drainFit(
      snapshot(
        [node('a'), node('b', { labels: { pool: 'batch' }, taints: [taint] }), node('c'), node('z')],
        [
          pod('job-1', 'a', { spec: { affinity, tolerations: [{ key: 'dedicated', operator: 'Exists' }] } }),
          pod('plain-1', 'a', { spec: { affinity } }),
        ],
      ),
      ['a'],
      options,
    );
    expect(outcomes(fit)).toEqual({ 'job-1': 'placed b', 'plain-1': 'placed z' });
  });

  it("keeps a pod away from a topology domain its required anti-affinity rules out, the evicted pod's own not counted", () => {
    const antiAffinity = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'zone' },
        ],
      },
    };
    const zone = (z: string) => ({ labels: { zone: z } });
    const fit = drainFit(
      snapshot(
        [node('a', zone('1')), node('b', zone('1')), node('c', zone('2')), node('d', zone('3'))],
        [pod('web-1', 'a', { spec: { affinity: antiAffinity } }), pod('web-2', 'c')],
      ),
      ['a'],
      options,
    );
    // b shares zone 1 with the evicted pod only (gone by then); c runs web-2.
    expect(outcomes(fit)).toEqual({ 'web-1': 'placed b' });
    const crowded = drainFit(
      snapshot(
        [node('a', zone('1')), node('c', zone('2'))],
        [pod('web-1', 'a', { spec: { affinity: antiAffinity } }), pod('web-2', 'c')],
      ),
      ['a'],
      options,
    );
    expect(reasonOf(crowded, 'web-1')).toBe(
      "0/2 nodes are available: 1 node(s) didn't match pod anti-affinity rules, 1 node(s) were unschedulable.",
    );
  });

  it('reads Gt and Lt as numbers, and anti-affinity terms over the namespaces a selector or a list names', () => {
    const numeric = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'gen', operator: 'Gt', values: ['5'] }] }],
        },
      },
    };
    const fit = drainFit(
      snapshot(
        [node('a'), node('b', { labels: { gen: '10' } }), node('c', { labels: { gen: '4' } })],
        [pod('new-1', 'a', { spec: { affinity: numeric } })],
      ),
      ['a'],
      options,
    );
    expect(outcomes(fit)).toEqual({ 'new-1': 'placed b' });
    const away = (term: Record<string, unknown>) => ({
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'kubernetes.io/hostname', ...term },
        ],
      },
    });
    const db = pod('db-1', 'b');
    db.metadata = { ...db.metadata, namespace: 'data' };
    const nodes = [node('a'), node('b'), node('c')];
    const outcomesFor = (term: Record<string, unknown>) =>
      outcomes(
        drainFit(
          snapshot(nodes, [pod('web-1', 'a', { spec: { affinity: away(term) } }), db]),
          ['a'],
          options,
        ),
      );
    // Its own namespace only: db-1 in data is no obstacle.
    expect(outcomesFor({})).toEqual({ 'web-1': 'placed b' });
    expect(outcomesFor({ namespaces: ['data'] })).toEqual({ 'web-1': 'placed c' });
    expect(outcomesFor({ namespaceSelector: {} })).toEqual({ 'web-1': 'placed c' });
    expect(outcomesFor({ namespaceSelector: { matchLabels: { team: 'a' } } })).toEqual({
      'web-1': 'placed b',
    });
  });

  it('places higher priority first, so the lower priority pod is the one left Pending', () => {
    const fit = drainFit(
      snapshot(
        [node('a', { cpu: '8' }), node('b', { cpu: '2' })],
        [pod('aaa-1', 'a', { cpu: '2' }), pod('zzz-1', 'a', { cpu: '2', spec: { priority: 1000 } })],
      ),
      ['a'],
      options,
    );
    expect(outcomes(fit)).toEqual({ 'aaa-1': 'pending', 'zzz-1': 'placed b' });
  });

  it('lists the pods the drain leaves or refuses apart, and those nothing recreates', () => {
    const bare = pod('bare-1', 'a');
    bare.metadata = { ...bare.metadata, ownerReferences: [] };
    const fit = drainFit(
      snapshot(
        [node('a'), node('b')],
        [pod('agent-1', 'a', { owner: 'DaemonSet' }), bare, pod('web-1', 'a')],
      ),
      ['a'],
      { ...options, force: true },
    );
    expect(outcomes(fit)).toEqual({ 'agent-1': 'skipped', 'bare-1': 'not-recreated', 'web-1': 'placed b' });
    const refused = drainFit(snapshot([node('a'), node('b')], [bare]), ['a'], options);
    expect(outcomes(refused)).toEqual({ 'bare-1': 'refused' });
    expect(refused.sequence.reason).toContain('the drain would refuse before evicting anything: shop/bare-1');
  });

  it('reports the PodDisruptionBudgets: none allowed blocks, fewer than evicted waits, lost replacements block', () => {
    const nodes = [node('a', { cpu: '8' }), node('b', { cpu: '2' })];
    const pods = [pod('web-1', 'a'), pod('web-2', 'a'), pod('web-3', 'a')];
    const blocked = drainFit(snapshot(nodes, pods, [pdb('web', 'web', 0)]), ['a'], options);
    expect(outcomes(blocked)).toEqual({ 'web-1': 'blocked', 'web-2': 'blocked', 'web-3': 'blocked' });
    expect(blocked.budgets).toEqual([
      expect.objectContaining({ name: 'web', verdict: 'blocks', disruptionsAllowed: 0, evicted: 3 }),
    ]);
    expect(reasonOf(blocked, 'web-1')).toBe(
      'PodDisruptionBudget web allows no disruption now (minAvailable 1, 2 healthy of 2): none of its 3 pod(s) may be evicted',
    );
    // Two replacements fit on b, the third would not run again: with 1 allowed it takes the budget's last disruption.
    const waits = drainFit(snapshot(nodes, pods, [pdb('web', 'web', 1)]), ['a'], options);
    expect(outcomes(waits)).toEqual({ 'web-1': 'placed b', 'web-2': 'placed b', 'web-3': 'pending' });
    expect(waits.budgets[0]?.verdict).toBe('waits');
    const fewer = [node('a', { cpu: '8' }), node('b', { cpu: '1' })];
    const lost = drainFit(snapshot(fewer, pods, [pdb('web', 'web', 1)]), ['a'], options);
    expect(outcomes(lost)).toEqual({ 'web-1': 'placed b', 'web-2': 'pending', 'web-3': 'blocked' });
    expect(lost.budgets[0]).toMatchObject({ verdict: 'blocks' });
    expect(lost.summary).toBe(
      'draining node a does not fit: 1 placed elsewhere, 1 would stay Pending, 1 kept by a PodDisruptionBudget; blocking PodDisruptionBudgets: shop/web',
    );
  });

  it('orders a node group in batches no PodDisruptionBudget refuses, the group cordoned throughout', () => {
    const pool = { labels: { pool: 'old' } };
    const nodes = [
      node('n1', pool),
      node('n2', pool),
      node('n3', pool),
      node('n4', pool),
      node('spare', { cpu: '16' }),
    ];
    const pods = [
      pod('web-1', 'n1'),
      pod('web-2', 'n2'),
      pod('api-1', 'n3'),
      pod('web-3', 'n4'),
      pod('web-4', 'n4'),
    ];
    const fit = drainFit(snapshot(nodes, pods, [pdb('web', 'web', 1)]), ['n4', 'n2', 'n1', 'n3'], options);
    expect(outcomes(fit)).toEqual({
      'api-1': 'placed spare',
      'web-1': 'placed spare',
      'web-2': 'placed spare',
      'web-3': 'placed spare',
      'web-4': 'placed spare',
    });
    expect(fit.sequence).toEqual({
      possible: true,
      batches: [
        { nodes: ['n1'], evictions: 1 },
        { nodes: ['n2', 'n3'], evictions: 2 },
        { nodes: ['n4'], evictions: 2, waitsFor: ['shop/web'] },
      ],
    });
    expect(fit.nodes).toEqual(['n1', 'n2', 'n3', 'n4']);
  });
});
