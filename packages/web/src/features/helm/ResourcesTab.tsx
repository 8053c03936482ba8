import { HealthBadge } from '../../ui/HealthBadge.tsx';
import { ObjectLink } from '../../ui/ObjectLink.tsx';
import { Empty } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import type { ReleaseDetail } from './types.ts';

const cell = 'py-2 pr-4';
const subheading = 'mb-2 text-sm font-semibold';

/** The objects the release's manifest names with their health in the cache, and its chart's dependencies. */
export function ResourcesTab({ detail }: { detail: ReleaseDetail }) {
  return (
    <div className="flex flex-col gap-6">
      {detail.resources.length === 0 ? (
        <Empty>The release's manifest names no objects.</Empty>
      ) : (
        <Table columns={['Kind', 'Object', 'Health']}>
          {detail.resources.map((r) => (
            <tr key={`${r.apiVersion}/${r.kind}/${r.namespace}/${r.name}`}>
              <td className={cell}>
                {r.kind}
                <span className="ml-1 text-xs text-slate-600 dark:text-slate-400">{r.apiVersion}</span>
              </td>
              <td className={cell}>
                {r.status === 'missing' ? (
                  <span className="font-mono text-xs">
                    {r.namespace ? `${r.namespace}/` : ''}
                    {r.name}
                  </span>
                ) : (
                  <ObjectLink kind={r.kind} namespace={r.namespace} name={r.name} />
                )}
              </td>
              <td className="py-2">
                <HealthBadge health={r.status} />
              </td>
            </tr>
          ))}
        </Table>
      )}
      {detail.dependencies.length > 0 && (
        <section aria-label="Chart dependencies">
          <h3 className={subheading}>Chart dependencies</h3>
          <Table columns={['Chart', 'Version', 'Repository']}>
            {detail.dependencies.map((d) => (
              <tr key={d.name}>
                <td className={cell}>{d.name}</td>
                <td className={cell}>{d.version}</td>
                <td className="py-2 font-mono text-xs">{d.repository ?? '—'}</td>
              </tr>
            ))}
          </Table>
        </section>
      )}
    </div>
  );
}
