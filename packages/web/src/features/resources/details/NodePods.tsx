import { podSummary } from '@binnacle/common';
import type { UseQueryResult } from '@tanstack/react-query';
import { mutedLook } from '../../../ui/controls.tsx';
import { ObjectLink } from '../../../ui/ObjectLink.tsx';
import { Card, Empty, ErrorMessage, Loading } from '../../../ui/states.tsx';
import { Table } from '../../../ui/Table.tsx';
import { formatBytes, formatCores } from '../../../ui/units.ts';
import { ageOf, type KubeObject } from '../objects.ts';
import { podRequest } from './node-resources.ts';

/** The pods bound to a node, as `kubectl describe node` lists them, with the STATUS `kubectl get pods` prints. */
export function NodePods({ pods }: { pods: UseQueryResult<{ items: unknown[]; total?: number }> }) {
  const items = (pods.data?.items ?? []) as KubeObject[];
  return (
    <Card
      title="Pods on this node"
      aside={pods.data && <span className={`text-xs ${mutedLook}`}>{items.length} pods</span>}
    >
      {pods.isPending ? (
        <Loading what="its pods" />
      ) : pods.isError ? (
        <ErrorMessage error={pods.error} what="its pods" />
      ) : items.length === 0 ? (
        <Empty>No pods are bound to this node.</Empty>
      ) : (
        <Table
          label="Pods on this node"
          columns={[
            'Pod',
            'Status',
            'Ready',
            { label: 'Restarts', right: true },
            { label: 'CPU requests', right: true },
            { label: 'Memory requests', right: true },
            { label: 'Age', right: true },
          ]}
        >
          {items.map((pod) => {
            const { ready, reason, restarts } = podSummary(pod);
            return (
              <tr key={pod.metadata?.uid ?? `${pod.metadata?.namespace}/${pod.metadata?.name}`}>
                <td className="py-1 pr-4">
                  <ObjectLink
                    kind="Pod"
                    namespace={pod.metadata?.namespace}
                    name={pod.metadata?.name ?? ''}
                  />
                </td>
                <td className="py-1 pr-4">{reason}</td>
                <td className="py-1 pr-4 tabular-nums">{ready}</td>
                <td className="py-1 pr-4 text-right tabular-nums">{restarts}</td>
                <td className="py-1 pr-4 text-right tabular-nums">{formatCores(podRequest(pod, 'cpu'))}</td>
                <td className="py-1 pr-4 text-right tabular-nums">
                  {formatBytes(podRequest(pod, 'memory'))}
                </td>
                <td className="py-1 text-right tabular-nums">{ageOf(pod)}</td>
              </tr>
            );
          })}
        </Table>
      )}
    </Card>
  );
}
