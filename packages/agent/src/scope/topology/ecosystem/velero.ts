import type { GraphBuilder } from '../graph-builder.ts';
import { ns, obj } from '../node-data.ts';

const group = 'velero.io';

/**
 * A Schedule manages its Backups (label `velero.io/schedule-name`); a Restore uses its Backup (flagged when
 * missing); Backups and Schedules use their BackupStorageLocation (flagged when missing).
 */
export function addVelero(graph: GraphBuilder): void {
  const location = (id: string, namespace: string | undefined, name: unknown) => {
    if (typeof name === 'string' && name !== '')
      graph.reference(id, { group, kind: 'BackupStorageLocation', namespace, name }, 'uses');
  };
  for (const backup of graph.ofKind(group, 'Backup')) {
    const id = graph.addNode(backup);
    const schedule = backup.metadata?.labels?.['velero.io/schedule-name'];
    const found = schedule && graph.find({ group, kind: 'Schedule', namespace: ns(backup), name: schedule });
    if (found) graph.addEdge(graph.addNode(found), id, 'manages');
    location(id, ns(backup), backup.spec?.storageLocation);
  }
  for (const schedule of graph.ofKind(group, 'Schedule'))
    location(graph.addNode(schedule), ns(schedule), obj(schedule.spec?.template).storageLocation);
  for (const restore of graph.ofKind(group, 'Restore')) {
    const name = restore.spec?.backupName;
    if (typeof name === 'string' && name !== '')
      graph.reference(
        graph.addNode(restore),
        { group, kind: 'Backup', namespace: ns(restore), name },
        'uses',
      );
  }
}
