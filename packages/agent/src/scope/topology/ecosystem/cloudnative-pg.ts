import type { GraphBuilder } from '../graph-builder.ts';
import { idOf, nameOf, ns, obj } from '../node-data.ts';

const group = 'postgresql.cnpg.io';
/** The Services the operator makes for a cluster: read-write (the primary), read-only (replicas), read (any). */
const serviceSuffixes = ['rw', 'ro', 'r'];

/**
 * A Cluster manages its instance pods (label `cnpg.io/cluster`, besides their owner references) and its
 * `-rw`/`-ro`/`-r` Services; Backups and ScheduledBackups protect their cluster (`spec.cluster.name`, flagged when
 * missing), a ScheduledBackup manages the Backups it started; a Pooler uses its cluster.
 */
export function addCloudNativePg(graph: GraphBuilder): void {
  const clusters = graph.ofKind(group, 'Cluster');
  // Instance pods drawn one by one (not under their Cluster already), by `<namespace>/<cluster>`.
  const instances = new Map<string, string[]>();
  if (clusters.length > 0)
    for (const pod of graph.of('Pod')) {
      const name = pod.metadata?.labels?.['cnpg.io/cluster'];
      if (!name || !graph.nodes.has(idOf(pod))) continue;
      const key = `${ns(pod)}/${name}`;
      const found = instances.get(key);
      if (found) found.push(idOf(pod));
      else instances.set(key, [idOf(pod)]);
    }
  for (const cluster of clusters) {
    const id = graph.addNode(cluster);
    for (const suffix of serviceSuffixes) {
      const name = `${nameOf(cluster)}-${suffix}`;
      const service = graph.find({ group: '', kind: 'Service', namespace: ns(cluster), name });
      if (service) graph.addEdge(id, graph.addNode(service), 'manages');
    }
    for (const pod of instances.get(`${ns(cluster)}/${nameOf(cluster)}`) ?? [])
      graph.addEdge(id, pod, 'manages');
  }
  const clusterOf = (kind: string, type: 'protects' | 'uses') => {
    for (const o of graph.ofKind(group, kind)) {
      const name = obj(o.spec?.cluster).name;
      if (typeof name === 'string')
        graph.reference(graph.addNode(o), { group, kind: 'Cluster', namespace: ns(o), name }, type);
    }
  };
  clusterOf('Backup', 'protects');
  clusterOf('ScheduledBackup', 'protects');
  clusterOf('Pooler', 'uses');
  for (const backup of graph.ofKind(group, 'Backup')) {
    const name = backup.metadata?.labels?.['cnpg.io/scheduled-backup'];
    const scheduled = name && graph.find({ group, kind: 'ScheduledBackup', namespace: ns(backup), name });
    if (scheduled) graph.addEdge(graph.addNode(scheduled), graph.addNode(backup), 'manages');
  }
}
