import { groupOf, type KubeObject } from '@binnacle/common';
import type { GraphBuilder } from '../graph-builder.ts';
import { idOf, list, ns, type Obj, obj } from '../node-data.ts';

export const crossplaneGroup = 'apiextensions.crossplane.io';

/** The composite and claim kinds an XRD defines (`spec.names`, `spec.claimNames`), in its group. */
export function definedKinds(xrd: KubeObject): { group: string; composite?: string; claim?: string } {
  const spec = obj(xrd.spec);
  const kindOf = (names: unknown) => {
    const kind = obj(names).kind;
    return typeof kind === 'string' ? kind : undefined;
  };
  return { group: String(spec.group ?? ''), composite: kindOf(spec.names), claim: kindOf(spec.claimNames) };
}

/** Where a composite keeps what Crossplane writes: `spec.crossplane` from v2, `spec` itself before. */
const crossplaneSpec = (composite: KubeObject): Obj => {
  const spec = obj(composite.spec);
  return spec.crossplane === undefined ? spec : obj(spec.crossplane);
};

/** The managed resources a composite's `resourceRefs` name (v2: under `spec.crossplane`), with their kinds. */
export function managedRefs(composite: KubeObject) {
  return list(crossplaneSpec(composite).resourceRefs).flatMap((ref) =>
    typeof ref.kind === 'string' && typeof ref.name === 'string'
      ? [
          {
            group: groupOf(String(ref.apiVersion ?? '')),
            kind: ref.kind,
            namespace: typeof ref.namespace === 'string' ? ref.namespace : ns(composite),
            name: ref.name,
          },
        ]
      : [],
  );
}

/**
 * A claim manages its composite (`spec.resourceRef`), a composite the managed resources it names and uses its
 * Composition; each missing one is a placeholder flagged missing. The kinds come from the XRDs, read at run time.
 */
export function addCrossplane(graph: GraphBuilder): void {
  for (const xrd of graph.ofKind(crossplaneGroup, 'CompositeResourceDefinition')) {
    const { group, composite, claim } = definedKinds(xrd);
    if (claim)
      for (const o of graph.ofKind(group, claim)) {
        const ref = obj(o.spec?.resourceRef);
        if (typeof ref.name !== 'string' || typeof ref.kind !== 'string') continue;
        const kind = ref.kind;
        const refGroup = groupOf(String(ref.apiVersion ?? ''));
        // A v1 composite is cluster-scoped; a namespaced one sits beside its claim.
        const namespace = typeof ref.namespace === 'string' ? ref.namespace : undefined;
        graph.reference(graph.addNode(o), { group: refGroup, kind, namespace, name: ref.name }, 'manages');
      }
    if (!composite) continue;
    for (const o of graph.ofKind(group, composite)) {
      if (!graph.drawnAlone(o) && !graph.nodes.has(idOf(o))) continue;
      const id = graph.addNode(o);
      for (const ref of managedRefs(o)) graph.reference(id, ref, 'manages');
      const composition = obj(crossplaneSpec(o).compositionRef).name;
      if (typeof composition === 'string')
        graph.reference(id, { group: crossplaneGroup, kind: 'Composition', name: composition }, 'uses');
    }
  }
}
