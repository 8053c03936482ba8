import { Link } from '@tanstack/react-router';
import { Badge } from '../../../ui/Badge.tsx';
import { linkLook } from '../../../ui/controls.tsx';
import { ObjectLink } from '../../../ui/ObjectLink.tsx';
import { Card, Empty } from '../../../ui/states.tsx';
import { Table } from '../../../ui/Table.tsx';
import { formatBytes } from '../../../ui/units.ts';
import { Facts, ListState, Selector, SubHeading, useObjects } from './parts.tsx';
import type { KindDetailsProps } from './registry.ts';
import { base64Bytes, textBytes } from './words.ts';

/** Keys and their sizes; never the values (a Secret's stay in its YAML, where the reader chose to look). */
function KeysTable({ keys }: { keys: { key: string; bytes: number; binary?: boolean }[] }) {
  if (keys.length === 0) return <Empty>No keys.</Empty>;
  return (
    <Table label="Keys" columns={['Key', { label: 'Size', right: true }]}>
      {keys.map((k) => (
        <tr key={k.key}>
          <td className="py-1.5 pr-4 font-mono text-xs">
            {k.key}
            {k.binary && <span className="ml-2 font-sans text-slate-600 dark:text-slate-400">(binary)</span>}
          </td>
          <td className="py-1.5 text-right tabular-nums">{formatBytes(k.bytes)}</td>
        </tr>
      ))}
    </Table>
  );
}

const entries = (data: unknown) => Object.entries((data as Record<string, string> | undefined) ?? {});

/** A ConfigMap's keys with their sizes (binary data marked). */
export function ConfigMapDetails({ resource }: KindDetailsProps) {
  const keys = [
    ...entries(resource.data).map(([key, value]) => ({ key, bytes: textBytes(value) })),
    ...entries(resource.binaryData).map(([key, value]) => ({ key, bytes: base64Bytes(value), binary: true })),
  ];
  return (
    <Card title="Data">
      <Facts facts={[['Immutable', resource.immutable ? 'yes' : undefined]]} />
      <KeysTable keys={keys} />
    </Card>
  );
}

/** A Secret's type and keys with their sizes, measured from the encoded data without decoding it. */
export function SecretDetails({ resource }: KindDetailsProps) {
  const keys = entries(resource.data).map(([key, value]) => ({ key, bytes: base64Bytes(value) }));
  return (
    <Card title="Data">
      <Facts
        label="Secret facts"
        facts={[
          ['Type', String(resource.type ?? 'Opaque')],
          ['Immutable', resource.immutable ? 'yes' : undefined],
        ]}
      />
      <SubHeading>Keys</SubHeading>
      <KeysTable keys={keys} />
    </Card>
  );
}

interface LimitItem {
  type?: string;
  max?: Record<string, string>;
  min?: Record<string, string>;
  default?: Record<string, string>;
  defaultRequest?: Record<string, string>;
}

