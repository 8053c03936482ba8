/*
 * The upstream Kubernetes netpol e2e truth tables as data (see README.md in this folder for where they come
 * from and how they were re-expressed): `world.json` holds the x/y/z × a/b/c model, `cases/*.json` one test
 * each. This module reads and checks them and builds the snapshot each step describes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeObject } from '@binnacle/common';
import type { ClusterSnapshot, ObjectRef, Protocol } from '../model.ts';
import { protocols } from '../model.ts';

type LabelMap = Record<string, string>;

export interface ConformanceStep {
  title: string;
  /** Every policy present at this step. */
  policies: KubeObject[];
  /** Replacement labels for namespaces (by name) and pods (by `namespace/name`). */
  namespaceLabels?: Record<string, LabelMap>;
  podLabels?: Record<string, LabelMap>;
  probe: { port: number; protocol: Protocol };
  /** Source `namespace/name` → one character per destination, `.` allowed, `X` denied (spaces ignored). */
  expected: Record<string, string>;
}

export interface ConformanceCase {
  /** The file name without `.json`. */
  id: string;
  /** The upstream test's name (its `f.It` text), or Binnacle's for its own cases. */
  name: string;
  suite: string;
  upstream: boolean;
  steps: ConformanceStep[];
}

interface World {
  namespaces: { name: string; labels: LabelMap }[];
  pods: { namespace: string; name: string; labels: LabelMap; ip: string }[];
  ports: number[];
  protocols: Protocol[];
}

const here = import.meta.dirname;
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

export const world = readJson(join(here, 'world.json')) as World;

/** The pods of the model in table order: x/a, x/b, … z/c. */
export const modelPods: ObjectRef[] = world.pods.map(({ namespace, name }) => ({ namespace, name }));
const podKeys = modelPods.map((p) => `${p.namespace}/${p.name}`);

function checkStep(step: ConformanceStep, where: string): void {
  if (!Array.isArray(step.policies)) throw new Error(`${where}: policies is not a list`);
  if (!Number.isInteger(step.probe?.port) || !protocols.includes(step.probe?.protocol))
    throw new Error(`${where}: probe needs a port and a protocol`);
  const rows = Object.keys(step.expected ?? {});
  if (rows.join() !== podKeys.join())
    throw new Error(`${where}: expected rows must be ${podKeys.join(', ')}`);
  for (const [source, row] of Object.entries(step.expected)) {
    const cells = row.replaceAll(' ', '');
    if (cells.length !== podKeys.length || /[^.X]/.test(cells))
      throw new Error(`${where}: row ${source} must hold ${podKeys.length} of "." or "X"`);
  }
}

function loadCase(file: string): ConformanceCase {
  const data = readJson(join(here, 'cases', file)) as Omit<ConformanceCase, 'id'>;
  const id = file.replace(/\.json$/, '');
  if (typeof data.name !== 'string' || !Array.isArray(data.steps) || data.steps.length === 0)
    throw new Error(`${file}: a case needs a name and steps`);
  data.steps.forEach((step, i) => {
    checkStep(step, `${file} step ${i + 1}`);
  });
  return { id, ...data };
}

export const conformanceCases: ConformanceCase[] = readdirSync(join(here, 'cases'))
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map(loadCase);

/** The expected table as booleans, [source][destination] in `modelPods` order. */
export const expectedTable = (step: ConformanceStep): boolean[][] =>
  podKeys.map((source) => [...(step.expected[source] ?? '').replaceAll(' ', '')].map((cell) => cell === '.'));

function podObject(pod: World['pods'][number], labels: LabelMap): KubeObject {
  const containers = world.ports.flatMap((port) =>
    world.protocols.map((protocol) => {
      const suffix = `${port}-${protocol.toLowerCase()}`;
      return { name: `cont-${suffix}`, ports: [{ containerPort: port, name: `serve-${suffix}`, protocol }] };
    }),
  );
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { namespace: pod.namespace, name: pod.name, labels },
    spec: { containers },
    status: { phase: 'Running', podIP: pod.ip, podIPs: [{ ip: pod.ip }] },
  };
}

/** The cluster as it stands at a step: the model, the step's label changes and its policies. */
export function snapshotOf(step: ConformanceStep): ClusterSnapshot {
  return {
    namespaces: world.namespaces.map((ns) => ({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns.name, labels: step.namespaceLabels?.[ns.name] ?? ns.labels },
    })),
    pods: world.pods.map((pod) =>
      podObject(pod, step.podLabels?.[`${pod.namespace}/${pod.name}`] ?? pod.labels),
    ),
    services: [],
    policies: step.policies,
  };
}
