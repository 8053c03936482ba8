import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Loaded } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import { TextFilter } from '../../ui/TextFilter.tsx';
import { type HubAnswer, hub } from '../api.ts';
import { formatTime, usePreferences } from '../preferences/preferences.ts';
import { useHubSearch } from '../route-api.ts';
import { goTo } from '../router.tsx';
import { accountQuery } from '../shell/HubShell.tsx';

export interface AuditSearch {
  /** Only this action (`pat.create`, `member.role`, …). */
  action?: string;
  /** The page after this entry id (the previous page's nextCursor). */
  cursor?: number;
}

const pageSize = 50;

type Entry = HubAnswer<'/api/orgs/{org_id}/audit'>['items'][number];

/** The person by name, their e-mail under it; a failed sign-in knows only the e-mail; the hub's own acts, no one. */
function Who({ actor }: { actor: Entry['actor'] }) {
  if (!actor) return 'the hub';
  if (!actor.name) return actor.email;
  return (
    <>
      {actor.name}
      <span className="block text-xs text-slate-600 dark:text-slate-400">{actor.email}</span>
    </>
  );
}

/**
 * What the entry is about: its kind and its name as it was then (ADR 0068), which stays after it is deleted, with
 * the start of its id (the whole of it on hover), as two things of one name are told apart by it.
 */
function Target({ target }: { target: Entry['target'] }) {
  if (!target) return '—';
  return (
    <>
      <span className="text-slate-600 dark:text-slate-400">{target.type}</span>{' '}
      {target.name && <span className="font-medium">{target.name}</span>}{' '}
      {target.id && (
        <span className="font-mono text-xs text-slate-600 dark:text-slate-400" title={target.id}>
          {target.id.length > 8 ? `${target.id.slice(0, 8)}…` : target.id}
        </span>
      )}
    </>
  );
}

/**
 * Who did what in the organization, newest first, people and objects by name: filter by action, page back through
 * older entries.
 */
export function AuditPage() {
  const search = useHubSearch('/signed-in/audit');
  const account = useQuery(accountQuery);
  const preferences = usePreferences();
  const orgId = account.data?.currentOrg.id ?? '';
  const entries = useQuery({
    queryKey: ['audit', orgId, search.action, search.cursor],
    enabled: Boolean(orgId),
    queryFn: ({ signal }) =>
      hub.get('/api/orgs/{org_id}/audit', {
        params: { org_id: orgId },
        query: { limit: pageSize, action: search.action, cursor: search.cursor },
        signal,
      }),
  });
  const show = (change: AuditSearch) =>
    void goTo('/audit', {
      search: Object.fromEntries(Object.entries({ ...search, ...change }).filter(([, v]) => v !== undefined)),
    });
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4">
      <div className="flex flex-wrap items-end gap-3">
        <h1 className="mr-auto text-xl font-semibold">Audit log</h1>
        <TextFilter
          label="Action"
          value={search.action}
          placeholder="pat.create"
          onChange={(action) => show({ action, cursor: undefined })}
        />
      </div>
      <Card title="Entries, newest first">
        <Loaded query={entries} what="the audit log">
          {(data) =>
            data.items.length === 0 ? (
              <Empty>No entries{search.action ? ` for ${search.action}` : ''}.</Empty>
            ) : (
              <>
                <Table columns={['Time', 'Who', 'Action', 'Target', 'Via', 'From']}>
                  {data.items.map((entry) => (
                    <tr key={entry.id}>
                      <td className="py-2 font-mono text-xs">
                        {formatTime(entry.at, preferences.data?.timeZone)}
                      </td>
                      <td>
                        <Who actor={entry.actor} />
                      </td>
                      <td className="font-mono text-xs">{entry.action}</td>
                      <td>
                        <Target target={entry.target} />
                      </td>
                      <td>
                        {entry.via === 'pat' ? `access token ${entry.patName ?? entry.patId}` : entry.via}
                      </td>
                      <td className="font-mono text-xs">{entry.ip ?? '—'}</td>
                    </tr>
                  ))}
                </Table>
                <div className="mt-3 flex gap-2 text-sm">
                  {search.cursor && (
                    <button
                      type="button"
                      className="rounded-md border border-slate-300 px-2 py-1 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
                      onClick={() => show({ cursor: undefined })}
                    >
                      ← Newest
                    </button>
                  )}
                  {data.nextCursor && (
                    <button
                      type="button"
                      className="rounded-md border border-slate-300 px-2 py-1 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
                      onClick={() => show({ cursor: Number(data.nextCursor) })}
                    >
                      Older →
                    </button>
                  )}
                </div>
              </>
            )
          }
        </Loaded>
      </Card>
    </div>
  );
}
