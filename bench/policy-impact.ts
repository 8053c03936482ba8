import { performance } from 'node:perf_hooks';
import type { KubeObject } from '@binnacle/common';
import type { FlowEnd, ObservedFlow } from '../packages/agent/src/features/netpol/flows.ts';
import { flowsImpact, type PolicyChange } from '../packages/agent/src/features/netpol/impact.ts';
import type { ClusterSnapshot } from '../packages/agent/src/features/netpol/model.ts';
import { goal } from './goals.ts';
import type { BenchResult } from './run.ts';

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const round = (value: number) => Math.round(value * 10) / 10;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Issue 44: the impact of a policy change over 10 000 observed flow pairs and 200 policies. */
const goalMs = 500;
const namespaces = 20;
const workloadsPerNamespace = 50;
const replicas = 3;
const flowPairs = 10_000;
const policyCount = 200;

/** 20 namespaces of 50 Deployments of 3 pods each (3 000 pods), with the ids the traffic feature gives them. */
function cluster() {
  const pods: KubeObject[] = [];
  const workloads = new Map<string, KubeObject[]>();
  const ends: FlowEnd[] = [];
  for (let n = 0; n < namespaces; n += 1)
    for (let w = 0; w < workloadsPerNamespace; w += 1) {
      const namespace = `ns-${n}`;
      const name = `app-${w}`;
      const own = Array.from({ length: replicas }, (_, r) => ({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          namespace,
          name: `${name}-5d8f-${r}`,
          labels: {
            app: name,
            tier: w % 3 === 0 ? 'web' : w % 3 === 1 ? 'api' : 'db',
            'pod-template-hash': '5d8f',
          },
        },
        spec: { containers: [{ name: 'c', ports: [{ name: 'http', containerPort: 8080 }] }] },
        status: { phase: 'Running', podIP: `10.${n}.${w}.${r + 1}` },
      }));
      pods.push(...own);
      const id = `deployment/${namespace}/${name}`;
      workloads.set(id, own);
      ends.push({ id, kind: 'Deployment', name, namespace });
    }
  return { pods, workloads, ends };
}

/** 10 per namespace: pod, namespace, ipBlock and port rules, both directions, named and ranged ports. */
function policies(): KubeObject[] {
  return Array.from({ length: policyCount }, (_, i) => {
    const namespace = `ns-${i % namespaces}`;
    const both = i % 3 === 0;
    return {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { namespace, name: `policy-${i}` },
      spec: {
        podSelector: { matchLabels: { tier: ['web', 'api', 'db'][i % 3] as string } },
        policyTypes: both ? ['Ingress', 'Egress'] : ['Ingress'],
        ingress: [
          {
            from: [{ podSelector: { matchLabels: { app: `app-${i % workloadsPerNamespace}` } } }],
            ports: [{ port: 'http' }],
          },
          {
            from: [
              {
                namespaceSelector: {
                  matchLabels: { 'kubernetes.io/metadata.name': `ns-${(i + 1) % namespaces}` },
                },
              },
            ],
            ports: [{ port: 8000, endPort: 8100 }],
          },
          { from: [{ ipBlock: { cidr: '203.0.113.0/24', except: ['203.0.113.128/25'] } }] },
        ],
        ...(both ? { egress: [{ to: [{ podSelector: {} }], ports: [{ port: 8080 }, { port: 5432 }] }] } : {}),
      },
    };
  });
}

/**
 * 10 000 distinct pairs: each workload called by ten others at growing distances (some in its namespace, most
 * across), one call in twenty from an outside address instead, on four ports.
 */
function flows(ends: FlowEnd[]): ObservedFlow[] {
  return Array.from({ length: flowPairs }, (_, i) => {
    const destination = ends[i % ends.length] as FlowEnd;
    const distance = (Math.floor(i / ends.length) + 1) * 13;
    const ip = `203.0.113.${i % 250}`;
    const source: FlowEnd =
      i % 20 === 0
        ? { id: `external/${ip}`, kind: 'External', name: ip, ip }
        : (ends[(i + distance) % ends.length] as FlowEnd);
    const port = [8080, 5432, 8050, 9000][i % 4] as number;
    return { source, destination, protocol: 'TCP', port, flows: 10, dropped: 0 };
  });
}

function timedRuns(runs: number, work: () => unknown): number[] {
  return Array.from({ length: runs }, () => {
    const start = performance.now();
    work();
    return performance.now() - start;
  });
}

/**
 * In process, the impact alone: 10 000 observed flow pairs between 1 000 workloads (3 000 pods) of 20 namespaces
 * and 200 policies. Three changes: the 200 policies applied at once on a cluster without any (every flow
 * touched), one of them edited among the 200, and a default-deny ingress policy per namespace over the 200.
 */
export function policyImpact(): Promise<BenchResult> {
  const { pods, workloads, ends } = cluster();
  const observed = flows(ends);
  const all = policies();
  const snapshot = (policiesInForce: KubeObject[]): ClusterSnapshot => ({
    namespaces: Array.from({ length: namespaces }, (_, n) => ({
      kind: 'Namespace',
      metadata: { name: `ns-${n}` },
    })),
    pods,
    services: [],
    policies: policiesInForce,
  });
  const edited = { ...(all[0] as KubeObject), spec: { podSelector: {}, policyTypes: ['Ingress'] } };
  const denyAll = Array.from({ length: namespaces }, (_, n) => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { namespace: `ns-${n}`, name: 'default-deny' },
    spec: { podSelector: {}, policyTypes: ['Ingress'] },
  }));
  const cases: [string, ClusterSnapshot, PolicyChange][] = [
    ['apply200', snapshot([]), { apply: all, remove: [] }],
    ['editOneOf200', snapshot(all), { apply: [edited], remove: [] }],
    ['denyAllOver200', snapshot(all), { apply: denyAll, remove: [] }],
  ];
  log(`${pods.length} pods, ${observed.length} flow pairs, ${all.length} policies`);
  const data: Record<string, unknown> = {
    pods: pods.length,
    flowPairs: observed.length,
    policies: all.length,
  };
  const parts: string[] = [];
  for (const [name, before, change] of cases) {
    const answer = flowsImpact(before, change, observed, workloads);
    const times = timedRuns(7, () => flowsImpact(before, change, observed, workloads));
    data[name] = {
      medianMs: round(median(times)),
      worstMs: round(Math.max(...times)),
      judged: answer.judged,
      newlyDenied: answer.newlyDenied.length,
      newlyAllowed: answer.newlyAllowed.length,
    };
    log(`${name}: median ${round(median(times))} ms, ${answer.newlyDenied.length} newly denied`);
    parts.push(
      `${name} median ${goal(round(median(times)), goalMs, 'ms')}, worst ${round(Math.max(...times))} ms (${answer.newlyDenied.length} newly denied, ${answer.newlyAllowed.length} newly allowed)`,
    );
  }
  return Promise.resolve({
    name: 'policy-impact',
    summary: `${observed.length} observed flow pairs, ${all.length} policies, ${pods.length} pods in ${namespaces} namespaces, in process: ${parts.join('; ')}`,
    data,
  });
}
