import { Badge } from '../../ui/Badge.tsx';
import { mutedLook } from '../../ui/controls.tsx';
import { ExpandableRow } from '../../ui/ExpandableRow.tsx';
import { ObjectLink } from '../../ui/ObjectLink.tsx';
import { useShowMore } from '../../ui/ShowMore.tsx';
import { Table } from '../../ui/Table.tsx';
import { useOpenRows } from '../../ui/use-open-rows.ts';
import { CheckFacts } from './CheckFacts.tsx';
import { type CheckGroup, objectKey, severityTone, severityWord } from './types.ts';

const cell = 'py-2 pr-4 align-top';

/** The objects one check found, with each finding's message. */
function CheckObjects({ group }: { group: CheckGroup }) {
  return (
    <div className="flex flex-col gap-3">
      {group.check && <CheckFacts check={group.check} />}
      <Table columns={['Object', 'Kind', 'Severity', 'Message']} label={`Objects ${group.checkId} found`}>
        {group.findings.map((f) => (
          <tr key={`${objectKey(f)}/${f.container ?? ''}/${f.message}`}>
            <td className={`${cell} text-xs`}>
              <ObjectLink kind={f.kind} namespace={f.namespace} name={f.name} />
            </td>
            <td className={`${cell} whitespace-nowrap text-xs`}>{f.kind}</td>
            <td className={cell}>
              <Badge tone={severityTone[f.severity]}>{severityWord[f.severity]}</Badge>
            </td>
            <td className="py-2 align-top text-xs">
              {f.message}
              {f.container && <span className={mutedLook}> (container {f.container})</span>}
            </td>
          </tr>
        ))}
      </Table>
    </div>
  );
}

/** The findings per check: how many objects each check found, worst first; a row opens to the objects. */
export function CheckFindings({ groups }: { groups: CheckGroup[] }) {
  const rows = useOpenRows();
  const { shown, more } = useShowMore(groups);
  return (
    <>
      <Table
        label="Findings by check"
        columns={[
          { label: 'Details', hidden: true },
          'Check',
          'Category',
          'Severity',
          { label: 'Objects', right: true },
          { label: 'Findings', right: true },
        ]}
      >
        {shown.map((group) => (
          <ExpandableRow
            key={group.checkId}
            label={`objects found by ${group.check?.title ?? group.checkId}`}
            open={rows.isOpen(group.checkId)}
            onToggle={() => rows.toggle(group.checkId)}
            columns={6}
            detail={() => <CheckObjects group={group} />}
          >
            <td className={cell}>
              <span className="font-medium">{group.check?.title ?? group.checkId}</span>
              <span className={`ml-2 font-mono text-xs ${mutedLook}`}>{group.checkId}</span>
            </td>
            <td className={`${cell} whitespace-nowrap`}>{group.category}</td>
            <td className={cell}>
              <Badge tone={severityTone[group.severity]}>{severityWord[group.severity]}</Badge>
            </td>
            <td className={`${cell} text-right tabular-nums`}>{group.objects}</td>
            <td className="py-2 text-right align-top tabular-nums">{group.findings.length}</td>
          </ExpandableRow>
        ))}
      </Table>
      {more}
    </>
  );
}
