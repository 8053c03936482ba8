import type { KubeObject } from '@binnacle/common';

type Obj = Record<string, unknown>;
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
const records = (value: unknown) => (Array.isArray(value) ? (value as Obj[]) : []);
const record = (value: unknown) => (value && typeof value === 'object' ? (value as Obj) : {});

/** An object a GitOps tool applied, by group, kind, namespace (none when cluster-scoped) and name. */
export interface ManagedRef {
  group: string;
  kind: string;
  namespace?: string;
  name: string;
  /** The API version the tool applied it at, when it records one (Argo CD's status, Flux's inventory `v`). */
  version?: string;
}

/** The objects an Argo CD Application manages, as its controller lists them in `status.resources`. */
export function applicationRefs(app: KubeObject): (ManagedRef & { entry: Obj })[] {
  return records(record(app.status).resources).map((entry) => ({
    group: text(entry.group) ?? '',
    kind: String(entry.kind ?? ''),
    namespace: text(entry.namespace),
    name: String(entry.name ?? ''),
    ...(text(entry.version) ? { version: text(entry.version) } : {}),
    entry,
  }));
}

/** What a Kustomization applied: kustomize-controller's inventory, whose ids are `<namespace>_<name>_<group>_<kind>`. */
export function inventoryRefs(kustomization: KubeObject): ManagedRef[] {
  return records(record(record(kustomization.status).inventory).entries).map((entry) => {
    const [namespace = '', name = '', group = '', kind = ''] = String(entry.id ?? '').split('_');
    const version = text(entry.v);
    return { group, kind, namespace: namespace || undefined, name, ...(version ? { version } : {}) };
  });
}

/**
 * The labels Flux's controllers put on every object they apply, naming the Kustomization or HelmRelease it came
 * from (helm-controller adds them in a post-renderer, so they are on every object of the Helm release).
 */
export const appliedByLabels = {
  Kustomization: {
    name: 'kustomize.toolkit.fluxcd.io/name',
    namespace: 'kustomize.toolkit.fluxcd.io/namespace',
  },
  HelmRelease: { name: 'helm.toolkit.fluxcd.io/name', namespace: 'helm.toolkit.fluxcd.io/namespace' },
} as const;

/** The Kustomization or HelmRelease an object's Flux labels name, as `<kind>/<namespace>/<name>` keys' parts. */
export function appliedBy(
  object: KubeObject,
): { kind: keyof typeof appliedByLabels; namespace: string; name: string }[] {
  const labels = object.metadata?.labels ?? {};
  return (
    Object.entries(appliedByLabels) as [keyof typeof appliedByLabels, { name: string; namespace: string }][]
  )
    .filter(([, keys]) => labels[keys.name] && labels[keys.namespace])
    .map(([kind, keys]) => ({
      kind,
      namespace: labels[keys.namespace] as string,
      name: labels[keys.name] as string,
    }));
}
