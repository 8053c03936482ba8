import { hasRightsizing } from './kinds.ts';
import { MetricsCard } from './MetricsCard.tsx';
import { RightsizingCard } from './RightsizingCard.tsx';

/** An object page's metrics: its charts, and for a workload the rightsizing of its containers. */
export function ResourceMetrics({
  kind,
  namespace,
  name,
}: {
  kind: string;
  namespace?: string;
  name: string;
}) {
  return (
    <>
      <MetricsCard kind={kind} namespace={namespace} name={name} />
      {namespace && hasRightsizing(kind, namespace) && (
        <RightsizingCard kind={kind} namespace={namespace} name={name} />
      )}
    </>
  );
}
