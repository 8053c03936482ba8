import type { Column } from '../../ui/VirtualTable.tsx';
import { ageOf, type KubeObject } from './objects.ts';

type Obj = Record<string, unknown>;
const list = (value: unknown) => (Array.isArray(value) ? (value as Obj[]) : []);
const num = (value: unknown) => (typeof value === 'number' ? value : 0);
const condition = (o: KubeObject, type: string) =>
  list(o.status?.conditions).find((c) => c.type === type)?.status;

function podStatus(o: KubeObject): string {
  if (o.metadata && 'deletionTimestamp' in o.metadata) return 'Terminating';
  for (const c of list(o.status?.containerStatuses)) {
    const waiting = (c.state as Obj | undefined)?.waiting as Obj | undefined;
    if (waiting?.reason) return String(waiting.reason);
  }
  return String(o.status?.phase ?? 'Unknown');
}

const podColumns: Column<KubeObject>[] = [
  { header: 'Status', width: 'w-36', cell: podStatus },
  {
    header: 'Ready',
    width: 'w-20',
    cell: (o) => {
      const statuses = list(o.status?.containerStatuses);
      return `${statuses.filter((c) => c.ready).length}/${list(o.spec?.containers).length}`;
    },
  },
  {
    header: 'Restarts',
    width: 'w-20',
    right: true,
    cell: (o) => list(o.status?.containerStatuses).reduce((sum, c) => sum + num(c.restartCount), 0),
  },
  { header: 'Node', width: 'w-36', cell: (o) => String(o.spec?.nodeName ?? '—') },
];

const replicas = (ready: string, want: (o: KubeObject) => number): Column<KubeObject> => ({
  header: 'Ready',
  width: 'w-24',
  cell: (o) => `${num(o.status?.[ready])}/${want(o)}`,
});

/** The columns kubectl get shows per kind, after Name and Namespace; unknown kinds get Age only. */
export const columnsByKind: Record<string, Column<KubeObject>[]> = {
  Pod: podColumns,
  Deployment: [
    replicas('readyReplicas', (o) => num(o.spec?.replicas)),
    { header: 'Up-to-date', width: 'w-24', right: true, cell: (o) => num(o.status?.updatedReplicas) },
    { header: 'Available', width: 'w-24', right: true, cell: (o) => num(o.status?.availableReplicas) },
  ],
  StatefulSet: [replicas('readyReplicas', (o) => num(o.spec?.replicas))],
  ReplicaSet: [replicas('readyReplicas', (o) => num(o.spec?.replicas))],
  DaemonSet: [replicas('numberReady', (o) => num(o.status?.desiredNumberScheduled))],
  Job: [
    {
      header: 'Status',
      width: 'w-28',
      cell: (o) =>
        condition(o, 'Complete') === 'True'
          ? 'Complete'
          : condition(o, 'Failed') === 'True'
            ? 'Failed'
            : 'Running',
    },
  ],
  CronJob: [
    { header: 'Schedule', width: 'w-32', cell: (o) => String(o.spec?.schedule ?? '') },
    { header: 'Suspended', width: 'w-24', cell: (o) => (o.spec?.suspend ? 'yes' : 'no') },
  ],
  Service: [
    { header: 'Type', width: 'w-28', cell: (o) => String(o.spec?.type ?? 'ClusterIP') },
    { header: 'Cluster IP', width: 'w-32', cell: (o) => String(o.spec?.clusterIP ?? '—') },
    {
      header: 'Ports',
      width: 'w-40',
      cell: (o) =>
        list(o.spec?.ports)
          .map((p) => `${p.port}/${p.protocol ?? 'TCP'}`)
          .join(', '),
    },
  ],
  Node: [
    {
      header: 'Status',
      width: 'w-40',
      cell: (o) =>
        `${condition(o, 'Ready') === 'True' ? 'Ready' : 'NotReady'}${o.spec?.unschedulable ? ',SchedulingDisabled' : ''}`,
    },
    {
      header: 'Version',
      width: 'w-28',
      cell: (o) => String((o.status?.nodeInfo as Obj | undefined)?.kubeletVersion ?? ''),
    },
  ],
  PersistentVolumeClaim: [
    { header: 'Status', width: 'w-24', cell: (o) => String(o.status?.phase ?? '') },
    { header: 'Volume', width: 'w-48', cell: (o) => String(o.spec?.volumeName ?? '—') },
  ],
};

export const ageColumn: Column<KubeObject> = {
  header: 'Age',
  width: 'w-20',
  right: true,
  cell: (o) => ageOf(o),
};
