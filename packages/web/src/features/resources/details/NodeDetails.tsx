import type { KubeObject } from '@binnacle/common';
import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { get } from '../../../api/client.ts';
import { Badge } from '../../../ui/Badge.tsx';
import { mutedLook } from '../../../ui/controls.tsx';
import { Card } from '../../../ui/states.tsx';
import { Table } from '../../../ui/Table.tsx';
import { formatBytes, formatCores } from '../../../ui/units.ts';
import { Conditions } from './Conditions.tsx';
import type { Condition } from './format.ts';
import { NodePods } from './NodePods.tsx';
import { type NodeResource, nodeFigures, nodeRoles } from './node-resources.ts';
import type { KindDetailsProps } from './registry.ts';

interface NodeStatus {
  conditions?: Condition[];
  addresses?: { type: string; address: string }[];
  nodeInfo?: {
    kubeletVersion?: string;
    containerRuntimeVersion?: string;
    osImage?: string;
    kernelVersion?: string;
    architecture?: string;
    operatingSystem?: string;
  };
}
interface Taint {
  key: string;
  value?: string;
  effect: string;
}

/** Labels a person looks for first: where the node is and what it is. */
const notedLabels = [
  ['topology.kubernetes.io/region', 'Region'],
  ['topology.kubernetes.io/zone', 'Zone'],
  ['node.kubernetes.io/instance-type', 'Instance type'],
  ['kubernetes.io/arch', 'Architecture'],
  ['kubernetes.io/os', 'OS'],
] as const;

const format = (resource: NodeResource, value: number | undefined) =>
  value === undefined
    ? '—'
    : resource === 'cpu'
      ? formatCores(value)
      : resource === 'pods'
        ? String(Math.round(value))
        : formatBytes(value);

/** A share of allocatable, as `kubectl describe node` prints it beside requests. */
const share = (value: number | undefined, of: number | undefined) =>
  value === undefined || !of ? '' : ` (${Math.round((value / of) * 100)}%)`;

/** A condition of a node is trouble when Ready is not True, or any pressure (or NetworkUnavailable) is not False. */
const badCondition = (c: Condition) => (c.type === 'Ready' ? c.status !== 'True' : c.status !== 'False');

/** What the node uses now, from metrics-server (as the caller): undefined when it has no figures. */
function useNodeUsage(name: string) {
  const usage = useQuery({
    queryKey: ['metrics', 'node', name],
    queryFn: ({ signal }) => get('/api/metrics/nodes/{name}', { params: { name }, signal }),
    refetchInterval: 15_000,
  });
  const data = usage.data?.available ? usage.data : undefined;
  return {
    answer: usage,
    used: (resource: NodeResource) =>
      data === undefined
        ? undefined
        : resource === 'cpu'
          ? data.cpuMillicores / 1000
          : resource === 'memory'
            ? data.memoryBytes
            : undefined,
  };
}

function Capacity({ node, pods, name }: { node: KubeObject; pods: KubeObject[] | undefined; name: string }) {
  const usage = useNodeUsage(name);
  const figures = nodeFigures(node, pods ?? []);
  const unavailable = usage.answer.data?.available === false ? usage.answer.data.diagnosis : undefined;
  return (
    <>
      <Table
        label="Capacity"
        columns={[
          'Resource',
          { label: 'Capacity', right: true },
          { label: 'Allocatable', right: true },
          { label: 'Requested', right: true },
          { label: 'Used', right: true },
        ]}
      >
        {figures.map((f) => {
          // Pods in use are the pods it holds; metrics-server measures only CPU and memory.
          const used = f.resource === 'pods' ? (pods ? f.requested : undefined) : usage.used(f.resource);
          return (
            <tr key={f.resource}>
              <th scope="row" className="py-1 pr-4 text-left font-medium">
                {f.resource}
              </th>
              <td className="py-1 pr-4 text-right tabular-nums">{format(f.resource, f.capacity)}</td>
              <td className="py-1 pr-4 text-right tabular-nums">{format(f.resource, f.allocatable)}</td>
              <td className="py-1 pr-4 text-right tabular-nums">
                {pods ? `${format(f.resource, f.requested)}${share(f.requested, f.allocatable)}` : '…'}
              </td>
              <td className="py-1 text-right tabular-nums">
                {used === undefined ? '—' : `${format(f.resource, used)}${share(used, f.allocatable)}`}
              </td>
            </tr>
          );
        })}
      </Table>
      <p className={`mt-2 text-xs ${mutedLook}`}>
        Requested: what the pods that have not finished ask for (as the scheduler counts it); used:
        metrics-server now for CPU and memory, the pods that have not finished for pods.
        {unavailable && ` metrics-server has no figures: ${unavailable}`}
      </p>
    </>
  );
}

