import { hasOwnColumn, type StructuredLine } from '@binnacle/common';
import { Highlighted } from './Highlighted.tsx';
import type { LogLine } from './use-log-stream.ts';
import { structureOf } from './use-structured.ts';

/** The fields that have no column of their own, after the message, so nothing the line said is hidden. */
function rest(structure: StructuredLine, columns: string[]): string {
  return Object.entries(structure.fields)
    .filter(([key]) => !hasOwnColumn(key) && !columns.includes(key))
    .map(([key, value]) => `${key}=${value.includes(' ') ? JSON.stringify(value) : value}`)
    .join(' ');
}

/** The time of day of a stream timestamp (UTC, to the millisecond); the whole timestamp is its title. */
const timeOfDay = (timestamp: string) => timestamp.slice(11, 23);

const cell = 'px-2 py-0.5 align-top';

/** Each level's colour on the log's dark background, in either theme. */
const levelLook = {
  error: 'text-red-400',
  warn: 'text-amber-300',
  info: 'text-sky-300',
  debug: 'text-slate-400',
} as const;

/**
 * A structured log as a table: time, pod (a workload's), level, message and the chosen fields; a line that is
 * neither JSON nor logfmt fills the level, message and field columns as text.
 */
export function StructuredTable(props: {
  lines: LogLine[];
  columns: string[];
  timestamps: boolean;
  multiPod?: boolean;
  wrap: boolean;
  search: string;
}) {
  const { columns, timestamps, multiPod, search } = props;
  const text = props.wrap ? 'whitespace-pre-wrap break-all' : 'whitespace-pre';
  return (
    <table aria-label="Structured log" className="min-w-full border-separate border-spacing-0 text-left">
      <thead className="sticky top-0 bg-slate-900 text-slate-300">
        <tr>
          {timestamps && <th className={cell}>Time</th>}
          {multiPod && <th className={cell}>Pod</th>}
          <th className={cell}>Level</th>
          <th className={`${cell} ${columns.length ? '' : 'w-full'}`}>Message</th>
          {columns.map((key, index) => (
            // The last column takes the room left, so the fields stay beside the message.
            <th
              key={key}
              className={`${cell} font-mono font-normal text-teal-300 ${index === columns.length - 1 ? 'w-full' : ''}`}
            >
              {key}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.lines.map((line, index) => {
          const structure = structureOf(line);
          const extra = structure && rest(structure, columns);
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines are only appended; an index names a line.
            <tr key={index} className="hover:bg-slate-900">
              {timestamps && (
                <td className={`${cell} whitespace-nowrap text-slate-400`} title={line.timestamp}>
                  {line.timestamp ? timeOfDay(line.timestamp) : ''}
                </td>
              )}
              {multiPod && <td className={`${cell} whitespace-nowrap text-teal-300`}>{line.pod}</td>}
              {structure ? (
                <>
                  <td className={`${cell} font-semibold uppercase ${levelLook[structure.level ?? 'debug']}`}>
                    {structure.level ?? ''}
                  </td>
                  <td className={`${cell} ${text}`}>
                    <Highlighted text={structure.message ?? ''} needle={search} />
                    {extra && <span className="ml-3 text-slate-400">{extra}</span>}
                  </td>
                  {columns.map((key) => (
                    <td key={key} className={`${cell} whitespace-nowrap`}>
                      {structure.fields[key] ?? ''}
                    </td>
                  ))}
                </>
              ) : (
                <td colSpan={2 + columns.length} className={`${cell} ${text} text-slate-300`}>
                  <Highlighted text={line.line} needle={search} />
                </td>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
