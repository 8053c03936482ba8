import { Badge } from '../../ui/Badge.tsx';
import { mutedLook } from '../../ui/controls.tsx';
import { ExpandableRow } from '../../ui/ExpandableRow.tsx';
import { ObjectLink } from '../../ui/ObjectLink.tsx';
import { useShowMore } from '../../ui/ShowMore.tsx';
import { Table } from '../../ui/Table.tsx';
import { useOpenRows } from '../../ui/use-open-rows.ts';
import { ManagedDetails, SecretDetails } from './ChainDetails.tsx';
import {
  type CertificateItem,
  type CertSeverity,
  certTone,
  commonNameOf,
  dateOf,
  daysText,
  leafOf,
  namesOf,
} from './types.ts';

const cell = 'py-2 pr-4 align-top';
const daysColour: Record<CertSeverity, string> = {
  expired: 'font-semibold text-red-700 dark:text-red-300',
  invalid: '',
  critical: 'font-semibold text-red-700 dark:text-red-300',
  warning: 'font-semibold text-amber-800 dark:text-amber-300',
  ok: '',
};
const shownSans = 3;

function Names({ item }: { item: CertificateItem }) {
  const { main, sans } = namesOf(item);
  const rest = sans.filter((s) => s !== main);
  return (
    <>
      <span className="block font-medium break-all">{main ?? '—'}</span>
      {rest.length > 0 && (
        <span className={`block text-xs break-all ${mutedLook}`} title={sans.join('\n')}>
          {rest.slice(0, shownSans).join(', ')}
          {rest.length > shownSans && ` +${rest.length - shownSans} more`}
        </span>
      )}
    </>
  );
}

function Issuer({ item }: { item: CertificateItem }) {
  if (item.kind === 'Certificate') return <span className={mutedLook}>cert-manager</span>;
  const leaf = leafOf(item);
  if (!leaf) return <>—</>;
  return (
    <span title={leaf.issuer}>
      <span className="break-all">{commonNameOf(leaf.issuer)}</span>
      {leaf.selfSigned && <span className={`block text-xs ${mutedLook}`}>self-signed</span>}
    </span>
  );
}

/** Every TLS Secret and Certificate, most urgent first; a row opens to its chain (or its Secret and renewal). */
export function CertificateRows({ items }: { items: CertificateItem[] }) {
  const rows = useOpenRows();
  const { shown, more } = useShowMore(items);
  return (
    <>
      <Table
        label="Certificates"
        columns={[
          { label: 'Details', hidden: true },
          'Severity',
          'Object',
          'Common name and SANs',
          'Issuer',
          'Not after',
          { label: 'Days left', right: true },
        ]}
      >
        {shown.map((item) => {
          const key = `${item.kind}/${item.namespace}/${item.name}`;
          return (
            <ExpandableRow
              key={key}
              label={`${item.kind} ${item.namespace}/${item.name}`}
              open={rows.isOpen(key)}
              onToggle={() => rows.toggle(key)}
              columns={7}
              detail={() =>
                item.kind === 'Secret' ? <SecretDetails item={item} /> : <ManagedDetails item={item} />
              }
            >
              <td className={cell}>
                <Badge tone={certTone[item.severity]}>{item.severity}</Badge>
              </td>
              <td className={`${cell} max-w-80`}>
                <span className={`block text-xs ${mutedLook}`}>{item.kind}</span>
                <ObjectLink kind={item.kind} namespace={item.namespace} name={item.name} />
                {item.problems.length > 0 && (
                  <ul aria-label="Problems" className="mt-1 flex flex-col gap-0.5">
                    {item.problems.map((p) => (
                      <li key={p} className="text-xs text-red-800 dark:text-red-300">
                        <span aria-hidden="true">⚠ </span>
                        {p}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
              <td className={`${cell} max-w-72`}>
                <Names item={item} />
              </td>
              <td className={`${cell} max-w-56 text-xs`}>
                <Issuer item={item} />
              </td>
              <td className={`${cell} whitespace-nowrap tabular-nums`} title={item.notAfter ?? undefined}>
                {dateOf(item.notAfter)}
              </td>
              <td
                className={`py-2 text-right align-top whitespace-nowrap tabular-nums ${daysColour[item.severity]}`}
              >
                {daysText(item.daysLeft)}
              </td>
            </ExpandableRow>
          );
        })}
      </Table>
      {more}
    </>
  );
}
