import type { KubeObject } from '@binnacle/common';
import type { UseQueryResult } from '@tanstack/react-query';
import { mutedLook } from '../../../ui/controls.tsx';
import { Card, Empty, ErrorMessage, Loading } from '../../../ui/states.tsx';
import { PodsTable } from './parts.tsx';

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
        <PodsTable pods={items} label="Pods on this node" requests />
      )}
    </Card>
  );
}
