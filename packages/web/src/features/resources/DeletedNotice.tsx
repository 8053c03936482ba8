import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { get } from '../../api/client.ts';
import { linkLook } from '../../ui/controls.tsx';
import { ago } from '../../ui/states.tsx';

/**
 * Says that the object is gone: when the timeline recorded its deletion (or, if it holds none, since when the
 * page has missed it), with a link to that change; `lastState` says the page below shows the object as last seen.
 */
export function DeletedNotice(props: {
  kind: string;
  namespace?: string;
  name: string;
  /** When the page first found it missing. */
  missedSince: number;
  lastState: boolean;
}) {
  const { kind, namespace, name } = props;
  const changes = useQuery({
    queryKey: ['changes', 'deletion', namespace, kind, name],
    queryFn: ({ signal }) =>
      get('/api/changes', { query: { namespace, kind, name, preset: 'all', limit: 50 }, signal }),
    // The page may notice the object gone before the timeline has recorded its deletion.
    refetchInterval: (query) =>
      query.state.data?.events.some((e) => e.eventType === 'delete') ? false : 5_000,
  });
  const deletion = changes.data?.events.find((e) => e.eventType === 'delete');
  // A page opened on a name that never existed (or whose deletion the timeline no longer holds) is only not found.
  if (!props.lastState && !deletion) return null;
  const when = deletion?.timestamp ?? new Date(props.missedSince).toISOString();
  return (
    <div
      role="status"
      className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="font-semibold">
        {kind} {namespace ? `${namespace}/` : ''}
        {name} was deleted{' '}
        <time dateTime={when} title={when}>
          {deletion ? ago(when) : `(missing since ${ago(when)})`}
        </time>
        .
      </p>
      <p className="mt-1">
        {props.lastState ? 'Below is its last state, as this page last read it (read-only). ' : ''}
        <Link
          to="/timeline"
          search={{ namespace, kind, name, type: 'changes' }}
          className={`underline ${linkLook}`}
        >
          {deletion ? 'See the deletion on the timeline' : 'See its changes on the timeline'}
        </Link>
        {deletion?.actor && <> (by {deletion.actor.user})</>}
      </p>
    </div>
  );
}
