import type { KubeObject } from '@binnacle/common';

const dataSections: Record<string, string[]> = {
  Secret: ['data', 'stringData'],
  ConfigMap: ['data', 'binaryData'],
};

/**
 * An object as the history keeps it (ADR 0114): a Secret's values never, its keys only (`dataKeys`, as
 * `summary=true` lists show them); a ConfigMap's values only when `configMapValues` allows, as the timeline's rule is.
 * Every other object is kept as cached, the same reference.
 */
export function historyForm(object: KubeObject, configMapValues: boolean): KubeObject {
  const sections = dataSections[object.kind ?? ''];
  if (!sections || (object.kind === 'ConfigMap' && configMapValues)) return object;
  const kept: KubeObject = { ...object };
  const keys = new Set<string>();
  for (const section of sections) {
    const values = object[section];
    if (values && typeof values === 'object') for (const key of Object.keys(values)) keys.add(key);
    delete kept[section];
  }
  kept.dataKeys = [...keys].sort();
  return kept;
}
