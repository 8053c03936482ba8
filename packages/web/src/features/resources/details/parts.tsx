import { type KubeObject, podSummary, podTone } from '@binnacle/common';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { get } from '../../../api/client.ts';
import { Badge, statusBadgeTone } from '../../../ui/Badge.tsx';
import { mutedLook } from '../../../ui/controls.tsx';
import { ObjectLink } from '../../../ui/ObjectLink.tsx';
import { ago, Empty, ErrorMessage, Loading } from '../../../ui/states.tsx';
import { Table } from '../../../ui/Table.tsx';
import { formatBytes, formatCores } from '../../../ui/units.ts';
import { type Condition, conditionTrouble, exactTime, type LabelSelector, selectorTerms } from './format.ts';
import { podRequest } from './node-resources.ts';

/** One line of a facts grid: its label and its value; a fact without a value is left out. */
export type Fact = [label: string, value: ReactNode];

/** Facts as a two-column grid of labels and values, the way the Summary card lays them out. */
export function Facts({ facts, label }: { facts: Fact[]; label?: string }) {
  const shown = facts.filter(([, value]) => value !== undefined && value !== null && value !== '');
  return (
    <dl aria-label={label} className="grid grid-cols-[10rem_1fr] gap-x-4 gap-y-2 text-sm">
      {shown.map(([name, value]) => (
        <div key={name} className="contents">
          <dt className={mutedLook}>{name}</dt>
          <dd className="min-w-0 break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A moment as an age (`3m ago`), the exact time on hover and for machines; `—` without one. */
export function Moment({ at }: { at: string | undefined }) {
  if (!at || Number.isNaN(Date.parse(at))) return <span>—</span>;
  return (
    <time dateTime={at} title={exactTime(at)} className="whitespace-nowrap">
      {ago(at)}
    </time>
  );
}

/** Key/value terms in small grey chips: labels, selectors, node selectors. */
export function Chips({ terms, none = 'none' }: { terms: string[]; none?: string }) {
  if (terms.length === 0) return <span className={mutedLook}>{none}</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {terms.map((t) => (
        <span key={t} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs dark:bg-slate-800">
          {t}
        </span>
      ))}
    </span>
  );
}

/** A label selector (or a Service's plain map) as chips. */
export const Selector = ({
  selector,
  none,
}: {
  selector?: LabelSelector | Record<string, string>;
  none?: string;
}) => <Chips terms={selectorTerms(selector)} none={none} />;

/** The status of a condition: green when it says all is well, amber when it says otherwise. */
export function ConditionStatus({ condition }: { condition: Condition }) {
  return <Badge tone={conditionTrouble(condition) ? 'warn' : 'good'}>{condition.status}</Badge>;
}

/** Status conditions as a table: type, status, reason, message and since when (the exact time on hover). */
export function ConditionsTable({
  conditions,
  label = 'Conditions',
}: {
  conditions?: Condition[];
  label?: string;
}) {
  if (!conditions || conditions.length === 0) return <Empty>No conditions reported.</Empty>;
  return (
    <Table label={label} columns={['Type', 'Status', 'Reason', 'Message', 'Since']}>
      {conditions.map((c) => (
        <tr key={c.type} className="align-top">
          <td className="py-1.5 pr-4 font-medium">{c.type}</td>
          <td className="py-1.5 pr-4">
            <ConditionStatus condition={c} />
          </td>
          <td className="py-1.5 pr-4">{c.reason ?? '—'}</td>
          <td className="py-1.5 pr-4 break-words">{c.message ?? ''}</td>
          <td className="py-1.5">
            <Moment at={c.lastTransitionTime ?? c.lastUpdateTime} />
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** A sub-heading inside a details card, for the second and later parts of it. */
export const SubHeading = ({ children }: { children: ReactNode }) => (
  <h3 className="mt-5 mb-2 text-sm font-semibold first:mt-0">{children}</h3>
);

/** The objects a card looks for, once listed: the ones `keep` keeps, and whether the list was cut short. */
export interface Found {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data?: KubeObject[];
  /** The agent answered one page of a longer list: what the card shows may not be all there is. */
  partial?: boolean;
}

/**
 * The objects of one kind in a namespace (or cluster-wide), whole, narrowed by a label selector on the server
 * and by `keep` here (an owner's uid, a roleRef): for a card that needs a few objects the route cannot pick.
 */
export function useObjects(
  kind: string,
  namespace?: string,
  options: { labelSelector?: string; keep?: (o: KubeObject) => boolean } = {},
): Found {
  const { labelSelector, keep } = options;
  const query = useQuery({
    queryKey: ['resources', kind, namespace, labelSelector],
    queryFn: ({ signal }) =>
      get('/api/resources/{kind}', { params: { kind }, query: { namespace, labelSelector }, signal }),
    refetchInterval: 15_000,
  });
  const items = query.data?.items as KubeObject[] | undefined;
  return {
    isPending: query.isPending,
    isError: query.isError,
    error: query.error,
    data: keep ? items?.filter(keep) : items,
    partial: Boolean(query.data?.continue),
  };
}

/** A list a card shows once it has loaded: what is loading, or why it failed, or `empty` in words. */
export function ListState({
  query,
  what,
  empty,
  children,
}: {
  query: Found;
  what: string;
  empty: string;
  children: ReactNode;
}) {
  if (query.isPending) return <Loading what={what} />;
  if (query.isError) return <ErrorMessage error={query.error} what={what} />;
  const note = query.partial && (
    <p className={`mt-2 text-xs ${mutedLook}`}>
      Found among the first objects the agent listed: there may be more than shown.
    </p>
  );
  if ((query.data ?? []).length === 0)
    return (
      <>
        <Empty>{empty}</Empty>
        {note}
      </>
    );
  return (
    <>
      {children}
      {note}
    </>
  );
}

/** Keeps the objects `owner` owns (by uid: a name may come back after a delete). */
export const ownedBy = (owner: KubeObject) => (o: KubeObject) =>
  Boolean(o.metadata?.ownerReferences?.some((ref) => ref.uid === owner.metadata?.uid));

/**
 * Pods as `kubectl get pods` lists them (READY, STATUS toned, RESTARTS, AGE), with where each runs — or, on a
 * node's page where that is the node itself, what each asks of it.
 */
export function PodsTable({
  pods,
  label = 'Pods',
  requests = false,
}: {
  pods: KubeObject[];
  label?: string;
  /** CPU and memory requests instead of the node. */
  requests?: boolean;
}) {
  const cell = 'py-1.5 pr-4 text-right tabular-nums';
  return (
    <Table
      label={label}
      columns={[
        'Name',
        'Ready',
        'Status',
        { label: 'Restarts', right: true },
        ...(requests
          ? [
              { label: 'CPU requests', right: true as const },
              { label: 'Memory requests', right: true as const },
            ]
          : ['Node']),
        'Age',
      ]}
    >
      {pods.map((pod) => {
        const { ready, reason: status, restarts } = podSummary(pod);
        return (
          <tr key={pod.metadata?.uid ?? `${pod.metadata?.namespace}/${pod.metadata?.name}`}>
            <td className="py-1.5 pr-4">
              <ObjectLink kind="Pod" namespace={pod.metadata?.namespace} name={pod.metadata?.name ?? ''} />
            </td>
            <td className="py-1.5 pr-4 tabular-nums">{ready}</td>
            <td className="py-1.5 pr-4">
              <Badge tone={statusBadgeTone[podTone(status)]}>{status}</Badge>
            </td>
            <td className={cell}>{restarts}</td>
            {requests ? (
              <>
                <td className={cell}>{formatCores(podRequest(pod, 'cpu'))}</td>
                <td className={cell}>{formatBytes(podRequest(pod, 'memory'))}</td>
              </>
            ) : (
              <td className="py-1.5 pr-4 font-mono text-xs">
                {(pod.spec?.nodeName as string | undefined) ?? '—'}
              </td>
            )}
            <td className="py-1.5">
              <Moment at={pod.metadata?.creationTimestamp} />
            </td>
          </tr>
        );
      })}
    </Table>
  );
}

/** An object named with its kind in small grey type before the link (`Deployment shop/web`). */
export function KindLink({ kind, namespace, name }: { kind: string; namespace?: string; name: string }) {
  return (
    <span>
      <span className={`text-xs ${mutedLook}`}>{kind}</span>{' '}
      <ObjectLink kind={kind} namespace={namespace} name={name} />
    </span>
  );
}

/** Objects as a wrapping list of links, each with its kind when they are of several kinds. */
export function ObjectList({
  objects,
  label,
  kinds,
}: {
  objects: KubeObject[];
  label: string;
  kinds?: boolean;
}) {
  return (
    <ul aria-label={label} className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
      {objects.map((o) => {
        const ref = { kind: o.kind ?? '', namespace: o.metadata?.namespace, name: o.metadata?.name ?? '' };
        return (
          <li key={o.metadata?.uid ?? ref.name}>{kinds ? <KindLink {...ref} /> : <ObjectLink {...ref} />}</li>
        );
      })}
    </ul>
  );
}
