import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { get } from '../../api/client.ts';
import { hiddenFromView } from '../shell/access.ts';
import { useCapabilities } from '../shell/use-capabilities.ts';

/** `plural` for the core group, `plural.group` otherwise: what the resources routes take as a kind. */
export const kindRef = (r: { name: string; group: string }) => (r.group ? `${r.name}.${r.group}` : r.name);

/**
 * Every kind the cluster serves with how many objects the agent holds of it, filterable by name; a kind the
 * caller's view leaves out shows a dash, not a count of 0. With `at` (time travel), the counts as they were
 * then, and links that keep the moment; kinds whose past is not kept are left out and counted below.
 */
export function KindList({ namespace, current, at }: { namespace?: string; current: string; at?: string }) {
  const [filter, setFilter] = useState('');
  const counts = useQuery({
    queryKey: ['resource-counts', namespace, at],
    queryFn: ({ signal }) => get('/api/resource-counts', { query: { namespace, at }, signal }),
    refetchInterval: at ? false : 15_000,
  });
  const access = useCapabilities({ namespace }).data;
  const kinds = (counts.data?.counts ?? [])
    .filter((k) => k.kind.toLowerCase().includes(filter.toLowerCase()))
    .sort((a, b) => Number(a.group !== '') - Number(b.group !== '') || a.kind.localeCompare(b.kind));
  // Projects reuse kind names (Velero's and CloudNativePG's Backup): a shared name shows its group beside it.
  const names = (counts.data?.counts ?? []).map((k) => k.kind);
  const shared = new Set(names.filter((name, index) => names.indexOf(name) !== index));
  return (
    <nav aria-label="Kinds" className="flex w-36 shrink-0 flex-col gap-2 xl:w-60">
      <label className="text-xs text-slate-600 dark:text-slate-400">
        Find a kind
        <input
          className="mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      </label>
      {counts.data && counts.data.loading.length > 0 && (
        <p role="status" className="text-xs text-amber-800 dark:text-amber-300">
          Loading {counts.data.loading.join(', ')}
        </p>
      )}
      <ul className="max-h-[70vh] overflow-auto text-sm">
        {kinds.map((k) => {
          const ref = kindRef(k);
          return (
            <li key={ref}>
              <Link
                to="/resources/$kind"
                params={{ kind: ref }}
                search={{ namespace, at }}
                className={`flex justify-between rounded px-2 py-1 hover:bg-slate-100 dark:hover:bg-slate-800 ${
                  ref === current
                    ? 'bg-teal-50 font-medium text-teal-900 dark:bg-teal-950 dark:text-teal-100'
                    : ''
                }`}
                title={k.group ? `${k.kind} (${k.group})` : k.kind}
              >
                <span className="truncate">
                  {k.kind}
                  {shared.has(k.kind) && ' '}
                  {shared.has(k.kind) && (
                    <span className="ml-1 text-xs text-slate-600 dark:text-slate-400">{k.group}</span>
                  )}
                </span>
                <span className="tabular-nums text-slate-600 dark:text-slate-400">
                  {access && hiddenFromView(access, { ...k, plural: k.name }) ? (
                    <span title="you may not list them">—</span>
                  ) : (
                    k.count
                  )}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
      {counts.data?.notKept && counts.data.notKept.length > 0 && (
        <p className="text-xs text-slate-600 dark:text-slate-400" title={counts.data.notKept.join(', ')}>
          {counts.data.notKept.length} kinds have no kept past then
        </p>
      )}
    </nav>
  );
}
