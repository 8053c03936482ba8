import { Badge } from '../../ui/Badge.tsx';
import { mutedLook } from '../../ui/controls.tsx';
import { ObjectLink } from '../../ui/ObjectLink.tsx';
import { SortableTable, type SortColumn } from '../../ui/SortableTable.tsx';
import {
  byteSize,
  droppedFlows,
  percent,
  perSecond,
  portsOf,
  trafficColor,
  trafficState,
} from '../topology/traffic-edge.ts';
import type { Endpoint, FlowPair } from './flows.ts';

/** Kinds of ends that are no object with a page: an outside address, or a peer the caller may not see. */
const pageless = ['External', 'Hidden'];

/** `→ checkout` words for labels: the end's name, its namespace when it has one. */
export const endLabel = (end: Endpoint) => (end.namespace ? `${end.namespace}/${end.name}` : end.name);

function End({ end }: { end: Endpoint }) {
  return (
    <span className="flex flex-col">
      <span className={`text-[11px] ${mutedLook}`}>{end.kind}</span>
      {pageless.includes(end.kind) ? (
        <span className="font-mono text-xs" title={end.ip}>
          {end.name}
        </span>
      ) : (
        <ObjectLink kind={end.kind} namespace={end.namespace} name={end.name} />
      )}
    </span>
  );
}

function Verdict({ pair }: { pair: FlowPair }) {
  const dropped = droppedFlows(pair);
  if (Object.keys(pair.verdicts).length === 0) return <span className={mutedLook}>not reported</span>;
  if (dropped === 0) return <Badge tone="good">forwarded</Badge>;
  return (
    <Badge
      tone="bad"
      title={Object.entries(pair.verdicts)
        .map(([v, n]) => `${v}: ${n}`)
        .join(', ')}
    >
      {dropped} of {pair.flows} dropped
    </Badge>
  );
}

/**
 * The pairs as rows, sortable by any column of numbers or by either end; a row's button (or a click anywhere on
 * it) picks the pair out on the map. Busiest first: by bytes where the source counts them, else by flows.
 */
export function FlowsTable({
  pairs,
  selected,
  onSelect,
}: {
  pairs: FlowPair[];
  selected?: string;
  onSelect: (id: string) => void;
}) {
  // The source counts bytes (Hubble does not): the column would be empty otherwise.
  const withBytes = pairs.some((p) => p.bytes !== undefined);
  const columns: SortColumn<FlowPair>[] = [
    {
      label: 'Source',
      sortBy: (p) => endLabel(p.source),
      cell: (p) => (
        <span className="flex gap-2">
          {/* The edge's colour: which line on the map the row is. */}
          <span
            aria-hidden="true"
            className="w-1 shrink-0 rounded"
            style={{ background: trafficColor[trafficState(p)] }}
          />
          <End end={p.source} />
        </span>
      ),
    },
    {
      label: 'Destination',
      sortBy: (p) => endLabel(p.destination),
      cell: (p) => <End end={p.destination} />,
    },
    { label: 'Protocol / port', cell: (p) => <span className="font-mono text-xs">{portsOf(p) || '—'}</span> },
    { label: 'Flows', right: true, sortBy: (p) => p.flows, cell: (p) => p.flows },
    ...(withBytes
      ? [
          {
            label: 'Bytes',
            right: true,
            sortBy: (p: FlowPair) => p.bytes ?? -1,
            cell: (p: FlowPair) => (p.bytes === undefined ? '—' : byteSize(p.bytes)),
          },
        ]
      : []),
    { label: 'Connections', right: true, sortBy: (p) => p.connections, cell: (p) => p.connections },
    {
      label: 'Requests/s',
      right: true,
      sortBy: (p) => p.requestRate,
      cell: (p) => (p.requests > 0 ? perSecond(p.requestRate) : '—'),
    },
    {
      label: 'Error rate',
      right: true,
      sortBy: (p) => p.errorRate,
      cell: (p) =>
        p.requests === 0 ? (
          '—'
        ) : (
          <span className={p.errors > 0 ? 'font-medium text-amber-800 dark:text-amber-300' : ''}>
            {percent(p.errorRate)}
          </span>
        ),
    },
    { label: 'Verdict', sortBy: droppedFlows, cell: (p) => <Verdict pair={p} /> },
    {
      label: 'On the map',
      cell: (p) => {
        const chosen = p.id === selected;
        return (
          <button
            type="button"
            aria-pressed={chosen}
            aria-label={`Highlight ${endLabel(p.source)} → ${endLabel(p.destination)} on the map`}
            onClick={(event) => {
              event.stopPropagation();
              onSelect(p.id);
            }}
            className={`rounded border px-2 py-0.5 text-xs ${chosen ? 'border-teal-700 bg-teal-700 text-white' : 'border-slate-300 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800'}`}
          >
            Highlight
          </button>
        );
      },
    },
  ];
  return (
    <SortableTable
      label="Flows"
      columns={columns}
      rows={pairs}
      rowKey={(p) => p.id}
      initial={{ column: withBytes ? 4 : 3, descending: true }}
      rowProps={(p) => ({
        onClick: () => onSelect(p.id),
        className: `cursor-pointer align-top ${p.id === selected ? 'bg-teal-50 dark:bg-teal-950/50' : 'hover:bg-slate-50 dark:hover:bg-slate-800/50'}`,
      })}
    />
  );
}
