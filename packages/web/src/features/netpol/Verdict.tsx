import { Badge } from '../../ui/Badge.tsx';
import { mutedLook, panelLook } from '../../ui/controls.tsx';
import { ObjectLink } from '../../ui/ObjectLink.tsx';
import { Table } from '../../ui/Table.tsx';
import { PolicyLink } from './PolicyLink.tsx';
import type { NetpolSearch } from './query.ts';
import {
  type BackendVerdict,
  type ConnectionResult,
  type Direction,
  type DirectionVerdict,
  rulePath,
} from './types.ts';

const allowedBadge = (allowed: boolean) => (
  <Badge tone={allowed ? 'good' : 'bad'}>{allowed ? 'allowed' : 'denied'}</Badge>
);

/** One direction's verdict: whether it is isolated, the reason, and the policies and rules that decided. */
function DirectionCard({ direction, verdict }: { direction: Direction; verdict: DirectionVerdict }) {
  const title = direction === 'egress' ? 'Egress from the source' : 'Ingress to the destination';
  const deciding = new Set(verdict.decidedBy.map((r) => r.policy));
  const others = verdict.policies.filter((p) => !deciding.has(p));
  return (
    <section
      aria-label={title}
      className="flex flex-col gap-2 rounded-md border border-slate-200 p-3 dark:border-slate-700"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-sm font-semibold">{title}</h3>
        {allowedBadge(verdict.allowed)}
        <Badge tone={verdict.isolated ? 'info' : 'muted'}>
          {verdict.isolated ? 'isolated' : 'not isolated'}
        </Badge>
      </div>
      <p className="text-sm">{verdict.reason}</p>
      {verdict.decidedBy.length > 0 && (
        <div>
          <h4 className={`text-xs font-medium ${mutedLook}`}>Allowed by</h4>
          <ul className="mt-1 flex flex-col gap-1">
            {verdict.decidedBy.map((rule) => (
              <li
                key={`${rule.policy}/${rulePath(direction, rule)}`}
                className="flex flex-wrap items-center gap-2"
              >
                <PolicyLink policy={rule.policy} />
                <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs dark:bg-slate-800">
                  {rulePath(direction, rule)}
                </code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {!verdict.allowed && verdict.policies.length > 0 && (
        <div>
          <h4 className={`text-xs font-medium ${mutedLook}`}>Denied by</h4>
          <ul className="mt-1 flex flex-col gap-1">
            {verdict.policies.map((p) => (
              <li key={p}>
                <PolicyLink policy={p} />
              </li>
            ))}
          </ul>
          <p className={`mt-1 text-xs ${mutedLook}`}>
            They select the pod for {direction}, and none of their rules matches this connection.
          </p>
        </div>
      )}
      {verdict.allowed && others.length > 0 && (
        <p className={`text-xs ${mutedLook}`}>Also selecting the pod: {others.join(', ')}</p>
      )}
      <p className={`text-xs ${mutedLook}`}>Ports this side opens: {verdict.ports}</p>
    </section>
  );
}

/** A Service destination: the verdict on each pod behind it, at its target port. */
function Backends({ perPod }: { perPod: BackendVerdict[] }) {
  return (
    <section aria-label="Pods behind the Service">
      <h3 className="mb-1 text-sm font-semibold">
        Pods behind the Service <span className={`font-normal ${mutedLook}`}>{perPod.length}</span>
      </h3>
      <Table columns={['Pod', 'Target port', 'Verdict', 'Egress', 'Ingress', 'Open ports']}>
        {perPod.map((v) => (
          <tr key={v.pod.name}>
            <td className="py-2 pr-4">
              <ObjectLink kind="Pod" namespace={v.pod.namespace} name={v.pod.name} />
            </td>
            <td className="py-2 pr-4 tabular-nums">{v.targetPort ?? '—'}</td>
            <td className="py-2 pr-4">{allowedBadge(v.allowed)}</td>
            <td className="py-2 pr-4">{allowedBadge(v.egress.allowed)}</td>
            <td className="py-2 pr-4">{allowedBadge(v.ingress.allowed)}</td>
            <td className="py-2 text-xs">{v.ports}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}

/** A source block of addresses: the parts the policies' ipBlocks cut it into, each with its verdict. */
function BlockParts({ parts }: { parts: { addresses: string; allowed: boolean }[] }) {
  return (
    <section aria-label="Parts of the source block">
      <h3 className="mb-1 text-sm font-semibold">
        Parts of the source block <span className={`font-normal ${mutedLook}`}>{parts.length}</span>
      </h3>
      <Table columns={['Addresses', 'Verdict']}>
        {parts.map((part) => (
          <tr key={part.addresses}>
            <td className="py-2 pr-4 font-mono text-xs">{part.addresses}</td>
            <td className="py-2">{allowedBadge(part.allowed)}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}

/** `pod/demo-shop/web` → `pod demo-shop/web`; a labelled pod as its labels. */
function endText(search: NetpolSearch, end: 'source' | 'destination'): string {
  if (end === 'source' && search.sourceNamespace)
    return `a pod {${search.sourceLabels ?? ''}} in ${search.sourceNamespace}`;
  const text = search[end] ?? '';
  const at = text.indexOf('/');
  return `${text.slice(0, at)} ${text.slice(at + 1)}`;
}

/** The answer: allowed or denied end to end, then each direction with the policies and rules that decided it. */
export function Verdict({ result, search }: { result: ConnectionResult; search: NetpolSearch }) {
  const port = search.port === undefined ? 'any port' : `port ${search.port}`;
  return (
    <section aria-label="Verdict" className={`${panelLook} flex flex-col gap-3 pb-4`}>
      <div
        className={`flex flex-wrap items-center gap-3 rounded-md px-3 py-2 ${
          result.allowed
            ? 'bg-emerald-50 text-emerald-950 dark:bg-emerald-950/60 dark:text-emerald-100'
            : 'bg-red-50 text-red-950 dark:bg-red-950/60 dark:text-red-100'
        }`}
      >
        <h2 className="text-lg font-semibold">{result.allowed ? 'Allowed' : 'Denied'}</h2>
        <p className="text-sm">
          {endText(search, 'source')} → {endText(search, 'destination')}, {port}/{search.protocol ?? 'TCP'}
          {result.allowed && search.port === undefined && ` (open end to end: ${result.ports})`}
        </p>
      </div>
      <div className="grid gap-3 md:grid-cols-2">
        <DirectionCard direction="egress" verdict={result.egress} />
        <DirectionCard direction="ingress" verdict={result.ingress} />
      </div>
      {result.sourceParts && result.sourceParts.length > 1 && <BlockParts parts={result.sourceParts} />}
      {result.perPod && result.perPod.length > 0 && <Backends perPod={result.perPod} />}
    </section>
  );
}
