import type { GraphBuilder } from '../graph-builder.ts';
import { idOf, qualified } from '../node-data.ts';
import { addCertManager } from './cert-manager.ts';
import { addCloudNativePg } from './cloudnative-pg.ts';
import { addCrossplane } from './crossplane.ts';
import { addGatewayClasses } from './gateway-api.ts';
import { addIstio } from './istio.ts';
import { addKarpenter } from './karpenter.ts';
import { addKeda } from './keda.ts';
import { addKnative } from './knative.ts';
import { addKyverno } from './kyverno.ts';
import { addVelero } from './velero.ts';

/**
 * An ecosystem object manages what it owns, and what owns it manages it (a Certificate the CertificateRequests it
 * created, an Ingress the Certificate cert-manager made for it, a Revision its Deployment): the owner references
 * every controller of these projects writes.
 */
function addOwners(graph: GraphBuilder): void {
  for (const id of [...graph.nodes.keys()]) {
    const object = graph.objectOf(id);
    const owner = object && graph.owner(object);
    if (!object || !owner || !graph.nodes.has(idOf(owner))) continue;
    if (qualified(owner) || qualified(object)) graph.addEdge(idOf(owner), id, 'manages');
  }
}

/** The edges of the ecosystem's kinds (docs/topology.md, Ecosystem objects), once every other node is drawn. */
export function addEcosystemEdges(graph: GraphBuilder): void {
  addGatewayClasses(graph);
  // A cluster without the ecosystem's objects costs no pass over every node.
  if (!graph.hasEcosystemObjects) return;
  addCertManager(graph);
  addKeda(graph);
  addKarpenter(graph);
  addKnative(graph);
  addCrossplane(graph);
  addVelero(graph);
  addCloudNativePg(graph);
  addIstio(graph);
  addOwners(graph);
  // Last: its counts go on whatever else drew.
  addKyverno(graph);
}
