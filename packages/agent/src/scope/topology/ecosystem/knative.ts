import type { GraphBuilder } from '../graph-builder.ts';
import { list, nameOf, ns } from '../node-data.ts';

const group = 'serving.knative.dev';

/**
 * A Knative Service manages its Configuration and Route, a Configuration its Revisions, a Revision its Deployment
 * (`<revision>-deployment`): by the labels Knative puts on each, besides the owner references. A Route sends
 * traffic to the Revisions its `status.traffic` names.
 */
export function addKnative(graph: GraphBuilder): void {
  const labelled = (kind: string, label: string, child: string) => {
    for (const o of graph.ofKind(group, child)) {
      const parent = o.metadata?.labels?.[label];
      const found = parent && graph.find({ group, kind, namespace: ns(o), name: parent });
      if (found) graph.addEdge(graph.addNode(found), graph.addNode(o), 'manages');
    }
  };
  labelled('Service', 'serving.knative.dev/service', 'Configuration');
  labelled('Service', 'serving.knative.dev/service', 'Route');
  labelled('Configuration', 'serving.knative.dev/configuration', 'Revision');
  for (const revision of graph.ofKind(group, 'Revision')) {
    const name = `${nameOf(revision)}-deployment`;
    const deployment = graph.find({ group: 'apps', kind: 'Deployment', namespace: ns(revision), name });
    if (deployment) graph.addEdge(graph.addNode(revision), graph.addNode(deployment), 'manages');
  }
  for (const route of graph.ofKind(group, 'Route')) {
    const id = graph.addNode(route);
    for (const target of list(route.status?.traffic))
      if (typeof target.revisionName === 'string')
        graph.reference(
          id,
          { group, kind: 'Revision', namespace: ns(route), name: target.revisionName },
          'routes-to',
        );
  }
}
