import { useQuery } from '@tanstack/react-query';
import { post } from '../../api/client.ts';
import { mutedLook } from '../../ui/controls.tsx';
import { ExpandableRow } from '../../ui/ExpandableRow.tsx';
import { ObjectLink } from '../../ui/ObjectLink.tsx';
import { Empty, Loaded } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import { formatBytes, formatCores } from '../../ui/units.ts';
import { useOpenRows } from '../../ui/use-open-rows.ts';
import {
  type ContainerRecommendation,
  PolicyNote,
  RecommendationTable,
  savingText,
  type Verdict,
  VerdictBadge,
} from '../metrics/Recommendations.tsx';
import { StoreUnavailable } from '../metrics/StoreUnavailable.tsx';
import { windowWords } from '../metrics/windows.ts';

const add = (containers: ContainerRecommendation[], of: (c: ContainerRecommendation) => number | undefined) =>
  containers.reduce((sum, c) => sum + (of(c) ?? 0), 0);

/** The verdicts of a workload's containers, each named once (`over-provisioned`, then the others). */
const verdicts = (containers: ContainerRecommendation[]) =>
  [...new Set(containers.flatMap((c) => [c.cpu, c.memory]))] as Verdict[];

/**
 * Every workload in view with what rightsizing its containers would free, largest CPU saving first (the agent's
 * order); a row opens its containers' recommendations.
 */
export function RightsizingScan({ namespace, window }: { namespace?: string; window: string }) {
  const rows = useOpenRows();
  const query = useQuery({
    queryKey: ['metricsdb', 'rightsizing-scan', namespace, window],
    queryFn: () => post('/api/metricsdb/rightsizing/scan', { body: { namespace, window } }),
  });
  return (
    <Loaded query={query} what="the rightsizing scan">
      {(answer) =>
        !answer.available ? (
          <StoreUnavailable answer={answer} needs="metrics" />
        ) : answer.workloads.length === 0 ? (
          <Empty>No workload {namespace ? `in ${namespace} ` : ''}to size.</Empty>
        ) : (
          <div className="flex flex-col gap-3">
            <Table
              label="Workloads to rightsize"
              columns={[
                { label: 'Details', hidden: true },
                'Workload',
                'Kind',
                { label: 'Replicas', right: true },
                'Verdicts',
                { label: 'CPU saving', right: true },
                { label: 'Memory saving', right: true },
              ]}
            >
              {answer.workloads.map((w) => {
                const key = `${w.kind}/${w.namespace}/${w.name}`;
                return (
                  <ExpandableRow
                    key={key}
                    label={`recommendations for ${w.kind} ${w.namespace}/${w.name}`}
                    open={rows.isOpen(key)}
                    onToggle={() => rows.toggle(key)}
                    columns={7}
                    detail={() => (
                      <RecommendationTable
                        label={`Recommendations for ${w.kind} ${w.namespace}/${w.name}`}
                        containers={w.containers}
                      />
                    )}
                  >
                    <td className="py-1.5 pr-4">
                      <ObjectLink kind={w.kind} namespace={w.namespace} name={w.name} />
                    </td>
                    <td className="py-1.5 pr-4">{w.kind}</td>
                    <td className="py-1.5 pr-4 text-right tabular-nums">{w.replicas}</td>
                    <td className="py-1.5 pr-4">
                      <span className="flex flex-wrap gap-1">
                        {verdicts(w.containers).map((v) => (
                          <VerdictBadge key={v} verdict={v} />
                        ))}
                      </span>
                    </td>
                    <td className="py-1.5 pr-4 text-right tabular-nums">
                      {savingText(
                        add(w.containers, (c) => c.saving.cpuCores),
                        formatCores,
                      )}
                    </td>
                    <td className="py-1.5 text-right tabular-nums">
                      {savingText(
                        add(w.containers, (c) => c.saving.memoryBytes),
                        (n) => formatBytes(n),
                      )}
                    </td>
                  </ExpandableRow>
                );
              })}
            </Table>
            {answer.total !== undefined && answer.total > answer.workloads.length && (
              <p className={`text-xs ${mutedLook}`}>
                The {answer.workloads.length} workloads with the largest CPU saving of {answer.total}.
              </p>
            )}
            <PolicyNote policy={answer.policy} window={windowWords(answer.window)} />
          </div>
        )
      }
    </Loaded>
  );
}
