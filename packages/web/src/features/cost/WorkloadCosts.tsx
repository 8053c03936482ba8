import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/client.ts';
import { mutedLook } from '../../ui/controls.tsx';
import { ObjectLink } from '../../ui/ObjectLink.tsx';
import { SortableTable } from '../../ui/SortableTable.tsx';
import { Empty, Loaded } from '../../ui/states.tsx';
import { StoreUnavailable } from '../metrics/StoreUnavailable.tsx';
import { figureColumns } from './columns.tsx';
import type { WorkloadCost } from './types.ts';

/** A namespace's workloads (pods rolled up to what people name), most expensive first. */
export function WorkloadCosts({ namespace, window }: { namespace: string; window: string }) {
  const query = useQuery({
    queryKey: ['cost', 'workloads', namespace, window],
    queryFn: ({ signal }) => get('/api/cost/workloads', { query: { namespace, window, limit: 500 }, signal }),
  });
  return (
    <Loaded query={query} what={`the workloads of ${namespace}`}>
      {(answer) =>
        !answer.available ? (
          <StoreUnavailable answer={answer} needs="cost" />
        ) : answer.workloads.length === 0 ? (
          <Empty>No workload in {namespace} has a cost in this window.</Empty>
        ) : (
          <>
            <SortableTable
              label={`Workloads in ${namespace}`}
              rows={answer.workloads}
              rowKey={(w) => `${w.kind}/${w.name}`}
              initial={{ column: 3, descending: true }}
              columns={[
                {
                  label: 'Workload',
                  sortBy: (w) => w.name,
                  cell: (w) => <ObjectLink kind={w.kind} namespace={w.namespace} name={w.name} />,
                },
                { label: 'Kind', sortBy: (w) => w.kind, cell: (w) => w.kind },
                ...figureColumns<WorkloadCost>(false),
              ]}
            />
            {answer.total > answer.workloads.length && (
              <p className={`mt-2 text-xs ${mutedLook}`}>
                The {answer.workloads.length} most expensive of {answer.total} workloads.
              </p>
            )}
          </>
        )
      }
    </Loaded>
  );
}
