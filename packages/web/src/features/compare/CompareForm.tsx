import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { primaryLook } from '../../ui/controls.tsx';
import { controlLook } from '../../ui/forms.tsx';
import type { CompareSearch } from './search.ts';

/** A cluster a side can be in (through the hub). */
export interface ClusterChoice {
  id: string;
  name: string;
  connected: boolean;
}

/** At most this many names offered per side: a hint for typing, not a list to scroll. */
const choiceLimit = 500;

/** What reads a kind's list: the agent's own client, or one cluster's agent through the hub. */
type ListReader = (
  path: '/api/resources/{kind}',
  options: { params: { kind: string }; query: { summary: string; limit: number }; signal: AbortSignal },
) => Promise<{ items: { metadata?: { namespace?: unknown; name?: unknown } }[] }>;

/** The objects of a kind as `<namespace>/<name>` (`_` for cluster-scoped), for a side's suggestions. */
export async function objectRefs(read: ListReader, kind: string, signal: AbortSignal): Promise<string[]> {
  const list = await read('/api/resources/{kind}', {
    params: { kind },
    query: { summary: 'true', limit: choiceLimit },
    signal,
  });
  return list.items.map((o) => `${String(o.metadata?.namespace ?? '_')}/${String(o.metadata?.name ?? '')}`);
}

/** The objects of a kind a side may name, as `<namespace>/<name>` (in a cluster, through the hub). */
export type ObjectChoices = (
  kind: string,
  clusterId: string | undefined,
  signal: AbortSignal,
) => Promise<string[]>;

function SideFields({
  side,
  label,
  search,
  set,
  kind,
  clusters,
  choices,
}: {
  side: 'left' | 'right';
  label: string;
  search: CompareSearch;
  set: (next: CompareSearch) => void;
  kind: string;
  clusters?: ClusterChoice[];
  choices: ObjectChoices;
}) {
  const listId = useId();
  const cluster = search[`${side}Cluster`];
  const known = useQuery({
    queryKey: ['compare', 'choices', kind, cluster],
    queryFn: ({ signal }) => choices(kind, cluster, signal),
    enabled: kind !== '' && (!clusters || Boolean(cluster)),
    staleTime: 30_000,
  });
  return (
    <fieldset className="flex flex-wrap items-end gap-3 rounded-md border border-slate-200 px-3 pt-1 pb-3 dark:border-slate-800">
      <legend className="px-1 text-sm font-medium">{label}</legend>
      {clusters && (
        <label className="flex flex-col gap-1 text-sm">
          Cluster
          <select
            className={controlLook}
            value={cluster ?? ''}
            required
            onChange={(e) => set({ ...search, [`${side}Cluster`]: e.target.value })}
          >
            <option value="" disabled>
              pick a cluster
            </option>
            {clusters.map((c) => (
              <option key={c.id} value={c.id} disabled={!c.connected}>
                {c.name}
                {c.connected ? '' : ' (offline)'}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="flex flex-col gap-1 text-sm">
        Namespace/name
        <input
          className={`${controlLook} w-96 max-w-full font-mono`}
          value={search[side] ?? ''}
          placeholder="shop/checkout"
          list={listId}
          required
          pattern="^[^/\s]+/[^/\s]+$"
          title="namespace/name, or _/name for a cluster-scoped object"
          onChange={(e) => set({ ...search, [side]: e.target.value })}
        />
        <datalist id={listId}>
          {(known.data ?? []).map((ref) => (
            <option key={ref} value={ref} />
          ))}
        </datalist>
      </label>
      <label className="flex flex-col gap-1 text-sm">
        As of (optional)
        <input
          className={`${controlLook} w-44`}
          value={search[`${side}At`] ?? ''}
          placeholder="now, or 2h, or a time"
          onChange={(e) => set({ ...search, [`${side}At`]: e.target.value })}
        />
      </label>
    </fieldset>
  );
}

const sides = [
  ['left', 'Left'],
  ['right', 'Right'],
] as const;

/** What to compare: a kind, and each side's object (and cluster, through the hub). */
export function CompareForm({
  search,
  ask,
  clusters,
  choices,
}: {
  search: CompareSearch;
  ask: (next: CompareSearch) => void;
  clusters?: ClusterChoice[];
  choices: ObjectChoices;
}) {
  const [draft, setDraft] = useState<CompareSearch>({ kind: 'deployments', ...search });
  const kind = draft.kind ?? '';
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        ask(draft);
      }}
    >
      <label className="flex w-60 flex-col gap-1 text-sm">
        Kind
        <input
          className={controlLook}
          value={kind}
          required
          placeholder="deployments"
          onChange={(e) => setDraft({ ...draft, kind: e.target.value })}
        />
      </label>
      <div className="grid gap-3 lg:grid-cols-2">
        {sides.map(([side, label]) => (
          <SideFields
            key={side}
            side={side}
            label={label}
            search={draft}
            set={setDraft}
            kind={kind}
            clusters={clusters}
            choices={choices}
          />
        ))}
      </div>
      <div>
        <button type="submit" className={primaryLook}>
          Compare
        </button>
      </div>
    </form>
  );
}
