import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError } from '../api/client.ts';

// The clock's words live apart from the components, so pure code (and its unit tests) can use them.
export { age, ago } from './time.ts';

/** What is happening while data is on its way, in words. */
export function Loading({ what }: { what: string }) {
  return (
    <p role="status" className="py-8 text-center text-sm text-slate-600 dark:text-slate-400">
      Loading {what}…
    </p>
  );
}

/** A failed request: the server's own message and code, never a blank page. */
export function ErrorMessage({
  error,
  what,
  verb = 'load',
}: {
  error: unknown;
  what: string;
  verb?: string;
}) {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof ApiError ? error.code : undefined;
  const denied = error instanceof ApiError && error.status === 403;
  return (
    <div
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      <p className="font-medium">
        {denied ? `You may not ${verb === 'load' ? 'see' : verb} ${what}` : `Could not ${verb} ${what}`}
      </p>
      <p className="mt-1">{message}</p>
      {code && <p className="mt-1 font-mono text-xs">code: {code}</p>}
    </div>
  );
}

export function Empty({ children }: { children: React.ReactNode }) {
  return <p className="py-6 text-center text-sm text-slate-600 dark:text-slate-400">{children}</p>;
}

export function Card({
  title,
  children,
  aside,
}: {
  title: string;
  children: React.ReactNode;
  aside?: React.ReactNode;
}) {
  return (
    <section
      aria-label={title}
      className="rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex items-center justify-between border-b border-slate-200 px-4 py-2.5 dark:border-slate-800">
        <h2 className="text-sm font-semibold">{title}</h2>
        {aside}
      </div>
      <div className="p-4">{children}</div>
    </section>
  );
}

/** A query's answer once it is there; until then what is loading, or why it failed, in words. */
export function Loaded<T>({
  query,
  what,
  children,
}: {
  query: UseQueryResult<T>;
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading what={what} />;
  if (query.isError) return <ErrorMessage error={query.error} what={what} />;
  return children(query.data);
}

/** Kinds the agent is still loading, named so that an answer without them is not read as the whole truth. */
export function StillLoading({ kinds }: { kinds: string[] }) {
  if (kinds.length === 0) return null;
  return (
    <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
      Still loading: {kinds.join(', ')}
    </p>
  );
}
