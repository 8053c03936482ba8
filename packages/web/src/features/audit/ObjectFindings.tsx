import { ExpandableRow } from '../../ui/ExpandableRow.tsx';
import { ObjectLink } from '../../ui/ObjectLink.tsx';
import { useShowMore } from '../../ui/ShowMore.tsx';
import { Table } from '../../ui/Table.tsx';
import { useOpenRows } from '../../ui/use-open-rows.ts';
import { FindingList } from './FindingList.tsx';
import { type AuditReport, type Finding, objectKey, objectText } from './types.ts';

/** An object with the findings the filters keep, counted again from them. */
export interface ShownGroup {
  kind: string;
  namespace?: string;
  name: string;
  findings: Finding[];
}

const cell = 'py-2 pr-4 align-top';
const count = (n: number, colour: string) => (
  <td className={`${cell} text-right tabular-nums ${n > 0 ? `font-semibold ${colour}` : 'text-slate-400'}`}>
    {n}
  </td>
);

/** The objects with findings, most dangerous first; a row opens to its findings and how to fix each. */
export function ObjectFindings({ groups, checks }: { groups: ShownGroup[]; checks: AuditReport['checks'] }) {
  const rows = useOpenRows();
  const { shown, more } = useShowMore(groups);
  return (
    <>
      <Table
        label="Objects with findings"
        columns={[
          { label: 'Details', hidden: true },
          'Object',
          'Kind',
          { label: 'Danger', right: true },
          { label: 'Warning', right: true },
          'Failing checks',
        ]}
      >
        {shown.map((group) => {
          const key = objectKey(group);
          const titles = [...new Set(group.findings.map((f) => checks[f.checkId]?.title ?? f.checkId))];
          const danger = group.findings.filter((f) => f.severity === 'danger').length;
          return (
            <ExpandableRow
              key={key}
              label={`findings of ${objectText(group)}`}
              open={rows.isOpen(key)}
              onToggle={() => rows.toggle(key)}
              columns={6}
              detail={() => <FindingList findings={group.findings} checks={checks} />}
            >
              <td className={cell}>
                <ObjectLink kind={group.kind} namespace={group.namespace} name={group.name} />
              </td>
              <td className={`${cell} whitespace-nowrap`}>{group.kind}</td>
              {count(danger, 'text-red-700 dark:text-red-300')}
              {count(group.findings.length - danger, 'text-amber-700 dark:text-amber-300')}
              <td className="max-w-md py-2 align-top">
                <span className="line-clamp-2 text-xs" title={titles.join('\n')}>
                  {titles.join(' · ')}
                </span>
              </td>
            </ExpandableRow>
          );
        })}
      </Table>
      {more}
    </>
  );
}
