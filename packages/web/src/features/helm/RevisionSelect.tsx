import { useId } from 'react';
import { controlLook } from '../../ui/forms.tsx';
import type { Revision } from './types.ts';

/** A revision of the release's history to pick, newest first, each with its chart version and status. */
export function RevisionSelect(props: {
  label: string;
  history: Revision[];
  value: number | undefined;
  onChange: (revision: number) => void;
  /** Revisions that cannot be picked here (the one running now, for a rollback). */
  disabled?: (revision: Revision) => boolean;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1 text-sm">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        className={controlLook}
        value={props.value ?? ''}
        onChange={(e) => props.onChange(Number(e.target.value))}
      >
        {props.history.map((r) => (
          <option key={r.revision} value={r.revision} disabled={props.disabled?.(r)}>
            #{r.revision} · {r.chart} {r.chartVersion} · {r.status}
          </option>
        ))}
      </select>
    </div>
  );
}
