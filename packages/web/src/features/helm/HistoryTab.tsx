import { rowButtonLook } from '../../ui/forms.tsx';
import { ago } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import { StatusBadge } from './Badges.tsx';
import type { Revision } from './types.ts';

const cell = 'py-2 pr-4 align-top';

/** Every revision, newest first; any but the newest can be rolled back to. */
export function HistoryTab({
  history,
  current,
  rollBackTo,
}: {
  history: Revision[];
  current: number;
  rollBackTo: (revision: number) => void;
}) {
  return (
    <Table columns={['Revision', 'Status', 'Chart', 'App version', 'Updated', 'Description', 'Actions']}>
      {history.map((r) => (
        <tr key={r.revision}>
          <td className={`${cell} font-medium tabular-nums`}>{r.revision}</td>
          <td className={cell}>
            <StatusBadge status={r.status} />
          </td>
          <td className={`${cell} whitespace-nowrap`}>
            {r.chart} {r.chartVersion}
          </td>
          <td className={cell}>{r.appVersion ?? '—'}</td>
          <td className={`${cell} whitespace-nowrap`} title={r.updated}>
            {ago(r.updated)}
          </td>
          <td className={`${cell} text-slate-700 dark:text-slate-300`}>{r.description ?? ''}</td>
          <td className="py-2 align-top">
            {r.revision === current ? (
              <span className="text-xs text-slate-600 dark:text-slate-400">current</span>
            ) : (
              <button
                type="button"
                className={`${rowButtonLook} whitespace-nowrap`}
                onClick={() => rollBackTo(r.revision)}
              >
                Roll back to this<span className="sr-only"> (revision {r.revision})</span>
              </button>
            )}
          </td>
        </tr>
      ))}
    </Table>
  );
}
