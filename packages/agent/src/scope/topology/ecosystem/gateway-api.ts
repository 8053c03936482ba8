import type { GraphBuilder } from '../graph-builder.ts';
import { ns } from '../node-data.ts';

const group = 'gateway.networking.k8s.io';

/** A Gateway uses its GatewayClass; a class nobody defined is a placeholder flagged missing. */
export function addGatewayClasses(graph: GraphBuilder): void {
  for (const gateway of graph.of('Gateway')) {
    const className = gateway.spec?.gatewayClassName;
    if (typeof className !== 'string' || ns(gateway) === undefined) continue;
    graph.reference(graph.addNode(gateway), { group, kind: 'GatewayClass', name: className }, 'uses');
  }
}
