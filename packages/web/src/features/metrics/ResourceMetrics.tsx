import type { KubeObject } from '@binnacle/common';
import { hasRightsizing } from './kinds.ts';
import { MetricsCard } from './MetricsCard.tsx';
import { RightsizingCard } from './RightsizingCard.tsx';

/** An object page's metrics: its charts, and for a workload the rightsizing of its containers. */
export function ResourceMetrics({
  kind,
  namespace,
  name,
  resource,
}: {
  kind: string;
  namespace?: string;
  name: string;
  /** The object shown: its requests and limits, or a node's allocatable, are drawn beside metrics-server's usage. */
  resource: KubeObject;
}) {
  return (
    <>
      <MetricsCard kind={kind} namespace={namespace} name={name} resource={resource} />
      {namespace && hasRightsizing(kind, namespace) && (
        <RightsizingCard kind={kind} namespace={namespace} name={name} />
      )}
    </>
  );
}
