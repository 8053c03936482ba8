import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { ApiError } from '../../api/errors.ts';
import { linkLook } from '../../ui/controls.tsx';
import { rowButtonLook } from '../../ui/forms.tsx';
import { Card, Empty, ErrorMessage, Loading } from '../../ui/states.tsx';
import { type ColumnHeading, Table } from '../../ui/Table.tsx';
import { HubLink } from '../shell/HubLink.tsx';
import { ClusterStatusStrip } from './ClusterStatusStrip.tsx';
import type { FleetAnswer } from './fleet-query.ts';

/** Seconds left until `until`, ticking once a second while any are left. */
function useSecondsLeft(until: number): number {
  const [now, setNow] = useState(Date.now);
  const left = Math.max(0, Math.ceil((until - now) / 1000));
  useEffect(() => {
    if (left === 0) return;
    const timer = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return left;
}

/**
 * The hub's 429: how long until it takes another fleet call (its Retry-After, counted down), then a button to ask
 * again. Never a retry by itself: each retry would count against the same limit.
 */
function RateLimited({ error, failedAt, retry }: { error: ApiError; failedAt: number; retry: () => void }) {
  const left = useSecondsLeft(failedAt + (error.retryAfterSeconds ?? 60) * 1000);
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="mr-auto">
        <span className="font-medium">
          {left > 0 ? `Rate limited, retry in ${left} s.` : 'Rate limited.'}
        </span>{' '}
        {/* The hub's own message names a wait that does not count down: this one is said in our words. */}
        The hub takes a limited number of fleet calls a minute from each person (these pages and the
        organization's MCP together); asking again before then would count too.
      </p>
      <button
        type="button"
        className={`${rowButtonLook} disabled:cursor-not-allowed disabled:opacity-50`}
        disabled={left > 0}
        onClick={retry}
      >
        Retry now
      </button>
    </div>
  );
}

/**
 * A fleet view's answer: which clusters answered (always, above the rows), then the rows in a table, or a sentence
 * that says why there are none — no cluster at all, none that answered, or nothing found in those that did.
 */
export function FleetResult<A extends FleetAnswer>(props: {
  query: UseQueryResult<A>;
  what: string;
  /** What a row is, one and many: the card's title counts them (`1 problem`, `3 problems`). */
  noun: [string, string];
  columns: ColumnHeading[];
  /** Why an answer from every cluster has no rows (`Nothing is failing`). */
  empty: ReactNode;
  children: (answer: A) => ReactNode;
}) {
  const { query, what } = props;
  if (query.isPending) return <Loading what={what} />;
  if (query.isError) {
    const error = query.error;
    if (error instanceof ApiError && error.status === 429)
      return <RateLimited error={error} failedAt={query.errorUpdatedAt} retry={() => void query.refetch()} />;
    return <ErrorMessage error={error} what={what} />;
  }
  const answer = query.data;
  const answered = answer.clusters.filter((c) => c.status === 'ok').length;
  const title = `${answer.total} ${props.noun[answer.total === 1 ? 0 : 1]}`;
  const from = `from ${answered} of ${answer.clusters.length} ${answer.clusters.length === 1 ? 'cluster' : 'clusters'}`;
  return (
    <div className="flex flex-col gap-3">
      <ClusterStatusStrip answer={answer} />
      <Card title={title} aside={<span className="text-xs text-slate-600 dark:text-slate-400">{from}</span>}>
        {answer.clusters.length === 0 ? (
          <Empty>
            This organization has no cluster yet:{' '}
            <HubLink to="/" className={`${linkLook} underline`}>
              register one
            </HubLink>{' '}
            and its rows show here.
          </Empty>
        ) : answered === 0 ? (
          <Empty>No cluster answered, so there is nothing to show: the reasons are listed above.</Empty>
        ) : answer.items.length === 0 ? (
          <Empty>{props.empty}</Empty>
        ) : (
          <>
            <Table columns={props.columns}>{props.children(answer)}</Table>
            {answer.total > answer.items.length && (
              <p className="mt-3 text-xs text-slate-600 dark:text-slate-400">
                Showing the first {answer.items.length} of {answer.total}.
              </p>
            )}
          </>
        )}
      </Card>
    </div>
  );
}
