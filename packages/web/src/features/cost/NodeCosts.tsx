import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/client.ts';
import { mutedLook } from '../../ui/controls.tsx';
import { ObjectLink } from '../../ui/ObjectLink.tsx';
import { SortableTable } from '../../ui/SortableTable.tsx';
import { Empty, Loaded } from '../../ui/states.tsx';
import { formatBytes, formatCores, formatMoney } from '../../ui/units.ts';
import { StoreUnavailable } from '../metrics/StoreUnavailable.tsx';
import { type NodeCost, perMonth } from './types.ts';

const unknown = <span className={mutedLook}>unknown</span>;

/** Each node's price: OpenCost's vCPU and GiB prices times its capacity, with its instance type and region. */
export function NodeCosts({ window }: { window: string }) {
  const query = useQuery({
    queryKey: ['cost', 'nodes', window],
    queryFn: ({ signal }) => get('/api/cost/nodes', { query: { window }, signal }),
  });
  return (
    <Loaded query={query} what="the nodes' cost">
      {(answer) =>
        !answer.available ? (
          <StoreUnavailable answer={answer} needs="cost" />
        ) : answer.nodes.length === 0 ? (
          <Empty>OpenCost prices no node.</Empty>
        ) : (
          <>
            <p className="mb-3 text-sm">
              {answer.nodes.length} {answer.nodes.length === 1 ? 'node costs' : 'nodes cost'}{' '}
              <strong className="tabular-nums">{formatMoney(answer.hourlyCost)}</strong> an hour, ≈{' '}
              {perMonth(answer.hourlyCost)} a month.
            </p>
            <SortableTable<NodeCost>
              label="Nodes"
              rows={answer.nodes}
              rowKey={(n) => n.name}
              initial={{ column: 7, descending: true }}
              columns={[
                {
                  label: 'Node',
                  sortBy: (n) => n.name,
                  cell: (n) => <ObjectLink kind="Node" name={n.name} />,
                },
                {
                  label: 'Instance type',
                  sortBy: (n) => n.instanceType ?? '',
                  cell: (n) => n.instanceType ?? unknown,
                },
                { label: 'Region', sortBy: (n) => n.region ?? '', cell: (n) => n.region ?? unknown },
                {
                  label: 'CPU',
                  right: true,
                  sortBy: (n) => n.cpuCores,
                  cell: (n) => formatCores(n.cpuCores),
                },
                {
                  label: 'Memory',
                  right: true,
                  sortBy: (n) => n.memoryBytes,
                  cell: (n) => formatBytes(n.memoryBytes),
                },
                {
                  label: 'Per vCPU-hour',
                  right: true,
                  sortBy: (n) => n.cpuHourlyCost,
                  cell: (n) => formatMoney(n.cpuHourlyCost),
                },
                {
                  label: 'Per GiB-hour',
                  right: true,
                  sortBy: (n) => n.ramHourlyCostPerGiB,
                  cell: (n) => formatMoney(n.ramHourlyCostPerGiB),
                },
                {
                  label: 'Per hour',
                  right: true,
                  sortBy: (n) => n.hourlyCost,
                  cell: (n) => formatMoney(n.hourlyCost),
                },
                {
                  label: 'Per month',
                  right: true,
                  sortBy: (n) => n.hourlyCost,
                  cell: (n) => perMonth(n.hourlyCost),
                },
              ]}
            />
          </>
        )
      }
    </Loaded>
  );
}
