import { Link } from '@tanstack/react-router';
import { mutedLook } from '../../ui/controls.tsx';
import type { NetpolSearch } from './query.ts';
import { type CellState, cellState, cellText, type MatrixCell, type ReachabilityMatrix } from './types.ts';

const allowedLook = 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900/70 dark:text-emerald-50';
const deniedLook = 'bg-red-100 text-red-900 dark:bg-red-900/70 dark:text-red-50';

/** How each state looks in a cell: its colour, its mark, and the side that stopped it. */
export const cellLooks: Record<CellState, { look: string; mark: string; side?: string }> = {
  allowed: { look: allowedLook, mark: '✓' },
  ingress: { look: deniedLook, mark: '✕', side: 'in' },
  egress: { look: deniedLook, mark: '✕', side: 'out' },
  both: { look: deniedLook, mark: '✕', side: 'both' },
  ports: { look: deniedLook, mark: '✕', side: 'port' },
};

/** The most pods drawn (a grid of this many squared is still quick to draw and to read). */
export const drawnPods = 60;

const shortName = (pod: string) => pod.slice(pod.indexOf('/') + 1);

function Cell(props: { source: string; destination: string; cell: MatrixCell; search: NetpolSearch }) {
  const { source, destination, cell, search } = props;
  const { look, mark, side } = cellLooks[cellState(cell)];
  const text = cellText(shortName(source), shortName(destination), cell);
  return (
    <td className="p-0">
      <Link
        to="/network-policies"
        search={(prev) => ({
          namespace: prev.namespace,
          source: `pod/${source}`,
          destination: `pod/${destination}`,
          port: search.port,
          protocol: search.protocol,
        })}
        title={`${text}. Open this pair in the tester.`}
        className={`flex h-9 w-11 flex-col items-center justify-center rounded leading-none hover:ring-2 hover:ring-teal-600 focus-visible:outline-2 focus-visible:outline-teal-600 ${look} ${
          source === destination ? 'ring-1 ring-slate-400 ring-inset' : ''
        }`}
      >
        <span aria-hidden="true" className="text-sm font-semibold">
          {mark}
        </span>
        {side && (
          <span aria-hidden="true" className="text-[10px]">
            {side}
          </span>
        )}
        {/* The words, not the marks, name the cell to screen readers. */}
        <span className="sr-only">{text}</span>
      </Link>
    </td>
  );
}

/** Rows are sources, columns destinations; every cell says (and links to) the verdict of its pair. */
export function MatrixGrid({ matrix, search }: { matrix: ReachabilityMatrix; search: NetpolSearch }) {
  const pods = matrix.pods.slice(0, drawnPods);
  return (
    <section
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a wide grid scrolls; the keyboard must reach it.
      tabIndex={0}
      aria-label="Reachability matrix"
      className="max-h-[70vh] overflow-auto rounded-md focus-visible:outline-2 focus-visible:outline-teal-600"
    >
      <table className="border-separate border-spacing-1 text-xs">
        <caption className="sr-only">Pod-to-pod reachability: rows are sources, columns destinations</caption>
        <thead>
          <tr>
            <th
              scope="col"
              className={`sticky left-0 z-10 bg-white pr-2 text-right align-bottom font-medium dark:bg-slate-900 ${mutedLook}`}
            >
              from ↓ to →
            </th>
            {pods.map((pod) => (
              <th key={pod} scope="col" className="w-11 pb-1 align-bottom font-mono font-normal">
                <span
                  className="inline-block max-h-64 truncate [writing-mode:vertical-rl] rotate-180"
                  title={pod}
                >
                  {shortName(pod)}
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {pods.map((source, s) => (
            <tr key={source}>
              <th
                scope="row"
                className="sticky left-0 z-10 max-w-64 truncate bg-white pr-2 text-right font-mono font-normal dark:bg-slate-900"
                title={source}
              >
                {shortName(source)}
              </th>
              {pods.map((destination, d) => {
                const cell = matrix.cells[s]?.[d];
                return cell ? (
                  <Cell
                    key={destination}
                    source={source}
                    destination={destination}
                    cell={cell}
                    search={search}
                  />
                ) : (
                  <td key={destination} />
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
