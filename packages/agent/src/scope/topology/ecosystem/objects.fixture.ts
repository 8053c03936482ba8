import { groupOf, type KubeObject, topologyKindName } from '@binnacle/common';
import type { TopologyInput } from '../builder.ts';

/** An object of `apiVersion` and kind, with its uid its id so that owner references can name it. */
export function object(
  apiVersion: string,
  kind: string,
  namespace: string | undefined,
  name: string,
  rest: Partial<KubeObject> & { metadata?: KubeObject['metadata'] } = {},
): KubeObject {
  return {
    ...rest,
    apiVersion,
    kind,
    metadata: {
      ...(namespace ? { namespace } : {}),
      name,
      uid: `${apiVersion}/${kind}/${namespace}/${name}`,
      ...rest.metadata,
    },
  };
}

/** A controller owner reference to `owner`. */
export const ownedBy = (owner: KubeObject) => [
  {
    apiVersion: owner.apiVersion ?? '',
    kind: owner.kind ?? '',
    name: owner.metadata?.name ?? '',
    uid: owner.metadata?.uid ?? '',
    controller: true,
  },
];

/** The topology's input for these objects, each under its kind's name. */
export function inputOf(...objects: KubeObject[]): TopologyInput {
  const input: TopologyInput = {};
  for (const o of objects) {
    const key = topologyKindName(groupOf(o.apiVersion), o.kind ?? '');
    input[key] = [...(input[key] ?? []), o];
  }
  return input;
}

/** The edges as `source -type-> target`, sorted. */
export const edgeLines = (edges: { source: string; target: string; type: string }[]) =>
  edges.map((e) => `${e.source} -${e.type}-> ${e.target}`).sort();
