import { Badge } from '../../ui/Badge.tsx';
import { ExpandableRow } from '../../ui/ExpandableRow.tsx';
import { ObjectLink } from '../../ui/ObjectLink.tsx';
import { age, Empty } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import { useOpenRows } from '../../ui/use-open-rows.ts';
import { GroupLink, type ProblemGroup } from './links.tsx';

const sourceLabel = { health: 'runtime', certificate: 'certificate', audit: 'audit' } as const;

const groupKey = (g: ProblemGroup) => `${g.severity}/${g.source}/${g.check ?? g.reason}`;

/** The objects a group names; past them, a link to where all of them are. */
function GroupObjects({ group }: { group: ProblemGroup }) {
  const more = group.count - group.objects.length;
  return (
    <div>
      <ul className="divide-y divide-slate-100 dark:divide-slate-800">
        {group.objects.map((o) => (
          <li key={`${o.kind}/${o.namespace}/${o.name}`} className="flex items-baseline gap-2 py-1">
            <span className="text-xs text-slate-600 dark:text-slate-400">{o.kind}</span>
            <ObjectLink kind={o.kind} namespace={o.namespace} name={o.name} />
            <span
              className="min-w-0 flex-1 truncate text-xs text-slate-600 dark:text-slate-400"
              title={o.message}
            >
              {o.message}
            </span>
            <span className="text-xs tabular-nums">{age(o.ageSeconds)}</span>
          </li>
        ))}
      </ul>
      <p className="mt-1">
        <GroupLink group={group}>
          {more > 0
            ? `All ${group.count} (${more} more not listed)`
            : `Open the ${sourceLabel[group.source]} view`}
        </GroupLink>
      </p>
    </div>
  );
}

/** One row per finding across objects (a crash loop in 40 pods is one row saying 40), critical first. */
export function ProblemsTable({ groups }: { groups: ProblemGroup[] }) {
  const rows = useOpenRows();
  if (groups.length === 0) return <Empty>Nothing is failing.</Empty>;
  return (
    <Table
      columns={[{ label: 'Details', hidden: true }, 'Problem', 'Kinds', { label: 'Objects', right: true }]}
    >
      {groups.map((g) => (
        <ExpandableRow
          key={groupKey(g)}
          label={`${g.count} ${g.reason}`}
          open={rows.isOpen(groupKey(g))}
          onToggle={() => rows.toggle(groupKey(g))}
          columns={4}
          className="align-top"
          detail={() => <GroupObjects group={g} />}
        >
          <td className="py-1.5 pr-3">
            <span className="flex items-center gap-2">
              <Badge tone={g.severity === 'critical' ? 'bad' : 'warn'}>{g.severity}</Badge>
              <span className="font-medium">{g.reason}</span>
            </span>
            <span className="text-xs text-slate-600 dark:text-slate-400">{sourceLabel[g.source]}</span>
          </td>
          <td className="py-1.5 pr-3 text-xs text-slate-700 dark:text-slate-300">{g.kinds.join(', ')}</td>
          <td className="py-1.5 text-right font-semibold tabular-nums">{g.count}</td>
        </ExpandableRow>
      ))}
    </Table>
  );
}
