import { Card, Empty } from '../../../ui/states.tsx';
import { Table } from '../../../ui/Table.tsx';
import type { Condition } from './format.ts';
import { ConditionsTable, Facts, KindLink, Moment, SubHeading } from './parts.tsx';
import type { KindDetailsProps } from './registry.ts';
import { hpaMetrics } from './words.ts';

/** An HPA: what it scales and within which bounds, each metric against its target, and why it (cannot) scale. */
export function AutoscalerDetails({ resource, namespace }: KindDetailsProps) {
  const spec = resource.spec ?? {};
  const status = resource.status ?? {};
  const target = spec.scaleTargetRef as { kind: string; name: string } | undefined;
  const metrics = hpaMetrics(spec.metrics, status.currentMetrics);
  return (
    <Card title="Autoscaling">
      <Facts
        label="Autoscaling facts"
        facts={[
          [
            'Scales',
            target && <KindLink key="t" kind={target.kind} namespace={namespace} name={target.name} />,
          ],
          ['Bounds', `${String(spec.minReplicas ?? 1)} to ${String(spec.maxReplicas)} replicas`],
          [
            'Replicas',
            `${String(status.currentReplicas ?? 0)} now, ${String(status.desiredReplicas ?? 0)} desired`,
          ],
          ['Last scaled', <Moment key="l" at={status.lastScaleTime as string | undefined} />],
        ]}
      />
      <SubHeading>Metrics</SubHeading>
      {metrics.length === 0 ? (
        <Empty>No metrics: it scales on CPU at 80% by default.</Empty>
      ) : (
        <Table label="Metrics" columns={['Metric', 'Current', 'Target']}>
          {metrics.map((m) => (
            <tr key={m.metric}>
              <td className="py-1.5 pr-4 font-medium">{m.metric}</td>
              <td className="py-1.5 pr-4 tabular-nums">{m.current}</td>
              <td className="py-1.5 tabular-nums">{m.target}</td>
            </tr>
          ))}
        </Table>
      )}
      <SubHeading>Conditions</SubHeading>
      <ConditionsTable conditions={status.conditions as Condition[] | undefined} />
    </Card>
  );
}
