import { linkLook } from '../../ui/controls.tsx';
import { SortableTable } from '../../ui/SortableTable.tsx';
import { Empty } from '../../ui/states.tsx';
import { figureColumns } from './columns.tsx';
import type { NamespaceCost } from './types.ts';

/** Each namespace in view with its hourly cost, most expensive first; a name opens its workloads. */
export function NamespaceCosts(props: { namespaces: NamespaceCost[]; open: (namespace: string) => void }) {
  if (props.namespaces.length === 0) return <Empty>No namespace in view has pods with a cost.</Empty>;
  return (
    <SortableTable
      label="Namespaces"
      rows={props.namespaces}
      rowKey={(n) => n.name}
      initial={{ column: 2, descending: true }}
      columns={[
        {
          label: 'Namespace',
          sortBy: (n) => n.name,
          cell: (n) => (
            <button
              type="button"
              className={`font-mono text-xs ${linkLook}`}
              onClick={() => props.open(n.name)}
              title="Show its workloads"
            >
              {n.name}
            </button>
          ),
        },
        ...figureColumns<NamespaceCost>(true),
      ]}
    />
  );
}
