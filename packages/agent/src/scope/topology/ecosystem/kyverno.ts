import { groupOf, type KubeObject, topologyNodeId } from '@binnacle/common';
import type { GraphBuilder } from '../graph-builder.ts';
import { list, ns, type Obj, obj } from '../node-data.ts';

const notPassed = ['fail', 'warn', 'error'] as const;
type Counts = Record<(typeof notPassed)[number], number>;

/** The policy a result names: a ClusterPolicy by name, a Policy as `<namespace>/<name>` or in the report's namespace. */
function policyOf(graph: GraphBuilder, report: KubeObject, name: string): KubeObject | undefined {
  const slash = name.indexOf('/');
  if (slash > 0)
    return graph.find({
      group: 'kyverno.io',
      kind: 'Policy',
      namespace: name.slice(0, slash),
      name: name.slice(slash + 1),
    });
  return (
    graph.find({ group: 'kyverno.io', kind: 'ClusterPolicy', name }) ??
    graph.find({ group: 'kyverno.io', kind: 'Policy', namespace: ns(report), name })
  );
}

/** The node id of an object a result or a report's `scope` names. */
const namedId = (ref: Obj, report: KubeObject) =>
  topologyNodeId(
    groupOf(String(ref.apiVersion ?? '')),
    String(ref.kind ?? ''),
    typeof ref.namespace === 'string' ? ref.namespace : ns(report),
    String(ref.name ?? ''),
  );

/**
 * A policy report with results that did not pass is drawn under the policies that wrote them, and points to the
 * objects they name (each result's `resources`, else the report's `scope`), which count them in
 * `data.policyResults`. Reports of passing results only are left out: one per object would double the graph.
 */
export function addKyverno(graph: GraphBuilder): void {
  const reports = [
    ...graph.ofKind('wgpolicyk8s.io', 'PolicyReport'),
    ...graph.ofKind('wgpolicyk8s.io', 'ClusterPolicyReport'),
  ];
  for (const report of reports) {
    const failing = list((report as Obj).results).filter((r) =>
      (notPassed as readonly unknown[]).includes(r.result),
    );
    if (failing.length === 0 || !graph.drawnAlone(report)) continue;
    const id = graph.addNode(report);
    for (const result of failing) {
      const policy = typeof result.policy === 'string' ? policyOf(graph, report, result.policy) : undefined;
      if (policy) graph.addEdge(graph.addNode(policy), id, 'configures');
      const named = list(result.resources);
      for (const ref of named.length > 0 ? named : [obj((report as Obj).scope)]) {
        const node = graph.nodes.get(namedId(ref, report));
        if (!node) continue;
        const counts = { fail: 0, warn: 0, error: 0, ...(node.data.policyResults as Counts | undefined) };
        counts[result.result as keyof Counts] += 1;
        node.data.policyResults = counts;
        graph.addEdge(id, node.id, 'configures');
      }
    }
  }
}
