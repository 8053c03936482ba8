import type { Answer } from '../../api/client.ts';
import { mutedLook } from '../../ui/controls.tsx';

type Comparison = Answer<'/api/compare'>;
type Difference = Comparison['differences'][number];
type Side = Comparison['left'];
type FoldReason = NonNullable<Difference['folded']>;

/** The folded groups, in the order a person would open them, with what each holds. */
const foldedGroups: [FoldReason, string, string][] = [
  ['defaulted', 'Defaults', 'one side holds the value the API server fills in, the other lacks the field'],
  ['status', 'Status', 'what controllers observed, not what was asked for'],
  [
    'server',
    'Set by the server',
    'generated for each object: uid, resourceVersion, hashes, allocated addresses',
  ],
];

function Value({ value }: { value: unknown }) {
  if (value === undefined) return <span className={`italic ${mutedLook}`}>not set</span>;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return <code className="whitespace-pre-wrap break-all font-mono text-xs">{text}</code>;
}

function sideName(side: Side) {
  return `${side.cluster ? `${side.cluster.name} · ` : ''}${side.namespace ? `${side.namespace}/` : ''}${side.name}`;
}

function SideHeading({ label, side }: { label: string; side: Side }) {
  return (
    <div className="min-w-0 rounded-md border border-slate-200 px-3 py-2 dark:border-slate-800">
      <p className={`text-xs uppercase tracking-wide ${mutedLook}`}>{label}</p>
      <p className="truncate font-mono text-sm" title={sideName(side)}>
        {sideName(side)}
      </p>
      <p className={`text-xs ${mutedLook}`}>
        {side.at ? `as it was at ${new Date(side.at).toLocaleString('en-GB')}` : 'now'}
        {side.resourceVersion ? ` · resourceVersion ${side.resourceVersion}` : ''}
      </p>
    </div>
  );
}

function DifferenceTable({
  rows,
  caption,
  left,
  right,
}: {
  rows: Difference[];
  caption: string;
  left: string;
  right: string;
}) {
  return (
    <table className="w-full table-fixed text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead className={mutedLook}>
        <tr>
          <th scope="col" className="w-2/5 py-1 pr-4 font-medium">
            Field
          </th>
          <th scope="col" className="py-1 pr-4 pl-2 font-medium">
            {left}
          </th>
          <th scope="col" className="py-1 pl-2 font-medium">
            {right}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.path} className="border-t border-slate-100 align-top dark:border-slate-800">
            <th scope="row" className="break-all py-1.5 pr-4 font-mono text-xs font-normal leading-5">
              {row.path}
            </th>
            <td className="bg-red-50/60 py-1.5 pr-4 pl-2 leading-5 dark:bg-red-950/30">
              <Value value={row.left} />
            </td>
            <td className="bg-emerald-50/60 py-1.5 pl-2 leading-5 dark:bg-emerald-950/30">
              <Value value={row.right} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * A comparison as the agent or the hub answers it: both sides named, the differences that matter as a table, and
 * the folded ones (defaults, status, server-set) each behind a disclosure with its count.
 */
export function ComparisonView({ answer }: { answer: Comparison }) {
  const shown = answer.differences.filter((d) => !d.folded);
  const left = sideName(answer.left);
  const right = sideName(answer.right);
  const folded = foldedGroups.filter(([reason]) => answer.counts[reason] > 0);
  return (
    <div className="flex flex-col gap-3">
      <div className="grid grid-cols-2 gap-3">
        <SideHeading label={`Left · ${answer.kind}`} side={answer.left} />
        <SideHeading label={`Right · ${answer.kind}`} side={answer.right} />
      </div>
      <p role="status" className="text-sm">
        {answer.identical ? (
          <>Identical: all {answer.equal} fields hold the same value.</>
        ) : (
          <>
            <span className="font-semibold">
              {shown.length} {shown.length === 1 ? 'difference' : 'differences'}
            </span>
            <span className={mutedLook}>
              {folded.length > 0 &&
                ` · folded: ${folded.map(([reason, title]) => `${answer.counts[reason]} ${title.toLowerCase()}`).join(', ')}`}
              {` · ${answer.equal} fields equal`}
            </span>
          </>
        )}
      </p>
      {shown.length > 0 ? (
        <DifferenceTable rows={shown} caption="Differences" left={left} right={right} />
      ) : (
        !answer.identical && (
          <p className={`text-sm ${mutedLook}`}>
            Nothing anyone chose differs: only defaults, status or server-set fields (below).
          </p>
        )
      )}
      {folded.map(([reason, title, meaning]) => (
        <details key={reason} className="rounded-md border border-slate-200 dark:border-slate-800">
          <summary className="cursor-pointer px-3 py-2 text-sm">
            <span className="font-medium">
              {title}: {answer.counts[reason]}{' '}
              {answer.counts[reason] === 1 ? 'field differs' : 'fields differ'}
            </span>{' '}
            <span className={`text-xs ${mutedLook}`}>— {meaning}</span>
          </summary>
          <div className="px-3 pb-3">
            <DifferenceTable
              rows={answer.differences.filter((d) => d.folded === reason)}
              caption={title}
              left={left}
              right={right}
            />
          </div>
        </details>
      ))}
    </div>
  );
}
