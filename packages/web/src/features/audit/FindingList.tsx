import { Badge } from '../../ui/Badge.tsx';
import { mutedLook } from '../../ui/controls.tsx';
import { CheckFacts } from './CheckFacts.tsx';
import { type AuditReport, type Finding, severityTone, severityWord } from './types.ts';

/** One object's findings, each with its check's title, severity and message, and what the catalogue says. */
export function FindingList({ findings, checks }: { findings: Finding[]; checks: AuditReport['checks'] }) {
  return (
    <ul className="flex flex-col gap-2">
      {findings.map((f) => {
        const check = checks[f.checkId];
        return (
          <li
            key={`${f.checkId}/${f.container ?? ''}/${f.message}`}
            className="rounded-md border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900"
          >
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <Badge tone={severityTone[f.severity]}>{severityWord[f.severity]}</Badge>
              <h3 className="text-sm font-semibold">{check?.title ?? f.checkId}</h3>
              <span className={`text-xs ${mutedLook}`}>
                {f.category} · <span className="font-mono">{f.checkId}</span>
                {f.container && ` · container ${f.container}`}
              </span>
            </div>
            <p className="mt-1 text-sm">{f.message}</p>
            {check && <CheckFacts check={check} />}
          </li>
        );
      })}
    </ul>
  );
}
