import { useMutation, useQueryClient } from '@tanstack/react-query';
import { post } from '../../api/client.ts';
import { Badge, type Tone } from '../../ui/Badge.tsx';
import { toastError } from '../../ui/toasts.tsx';
import type { SourceName, Sources } from './flows.ts';

export const sourceTitle: Record<SourceName, string> = {
  hubble: 'Hubble',
  istio: 'Istio',
  caretta: 'Caretta',
  beyla: 'Beyla',
};

type Status = Sources['sources'][number]['status'];
const statusWords: Record<Status, [string, Tone]> = {
  available: ['available', 'good'],
  needs_metrics_store: ['needs a metrics store', 'warn'],
  not_found: ['not found', 'muted'],
};

const control =
  'rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-800';

/**
 * The sources the agent detected, each with its state and why (on hover), and the choice of the one to read:
 * `auto` follows the detection order, a name keeps that source while the agent runs.
 */
export function SourcesBar({ sources, onChosen }: { sources: Sources; onChosen: () => void }) {
  const queryClient = useQueryClient();
  const choose = useMutation({
    mutationFn: (source: SourceName | 'auto') => post('/api/traffic/source', { body: { source } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['traffic', 'sources'] });
      onChosen();
    },
    onError: (error) => toastError('Choosing the traffic source failed', error),
  });
  return (
    <section aria-label="Traffic sources" className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
      <label className="flex items-center gap-1">
        Source
        <select
          className={control}
          value={sources.preferred ?? 'auto'}
          disabled={choose.isPending}
          onChange={(e) => {
            const chosen = sources.sources.find((s) => s.name === e.target.value)?.name;
            choose.mutate(chosen ?? 'auto');
          }}
        >
          <option value="auto">
            first found
            {sources.preferred === null && sources.active ? ` (${sourceTitle[sources.active]})` : ''}
          </option>
          {sources.sources.map((s) => (
            <option key={s.name} value={s.name}>
              {sourceTitle[s.name]} — {statusWords[s.status][0]}
            </option>
          ))}
        </select>
      </label>
      <ul aria-label="Detected sources" className="flex flex-wrap gap-1.5">
        {sources.sources.map((s) => {
          const [words, tone] = statusWords[s.status];
          return (
            <li key={s.name}>
              <Badge tone={tone} title={s.found ? `${s.message} (${s.found})` : s.message}>
                {sourceTitle[s.name]}: {s.name === sources.active ? 'active' : words}
              </Badge>
            </li>
          );
        })}
      </ul>
      {sources.cni && (
        <span className="text-xs text-slate-600 dark:text-slate-400">network plugin: {sources.cni}</span>
      )}
    </section>
  );
}
