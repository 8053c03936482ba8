import { groupOf, type KubeObject } from '@binnacle/common';
import type { GraphBuilder } from '../graph-builder.ts';
import { list, nameOf, ns, obj } from '../node-data.ts';

const group = 'keda.sh';

/** The TriggerAuthentications and ClusterTriggerAuthentications a scaler's triggers authenticate with. */
function addAuthentications(graph: GraphBuilder, scaler: KubeObject, id: string): void {
  for (const trigger of list(scaler.spec?.triggers)) {
    const ref = obj(trigger.authenticationRef);
    if (typeof ref.name !== 'string') continue;
    const kind = ref.kind === 'ClusterTriggerAuthentication' ? ref.kind : 'TriggerAuthentication';
    const namespace = kind === 'TriggerAuthentication' ? ns(scaler) : undefined;
    graph.reference(id, { group, kind, namespace, name: ref.name }, 'configures', true);
  }
}

/**
 * A ScaledObject uses its scale target (flagged when missing) and manages the HorizontalPodAutoscaler KEDA makes
 * for it (`keda-hpa-<name>` unless `spec.advanced.horizontalPodAutoscalerConfig.name` names it); its triggers'
 * authentications configure it. A ScaledJob's Jobs hang under it by their owner references.
 */
export function addKeda(graph: GraphBuilder): void {
  for (const scaled of graph.ofKind(group, 'ScaledObject')) {
    const id = graph.addNode(scaled);
    const named = obj(obj(obj(scaled.spec?.advanced).horizontalPodAutoscalerConfig)).name;
    const hpaName = typeof named === 'string' ? named : `keda-hpa-${nameOf(scaled)}`;
    const hpa = graph.find({
      group: 'autoscaling',
      kind: 'HorizontalPodAutoscaler',
      namespace: ns(scaled),
      name: hpaName,
    });
    const target = obj(scaled.spec?.scaleTargetRef);
    if (typeof target.name === 'string') {
      const apiVersion = typeof target.apiVersion === 'string' ? target.apiVersion : 'apps/v1';
      const kind = typeof target.kind === 'string' ? target.kind : 'Deployment';
      const ref = { group: groupOf(apiVersion), kind, namespace: ns(scaled), name: target.name };
      // With its HPA drawn, ScaledObject → HPA → target says it; the direct edge stands in while HPAs are hidden
      // (a missing target's edge always shows).
      const shortcut = hpa && graph.find(ref) ? 'HorizontalPodAutoscaler' : undefined;
      graph.reference(id, ref, 'uses', false, shortcut);
    }
    if (hpa) graph.addEdge(id, graph.addNode(hpa), 'manages');
    addAuthentications(graph, scaled, id);
  }
  for (const job of graph.ofKind(group, 'ScaledJob')) addAuthentications(graph, job, graph.addNode(job));
}
