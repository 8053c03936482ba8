import type { GraphBuilder } from '../graph-builder.ts';

const group = 'karpenter.sh';

/** A NodePool manages its NodeClaims (label `karpenter.sh/nodepool`), a NodeClaim its Node (`status.nodeName`). */
export function addKarpenter(graph: GraphBuilder): void {
  for (const claim of graph.ofKind(group, 'NodeClaim')) {
    if (!graph.drawnAlone(claim)) continue;
    const id = graph.addNode(claim);
    const pool = claim.metadata?.labels?.['karpenter.sh/nodepool'];
    if (pool) graph.reference(id, { group, kind: 'NodePool', name: pool }, 'manages', true);
    const nodeName = claim.status?.nodeName;
    if (typeof nodeName === 'string')
      graph.reference(id, { group: '', kind: 'Node', name: nodeName }, 'manages');
  }
}