/**
 * A node's page, as `kubectl describe node` tells it: whether it takes pods, what it is and where, what it has
 * against what its pods asked for and use, its conditions and taints, then its pods.
 */
export function NodeDetails({ resource, name }: KindDetailsProps) {
  const status = (resource.status ?? {}) as NodeStatus;
  const spec = (resource.spec ?? {}) as { unschedulable?: boolean; taints?: Taint[]; podCIDR?: string };
  const ready = (status.conditions ?? []).find((c) => c.type === 'Ready');
  const roles = nodeRoles(resource);
  const labels = resource.metadata?.labels ?? {};
  const pods = useQuery({
    queryKey: ['node-pods', name],
    queryFn: ({ signal }) =>
      get('/api/resources/{kind}', {
        params: { kind: 'pods' },
        query: { fieldSelector: `spec.nodeName=${name}`, limit: 10_000 },
        signal,
      }),
    refetchInterval: 10_000,
  });
  const podItems = pods.data?.items as KubeObject[] | undefined;
  const info = status.nodeInfo ?? {};
  const row = (label: string, value: React.ReactNode) => (
    <>
      <dt className={mutedLook}>{label}</dt>
      <dd className="min-w-0 break-words">{value}</dd>
    </>
  );
  return (
    <>
      <Card title="Node status">
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone={ready?.status === 'True' ? 'good' : 'bad'}>
            {ready?.status === 'True' ? 'Ready' : ready?.status === 'Unknown' ? 'Unknown' : 'NotReady'}
          </Badge>
          {spec.unschedulable && <Badge tone="warn">SchedulingDisabled</Badge>}
          {ready && ready.status !== 'True' && ready.message && (
            <span className="text-sm">{ready.message}</span>
          )}
        </div>
        <div className="mt-4 grid gap-6 lg:grid-cols-2">
          <dl className="grid grid-cols-[9rem_1fr] content-start gap-x-4 gap-y-1.5 text-sm">
            {row('Roles', roles.length > 0 ? roles.join(', ') : 'none')}
            {row(
              'Addresses',
              <span className="flex flex-wrap gap-x-4">
                {(status.addresses ?? []).map((a) => (
                  <span key={`${a.type}/${a.address}`}>
                    <span className={`text-xs ${mutedLook}`}>{a.type}</span>{' '}
                    <span className="font-mono text-xs">{a.address}</span>
                  </span>
                ))}
              </span>,
            )}
            {notedLabels
              .filter(([key]) => labels[key])
              .map(([key, label]) => (
                <Fragment key={key}>{row(label, labels[key])}</Fragment>
              ))}
            {row('Kubelet', info.kubeletVersion ?? 'unknown')}
            {row('Container runtime', info.containerRuntimeVersion ?? 'unknown')}
            {(info.osImage || info.kernelVersion) &&
              row('OS image, kernel', [info.osImage, info.kernelVersion].filter(Boolean).join(', '))}
            {spec.podCIDR && row('Pod CIDR', <span className="font-mono text-xs">{spec.podCIDR}</span>)}
            {row(
              'Taints',
              (spec.taints ?? []).length === 0 ? (
                'none'
              ) : (
                <ul className="flex flex-col gap-0.5">
                  {(spec.taints ?? []).map((t) => (
                    <li key={`${t.key}:${t.effect}`} className="font-mono text-xs">
                      {t.key}
                      {t.value ? `=${t.value}` : ''}:{t.effect}
                    </li>
                  ))}
                </ul>
              ),
            )}
          </dl>
          <div>
            <h3 className="mb-2 text-sm font-medium">Capacity and use</h3>
            <Capacity node={resource} pods={podItems} name={name} />
          </div>
        </div>
        <h3 className="mt-4 mb-2 text-sm font-medium">Conditions</h3>
        <Conditions conditions={status.conditions ?? []} bad={badCondition} />
      </Card>
      <NodePods pods={pods} />
    </>
  );
}
