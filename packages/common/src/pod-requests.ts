import type { KubeObject } from './kube-object.ts';
import { parseQuantity } from './quantities.ts';

/** Resource amounts by resource name, in thousandths of the base unit (millicores, millibytes) so sums stay exact. */
export type ResourceAmounts = Map<string, number>;

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

/** A quantity list (`requests`, `allocatable`, `overhead`) as amounts. */
export function resourceAmounts(list: Record<string, string> | undefined): ResourceAmounts {
  const amounts: ResourceAmounts = new Map();
  for (const [name, quantity] of Object.entries(list ?? {})) amounts.set(name, milli(quantity));
  return amounts;
}

/** Adds `more` into `into`, which it returns. */
export function addResourceAmounts(
  into: ResourceAmounts,
  more: ReadonlyMap<string, number>,
): ResourceAmounts {
  for (const [name, value] of more) into.set(name, (into.get(name) ?? 0) + value);
  return into;
}

function atLeast(into: ResourceAmounts, floor: ResourceAmounts): ResourceAmounts {
  for (const [name, value] of floor) into.set(name, Math.max(into.get(name) ?? 0, value));
  return into;
}

/**
 * What the scheduler reserves for a pod, as Kubernetes' own resource helper counts it: the app containers and
 * sidecars (init containers that keep running) together, or an init container with the sidecars started before
 * it if that is more, plus the pod's overhead. Limits play no part in placement. The node page's "Requested" and
 * the agent's drain fit count with this one function, so they agree.
 */
export function podRequestAmounts(pod: KubeObject): ResourceAmounts {
  const spec = (pod.spec ?? {}) as PodSpec;
  const running: ResourceAmounts = new Map();
  for (const container of spec.containers ?? [])
    addResourceAmounts(running, resourceAmounts(container.resources?.requests));
  const sidecars: ResourceAmounts = new Map();
  const initPeak: ResourceAmounts = new Map();
  for (const init of spec.initContainers ?? []) {
    const own = resourceAmounts(init.resources?.requests);
    if (init.restartPolicy === 'Always') {
      addResourceAmounts(sidecars, own);
      atLeast(initPeak, sidecars);
    } else atLeast(initPeak, addResourceAmounts(new Map(sidecars), own));
  }
  return addResourceAmounts(
    atLeast(addResourceAmounts(running, sidecars), initPeak),
    resourceAmounts(spec.overhead),
  );
}
