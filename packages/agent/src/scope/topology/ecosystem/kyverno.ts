import { groupOf, type KubeObject, topologyNodeId } from '@binnacle/common';
import type { GraphBuilder } from '../graph-builder.ts';
import { list, ns, type Obj, obj } from '../node-data.ts';

/** The outcomes counted on the objects a report names; `skip` (the policy did not apply) is not counted. */
const counted = ['pass', 'fail', 'warn', 'error'] as const;
type Counts = Record<(typeof counted)[number], number>;

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
 * A policy report is drawn under the policies that wrote its results, and points to the objects they name (each
 * result's `resources`, else the report's `scope`), which count them by outcome in `data.policyResults`. Reports
 * whose results all passed are drawn too, their passes counted: that an object passed its policies is what a
 * platform engineer checks first (ADR 0130).
 */
export function addKyverno(graph: GraphBuilder): void {
  const reports = [
    ...graph.ofKind('wgpolicyk8s.io', 'PolicyReport'),
    ...graph.ofKind('wgpolicyk8s.io', 'ClusterPolicyReport'),
  ];
  for (const report of reports) {
    const results = list((report as Obj).results).filter((r) =>
      (counted as readonly unknown[]).includes(r.result),
    );
    if (results.length === 0 || !graph.drawnAlone(report)) continue;
    const id = graph.addNode(report);
    for (const result of results) {
      const policy = typeof result.policy === 'string' ? policyOf(graph, report, result.policy) : undefined;
      if (policy) graph.addEdge(graph.addNode(policy), id, 'configures');
      const named = list(result.resources);
      for (const ref of named.length > 0 ? named : [obj((report as Obj).scope)]) {
        const node = graph.nodes.get(namedId(ref, report));
        if (!node) continue;
        const counts = {
          pass: 0,
          fail: 0,
          warn: 0,
          error: 0,
          ...(node.data.policyResults as Counts | undefined),
        };
        counts[result.result as keyof Counts] += 1;
        node.data.policyResults = counts;
        graph.addEdge(id, node.id, 'configures');
      }
    }
  }
}
