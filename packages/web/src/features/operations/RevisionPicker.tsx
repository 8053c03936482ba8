import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/client.ts';
import { ErrorMessage, Loading } from '../../ui/states.tsx';

/** The rollout history, newest first: pick the revision to go back to (the one before the current by default). */
export function RevisionPicker({
  params,
  chosen,
  choose,
}: {
  params: { kind: string; namespace: string; name: string };
  chosen?: number;
  choose: (revision: number) => void;
}) {
  const history = useQuery({
    queryKey: ['revisions', params.kind, params.namespace, params.name],
    queryFn: ({ signal }) => get('/api/workloads/{kind}/{namespace}/{name}/revisions', { params, signal }),
  });
  if (history.isPending) return <Loading what="the revisions" />;
  if (history.isError) return <ErrorMessage error={history.error} what="the revisions" />;
  const earlier = history.data.items.filter((r) => !r.current);
  if (earlier.length === 0)
    return <p className="mt-3 text-sm">There is no earlier revision to go back to.</p>;
  const selected = chosen ?? earlier[0]?.revision;
  return (
    <fieldset className="mt-3 flex max-h-64 flex-col gap-1 overflow-auto">
      <legend className="mb-1 text-sm font-medium">Revision</legend>
      {history.data.items.map((r) => (
        <label key={r.revision} className="flex items-start gap-2 text-sm">
          <input
            type="radio"
            name="revision"
            className="mt-1"
            disabled={r.current}
            checked={!r.current && selected === r.revision}
            onChange={() => choose(r.revision)}
          />
          <span>
            <span className="font-medium">#{r.revision}</span>
            {r.current && <span className="text-slate-600 dark:text-slate-400"> (running now)</span>}{' '}
            <span className="font-mono text-xs">{r.images.join(', ')}</span>
            {r.changeCause && (
              <span className="block text-xs text-slate-600 dark:text-slate-400">{r.changeCause}</span>
            )}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
