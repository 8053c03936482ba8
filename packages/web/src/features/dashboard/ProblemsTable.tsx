import { ObjectLink } from '../../ui/ObjectLink.tsx';
import { age, Empty } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import type { Dashboard } from './DashboardPage.tsx';

const sourceLabel = { health: undefined, certificate: 'certificate', audit: 'audit' } as const;

export function ProblemsTable({ problems }: { problems: Dashboard['problems'] }) {
  if (problems.length === 0) return <Empty>Nothing is failing.</Empty>;
  return (
    <Table columns={['Object', 'Status', 'Why', { label: 'Age', right: true }]}>
      {problems.map((p) => (
        <tr key={`${p.source}/${p.kind}/${p.namespace}/${p.name}`} className="align-top">
          <td className="py-2 pr-3">
            <span className="text-xs text-slate-600 dark:text-slate-400">{p.kind}</span>
            <p>
              <ObjectLink kind={p.kind} namespace={p.namespace} name={p.name} />
            </p>
          </td>
          <td className="py-2 pr-3">
            <span className="whitespace-nowrap text-red-800 dark:text-red-300">{p.status}</span>
            {sourceLabel[p.source] && (
              <p className="text-xs text-slate-600 dark:text-slate-400">{sourceLabel[p.source]}</p>
            )}
          </td>
          <td className="py-2 pr-3">
            <span className="font-medium">{p.reason}</span>
            {p.message && <p className="text-xs text-slate-600 dark:text-slate-400">{p.message}</p>}
          </td>
          <td className="py-2 text-right tabular-nums">{age(p.ageSeconds)}</td>
        </tr>
      ))}
    </Table>
  );
}
