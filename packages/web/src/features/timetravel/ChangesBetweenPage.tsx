import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearch } from '@tanstack/react-router';
import { get } from '../../api/client.ts';
import { CountTiles } from '../../ui/CountTiles.tsx';
import { buttonLook, mutedLook } from '../../ui/controls.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Empty, ErrorMessage, Loading } from '../../ui/states.tsx';
import { age } from '../../ui/time.ts';
import { useSearchPatch } from '../../ui/use-search-patch.ts';
import { ChangeGroups } from './ChangeGroups.tsx';
import { fromLocal, localValue, momentText } from './moments.ts';

export interface ChangesBetweenSearch {
  /** RFC 3339; the last 15 minutes when absent. */
  from?: string;
  /** RFC 3339; now when absent. */
  to?: string;
}

const fieldLook =
  'mt-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100';

/** A moment field of the page: the viewer's local time to the second, committed as RFC 3339. */
function MomentField(props: { label: string; value?: string; onChange: (iso?: string) => void }) {
  return (
    <label className={`flex flex-col text-xs ${mutedLook}`}>
      {props.label}
      <input
        type="datetime-local"
        step={1}
        className={fieldLook}
        value={props.value ? localValue(Date.parse(props.value)) : ''}
        onChange={(event) => {
          const ms = fromLocal(event.target.value);
          props.onChange(Number.isNaN(ms) ? undefined : new Date(ms).toISOString());
        }}
      />
    </label>
  );
}

/**
 * What was created, deleted and modified in the cluster between two moments of the kept past, by kind and
 * namespace with each modified object's changed fields (docs/time-travel.md).
 */
export function ChangesBetweenPage() {
  const search = useSearch({ from: '/timeline/between' });
  const setSearch = useSearchPatch<Partial<ChangesBetweenSearch>>();
  const { namespace } = search;
  const between = useQuery({
    queryKey: ['changes-between', namespace, search.from, search.to],
    queryFn: ({ signal }) =>
      get('/api/changes/between', {
        query: { namespace, from: search.from ?? '15m', to: search.to },
        signal,
      }),
    // Another pair of moments keeps the last answer in view until its own arrives.
    placeholderData: keepPreviousData,
  });
  const answer = between.data;
  const span = answer && (Date.parse(answer.to) - Date.parse(answer.from)) / 1000;
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4">
      <PageHeading
        title="What changed"
        about={
          answer ? (
            <>
              From {momentText(answer.from)} to{' '}
              {search.to ? momentText(answer.to) : `now (${momentText(answer.to)})`}
              {span !== undefined && span >= 1 ? `, ${age(span)}` : ''}
              {namespace ? ` in namespace ${namespace}` : ' in every namespace in view'}
            </>
          ) : (
            'Between two moments of the kept past'
          )
        }
      >
        <MomentField
          label="From"
          value={search.from ?? answer?.from}
          onChange={(from) => setSearch({ from })}
        />
        <MomentField label="To" value={search.to ?? answer?.to} onChange={(to) => setSearch({ to })} />
        {answer && (
          <Link
            to="/topology"
            search={{ namespace, at: answer.from, replayFrom: answer.from, replayTo: answer.to }}
            className={buttonLook}
          >
            Replay on the topology
          </Link>
        )}
      </PageHeading>
      {between.isError ? (
        <ErrorMessage error={between.error} what="what changed" />
      ) : !answer ? (
        <Loading what="what changed" />
      ) : (
        <>
          <CountTiles
            label="Counts"
            tiles={[
              {
                id: 'created',
                label: 'Created',
                value: answer.counts.created,
                accent: 'border-l-emerald-500',
              },
              { id: 'deleted', label: 'Deleted', value: answer.counts.deleted, accent: 'border-l-red-500' },
              {
                id: 'modified',
                label: 'Modified',
                value: answer.counts.modified,
                accent: 'border-l-sky-500',
              },
            ]}
          />
          {answer.truncated && (
            <p role="note" className="text-sm">
              More objects changed than are listed: the first by kind, namespace and name are shown; the
              counts are whole.
            </p>
          )}
          {answer.notKept.length > 0 && (
            <p role="note" className={`text-sm ${mutedLook}`}>
              Not compared, their kept past starting after {momentText(answer.from)}:{' '}
              {answer.notKept.join(', ')}.
            </p>
          )}
          {answer.groups.length === 0 ? (
            <Empty>Nothing was created, deleted or modified between these moments.</Empty>
          ) : (
            <ChangeGroups between={answer} />
          )}
        </>
      )}
    </div>
  );
}
