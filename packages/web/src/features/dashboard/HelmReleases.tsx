import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/client.ts';
import { Card, ErrorMessage, Loading } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import { EmptyOrRefused } from '../shell/AccessNotice.tsx';
import { helmReleases } from '../shell/access.ts';

const statusLook: Record<string, string> = {
  deployed: 'text-emerald-800 dark:text-emerald-300',
  failed: 'text-red-800 dark:text-red-300',
};

export function HelmReleases({ namespace }: { namespace: string | undefined }) {
  const releases = useQuery({
    queryKey: ['pkgmgr'],
    queryFn: ({ signal }) => get('/api/dashboard/pkgmgr', { signal }),
    refetchInterval: 30_000,
  });
  const rows = releases.data?.releases.filter((r) => !namespace || r.namespace === namespace) ?? [];
  return (
    <Card title="Helm releases">
      {releases.isPending ? (
        <Loading what="Helm releases" />
      ) : releases.isError ? (
        <ErrorMessage error={releases.error} what="Helm releases" />
      ) : rows.length === 0 ? (
        <EmptyOrRefused listed={helmReleases} namespace={namespace}>
          No Helm releases{namespace ? ` in ${namespace}` : ''}.
        </EmptyOrRefused>
      ) : (
        <Table columns={['Release', 'Chart', 'App version', 'Revision', 'Status']}>
          {rows.map((r) => (
            <tr key={`${r.namespace}/${r.name}`}>
              <td className="py-2 font-mono text-xs">
                {r.namespace}/{r.name}
              </td>
              <td className="py-2">
                {r.chart} {r.chartVersion}
              </td>
              <td className="py-2">{r.appVersion ?? '—'}</td>
              <td className="py-2 tabular-nums">{r.revision}</td>
              <td className={`py-2 font-medium ${statusLook[r.status] ?? ''}`}>{r.status}</td>
            </tr>
          ))}
        </Table>
      )}
    </Card>
  );
}
