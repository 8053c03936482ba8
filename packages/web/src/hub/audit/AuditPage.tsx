import { useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { Card, Empty, Loaded } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import { TextFilter } from '../../ui/TextFilter.tsx';
import { hub } from '../api.ts';
import { formatTime, usePreferences } from '../preferences/preferences.ts';
import { goTo } from '../router.tsx';
import { accountQuery } from '../shell/HubShell.tsx';

export interface AuditSearch {
  /** Only this action (`pat.create`, `member.role`, …). */
  action?: string;
  /** The page after this entry id (the previous page's nextCursor). */
  cursor?: number;
}

const pageSize = 50;

/** Who did what in the organization, newest first: filter by action, page back through older entries. */
export function AuditPage() {
  const search = useSearch({ strict: false }) as AuditSearch;
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
                      <td>{entry.actor?.email ?? 'the hub'}</td>
                      <td className="font-mono text-xs">{entry.action}</td>
                      <td className="font-mono text-xs">
                        {entry.target
                          ? `${entry.target.type}${entry.target.id ? ` ${entry.target.id}` : ''}`
                          : '—'}
                      </td>
                      <td>{entry.via === 'pat' ? 'access token' : entry.via}</td>
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
