type Obj = Record<string, unknown>;
const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

export interface PodRefs {
  configMaps: Set<string>;
  secrets: Set<string>;
  claims: Set<string>;
}

/** The ConfigMaps, Secrets and claims a pod spec reads: env, envFrom, volumes and projected volumes. */
export function podRefs(podSpec: unknown): PodRefs {
  const refs: PodRefs = { configMaps: new Set(), secrets: new Set(), claims: new Set() };
  const add = (set: Set<string>, name: unknown) => {
    const n = str(name);
    if (n) set.add(n);
  };
  const spec = obj(podSpec);
  for (const c of [
    ...list(spec.containers),
    ...list(spec.initContainers),
    ...list(spec.ephemeralContainers),
  ]) {
    for (const env of list(c.env)) {
      const from = obj(env.valueFrom);
      add(refs.configMaps, obj(from.configMapKeyRef).name);
      add(refs.secrets, obj(from.secretKeyRef).name);
    }
    for (const from of list(c.envFrom)) {
      add(refs.configMaps, obj(from.configMapRef).name);
      add(refs.secrets, obj(from.secretRef).name);
    }
  }
  for (const volume of list(spec.volumes)) {
    add(refs.configMaps, obj(volume.configMap).name);
    add(refs.secrets, obj(volume.secret).secretName);
    add(refs.claims, obj(volume.persistentVolumeClaim).claimName);
    const sources = list(obj(volume.projected).sources);
    const tokenVolume = sources.some((source) => source.serviceAccountToken);
    for (const source of sources) {
      // The ServiceAccount admission plugin mounts kube-root-ca.crt with the token into every pod: an edge from it
      // to each pod says nothing about the workload, and one node tied to thousands makes the graph unreadable.
      if (!(tokenVolume && obj(source.configMap).name === 'kube-root-ca.crt'))
        add(refs.configMaps, obj(source.configMap).name);
      add(refs.secrets, obj(source.secret).name);
    }
  }
  return refs;
}
