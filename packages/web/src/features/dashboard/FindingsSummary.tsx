import { Link, useSearch } from '@tanstack/react-router';
import type { Dashboard } from './DashboardPage.tsx';

type Tone = 'red' | 'amber' | 'slate';
const toneLook: Record<Tone, string> = {
  red: 'text-red-800 dark:text-red-300',
  amber: 'text-amber-800 dark:text-amber-300',
  slate: 'text-slate-700 dark:text-slate-300',
};

function Figures({ figures }: { figures: [string, number, Tone][] }) {
  return (
    <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1">
      {figures.map(([label, value, tone]) => (
        <div key={label}>
          <dt className="text-xs text-slate-600 dark:text-slate-400">{label}</dt>
          <dd className={`text-lg font-semibold tabular-nums ${value > 0 ? toneLook[tone] : ''}`}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const cardLook =
  'rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm dark:border-slate-800 dark:bg-slate-900';
const linkLook = 'text-sm text-teal-800 hover:underline dark:text-teal-300';

/**
 * The certificates' expiry and the best-practice audit in figures, each opening its page; an audit that cannot run
 * says why instead of vanishing.
 */
export function FindingsSummary({
  certificates,
  audit,
  auditError,
}: {
  certificates: Dashboard['certificates'];
  audit: Dashboard['audit'];
  auditError: Dashboard['auditError'];
}) {
  const { namespace } = useSearch({ strict: false });
  if (!certificates && !audit && !auditError) return null;
  return (
    <section aria-label="Findings" className="grid gap-4 md:grid-cols-2">
      {certificates && (
        <div className={cardLook}>
          <div className="flex items-baseline justify-between">
            <h2 className="font-medium">Certificates ({certificates.total})</h2>
            <Link to="/certificates" search={{ namespace }} className={linkLook}>
              Open certificates
            </Link>
          </div>
          <Figures
            figures={[
              ['Expired', certificates.expired, 'red'],
              ['Unreadable', certificates.invalid, 'red'],
              ['Within 7 days', certificates.critical, 'red'],
              ['Within 30 days', certificates.warning, 'amber'],
              ['Valid', certificates.ok, 'slate'],
            ]}
          />
        </div>
      )}
      {audit && (
        <div className={cardLook}>
          <div className="flex items-baseline justify-between">
            <h2 className="font-medium">Best-practice audit</h2>
            <Link to="/audit" search={{ namespace }} className={linkLook}>
              Open the audit
            </Link>
          </div>
          <Figures
            figures={[
              ['Danger findings', audit.danger, 'red'],
              ['Warnings', audit.warning, 'amber'],
              ['Objects passing', audit.passing, 'slate'],
            ]}
          />
        </div>
      )}
      {auditError && (
        <div className={cardLook}>
          <h2 className="font-medium">Best-practice audit</h2>
          <p className="mt-2 text-sm text-red-800 dark:text-red-300">
            The audit cannot run: {auditError.error}{' '}
            <span className="font-mono text-xs">({auditError.code})</span>
          </p>
        </div>
      )}
    </section>
  );
}
