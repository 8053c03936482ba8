import type { StatusTone } from '@binnacle/common/tables';
import type { ReactNode } from 'react';

/** What a badge's colour says: fine, needs a look, failing, past saving, in motion, or nothing to say. */
export type Tone = 'good' | 'warn' | 'bad' | 'severe' | 'info' | 'muted';

export const badgeLook =
  'inline-flex items-center gap-1 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium';

/** The app's state colours, readable in both themes (the gitops, Helm, audit and certificate badges use them). */
export const toneLook: Record<Tone, string> = {
  good: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  warn: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  bad: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200',
  severe: 'bg-red-700 text-white dark:bg-red-600',
  info: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
  muted: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
};

/** The badge for a status the agent's tables tone (a pod's, a node's, a claim's…). */
export const statusBadgeTone: Record<StatusTone, Tone> = {
  ok: 'good',
  warning: 'warn',
  error: 'bad',
  progress: 'info',
  muted: 'muted',
};

/** A word in a coloured pill; the word carries the meaning, the colour helps the eye. */
export function Badge({ tone, title, children }: { tone: Tone; title?: string; children: ReactNode }) {
  return (
    <span className={`${badgeLook} ${toneLook[tone]}`} title={title}>
      {children}
    </span>
  );
}
