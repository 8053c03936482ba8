import { type KubeObject, parseQuantity } from '@binnacle/common';

/** Resource amounts by resource name, in thousandths of the base unit (millicores, millibytes) so sums stay exact. */
export type Amounts = Map<string, number>;

interface Container {
  restartPolicy?: string;
  resources?: { requests?: Record<string, string> };
}
interface PodSpec {
  containers?: Container[];
  initContainers?: Container[];
  overhead?: Record<string, string>;
}

const milli = (quantity: string) => Math.round((parseQuantity(quantity) ?? 0) * 1000);

function amountsOf(list: Record<string, string> | undefined): Amounts {
  const amounts: Amounts = new Map();
  for (const [name, quantity] of Object.entries(list ?? {})) amounts.set(name, milli(quantity));
  return amounts;
}

function add(into: Amounts, more: ReadonlyMap<string, number>): Amounts {
  for (const [name, value] of more) into.set(name, (into.get(name) ?? 0) + value);
  return into;
}

function atLeast(into: Amounts, floor: Amounts): Amounts {
  for (const [name, value] of floor) into.set(name, Math.max(into.get(name) ?? 0, value));
  return into;
}

/**
 * The requests of pods already worked out: the cache replaces an object on every change and never edits one, so a
 * pod object's requests stay what they were, and a fit over a large cluster does not parse every pod again.
 */
const known = new WeakMap<KubeObject, ReadonlyMap<string, number>>();

/**
 * What the scheduler reserves for a pod, as Kubernetes' own resource helper counts it: the app containers and
 * sidecars (init containers that keep running) together, or an init container with the sidecars started before
 * it if that is more, plus the pod's overhead. Limits play no part in placement.
 */
export function podRequests(pod: KubeObject): ReadonlyMap<string, number> {
  let requests = known.get(pod);
  if (!requests) {
    requests = computed(pod);
    known.set(pod, requests);
  }
  return requests;
}

function computed(pod: KubeObject): Amounts {
  const spec = (pod.spec ?? {}) as PodSpec;
  const running: Amounts = new Map();
  for (const container of spec.containers ?? []) add(running, amountsOf(container.resources?.requests));
  const sidecars: Amounts = new Map();
  const initPeak: Amounts = new Map();
  for (const init of spec.initContainers ?? []) {
    const own = amountsOf(init.resources?.requests);
    if (init.restartPolicy === 'Always') {
      add(sidecars, own);
      atLeast(initPeak, sidecars);
    } else atLeast(initPeak, add(new Map(sidecars), own));
  }
  return add(atLeast(add(running, sidecars), initPeak), amountsOf(spec.overhead));
}

/** What a node offers pods (`status.allocatable`; `pods` is its pod count, counted apart). */
export function allocatable(node: KubeObject): Amounts {
  return amountsOf((node.status as { allocatable?: Record<string, string> } | undefined)?.allocatable);
}

export { add as addAmounts };