/** A Namespace: its phase, and the quotas and limit ranges that bound what runs in it. */
export function NamespaceDetails({ resource, name }: KindDetailsProps) {
  const quotas = useObjects('resourcequotas', name);
  const limits = useObjects('limitranges', name);
  const phase = String(resource.status?.phase ?? 'Active');
  const quotaRows = (quotas.data ?? []).flatMap((q) => {
    const used = (q.status?.used as Record<string, string> | undefined) ?? {};
    return entries(q.status?.hard ?? q.spec?.hard).map(([resourceName, hard]) => ({
      quota: q.metadata?.name ?? '',
      resourceName,
      used: used[resourceName] ?? '—',
      hard,
    }));
  });
  const limitRows = (limits.data ?? []).flatMap((l) =>
    ((l.spec?.limits as LimitItem[] | undefined) ?? []).flatMap((item) =>
      [
        ...new Set(
          [item.max, item.min, item.default, item.defaultRequest].flatMap((m) => Object.keys(m ?? {})),
        ),
      ].map((resourceName) => ({ range: l.metadata?.name ?? '', type: item.type ?? '', resourceName, item })),
    ),
  );
  return (
    <Card title="Namespace">
      <Facts
        facts={[
          [
            'Phase',
            <Badge key="p" tone={phase === 'Active' ? 'good' : 'warn'}>
              {phase}
            </Badge>,
          ],
        ]}
      />
      <SubHeading>Resource quotas</SubHeading>
      <ListState
        query={{ ...quotas, data: quotas.data && quotaRows }}
        what="its quotas"
        empty="No quotas: nothing caps what runs here."
      >
        <Table
          label="Resource quotas"
          columns={['Quota', 'Resource', { label: 'Used', right: true }, { label: 'Hard', right: true }]}
        >
          {quotaRows.map((r) => (
            <tr key={`${r.quota}/${r.resourceName}`}>
              <td className="py-1.5 pr-4">
                <ObjectLink kind="ResourceQuota" namespace={name} name={r.quota} />
              </td>
              <td className="py-1.5 pr-4 font-mono text-xs">{r.resourceName}</td>
              <td className="py-1.5 pr-4 text-right tabular-nums">{r.used}</td>
              <td className="py-1.5 text-right tabular-nums">{r.hard}</td>
            </tr>
          ))}
        </Table>
      </ListState>
      <SubHeading>Limit ranges</SubHeading>
      <ListState
        query={{ ...limits, data: limits.data && limitRows }}
        what="its limit ranges"
        empty="No limit ranges: containers get no defaults."
      >
        <Table
          label="Limit ranges"
          columns={['Limit range', 'Type', 'Resource', 'Min', 'Max', 'Default request', 'Default limit']}
        >
          {limitRows.map((r) => (
            <tr key={`${r.range}/${r.type}/${r.resourceName}`}>
              <td className="py-1.5 pr-4">
                <ObjectLink kind="LimitRange" namespace={name} name={r.range} />
              </td>
              <td className="py-1.5 pr-4">{r.type}</td>
              <td className="py-1.5 pr-4 font-mono text-xs">{r.resourceName}</td>
              <td className="py-1.5 pr-4">{r.item.min?.[r.resourceName] ?? '—'}</td>
              <td className="py-1.5 pr-4">{r.item.max?.[r.resourceName] ?? '—'}</td>
              <td className="py-1.5 pr-4">{r.item.defaultRequest?.[r.resourceName] ?? '—'}</td>
              <td className="py-1.5">{r.item.default?.[r.resourceName] ?? '—'}</td>
            </tr>
          ))}
        </Table>
      </ListState>
    </Card>
  );
}

/**
 * A NetworkPolicy: which pods it selects, in which directions, and how many rules it has. What it lets through
 * is the network policies page's to say: it evaluates every policy together, rule by rule, as the cluster does.
 */
export function NetworkPolicyDetails({ resource, namespace = '' }: KindDetailsProps) {
  const spec = resource.spec ?? {};
  // Without policyTypes, a policy restricts ingress, and egress too when it has egress rules (the API's default).
  const types = (spec.policyTypes as string[] | undefined) ?? ['Ingress', ...(spec.egress ? ['Egress'] : [])];
  const count = (rules: unknown) => (Array.isArray(rules) ? rules.length : 0);
  const direction = (type: 'Ingress' | 'Egress', rules: unknown) =>
    !types.includes(type)
      ? 'not restricted by this policy'
      : count(rules) === 0
        ? 'all denied (no rule lets anything through)'
        : `${count(rules)} ${count(rules) === 1 ? 'rule lets' : 'rules let'} traffic through`;
  return (
    <Card title="Policy">
      <Facts
        label="Policy facts"
        facts={[
          [
            'Pods',
            <Selector
              key="p"
              selector={spec.podSelector as Record<string, string>}
              none="every pod in the namespace"
            />,
          ],
          ['Ingress', direction('Ingress', spec.ingress)],
          ['Egress', direction('Egress', spec.egress)],
        ]}
      />
      <p className="mt-3 text-sm">
        <Link to="/network-policies" search={{ matrix: namespace }} className={linkLook}>
          See what the policies of {namespace} allow, pod to pod →
        </Link>
      </p>
    </Card>
  );
}
