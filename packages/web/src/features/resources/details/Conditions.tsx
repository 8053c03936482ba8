import { mutedLook } from '../../../ui/controls.tsx';
import { ago } from '../../../ui/states.tsx';
import { Table } from '../../../ui/Table.tsx';
import type { Condition } from './format.ts';

/**
 * An object's status conditions with their reasons, messages and when each last changed. `bad` says which status
 * of a type is the trouble (a node's MemoryPressure is bad when True, its Ready when False), to draw it so.
 */
export function Conditions({ conditions, bad }: { conditions: Condition[]; bad: (c: Condition) => boolean }) {
  if (conditions.length === 0) return <p className={`text-sm ${mutedLook}`}>No conditions reported.</p>;
  return (
    <Table label="Conditions" columns={['Condition', 'Status', 'Reason', 'Message', 'Changed']}>
      {conditions.map((c) => (
        <tr key={c.type} className="align-top">
          <td className="py-1 pr-4 font-medium">{c.type}</td>
          <td className={`py-1 pr-4 ${bad(c) ? 'font-medium text-red-800 dark:text-red-300' : ''}`}>
            {c.status}
          </td>
          <td className="py-1 pr-4">{c.reason ?? ''}</td>
          <td className="py-1 pr-4 text-xs break-words">{c.message ?? ''}</td>
          <td className="py-1 whitespace-nowrap" title={c.lastTransitionTime}>
            {ago(c.lastTransitionTime)}
          </td>
        </tr>
      ))}
    </Table>
  );
}
