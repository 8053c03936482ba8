import { Handle, type Node, type NodeProps, Position, useStore } from '@xyflow/react';
import { memo } from 'react';
import { router } from '../../app/router.tsx';
import { PlainLink } from '../../ui/PlainLink.tsx';
import { objectHref } from '../resources/objects.ts';
import { healthColor, type TopologyNode } from './graph.ts';
import {
  type CompactDetail,
  compactFont,
  compactLabel,
  counted,
  type Detail,
  detailAt,
  kindLabel,
} from './labels.ts';
import { frameTitleFont } from './layout.ts';
import type { TopologySearch } from './TopologyPage.tsx';

export type ResourceData = {
  node: TopologyNode;
  to?: { kind: string; namespace: string; name: string };
  /** Shown beside the kind when no group frame names the namespace. */
  namespace?: string;
  /** The past moment drawn: the link opens the object's kind as it was then (its own page shows only now). */
  at?: string;
};
export type GroupData = {
  title: string;
  /** Pods in the frame and how many of them fail (a pod group counts its pods). */
  pods: number;
  failing: number;
  /** Room the layout kept above the members for the title. */
  room: number;
  /** The namespace whose full graph the title opens, when the whole cluster is drawn reduced. */
  opens?: string;
};

const withExpanded = (expand: string | undefined, id: string) =>
  [...new Set([...(expand?.split(',') ?? []), id])].filter(Boolean).join(',');

/** Edges attach to handles; nobody connects nodes here, so they are not shown. */
const hiddenHandle = { opacity: 0 };

export const detailOf = (s: { transform: [number, number, number] }): Detail => detailAt(s.transform[2]);

const dangerBadge = 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200';
const warningBadge = 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200';

/**
 * What the agent found on the node beside its health: the audit's findings, the served certificate's expiry, what
 * it names that does not exist (or is missing itself, a placeholder), and policy results that did not pass (the
 * badge's title counts the passes too).
 */
function FindingBadges({ data }: { data: TopologyNode['data'] }) {
  const { audit, certificate, problems, missing, policyResults } = data;
  const urgent = certificate && certificate.severity !== 'ok';
  const policies = policyResults && policyResults.fail + policyResults.error + policyResults.warn > 0;
  if (!audit && !urgent && !problems?.length && !policies) return null;
  const days = certificate?.daysLeft;
  return (
    <span className="ml-auto flex shrink-0 gap-1 whitespace-nowrap normal-case tracking-normal">
      {missing ? (
        <span title={problems?.join('\n')} className={`rounded px-1 font-medium ${dangerBadge}`}>
          missing
        </span>
      ) : (
        problems &&
        problems.length > 0 && (
          <span title={problems.join('\n')} className={`rounded px-1 font-medium ${dangerBadge}`}>
            {problems.length === 1 ? 'broken ref' : `${problems.length} broken refs`}
          </span>
        )
      )}
      {policies && (
        <span
          title={`policy results: ${policyResults.fail} fail, ${policyResults.error} error, ${policyResults.warn} warn, ${policyResults.pass} pass`}
          className={`rounded px-1 font-medium ${policyResults.fail + policyResults.error > 0 ? dangerBadge : warningBadge}`}
        >
          {policyResults.fail + policyResults.error > 0
            ? `${policyResults.fail + policyResults.error} policy fail`
            : `${policyResults.warn} policy warn`}
        </span>
      )}
      {audit && (
        <span
          title={`audit: ${audit.danger} danger, ${audit.warning} warning`}
          className={`rounded px-1 font-medium ${audit.danger > 0 ? dangerBadge : warningBadge}`}
        >
          {audit.danger > 0 ? `${audit.danger} danger` : `${audit.warning} warn`}
        </span>
      )}
      {urgent && (
        <span
          title={`certificate in ${certificate.secret}: ${certificate.severity}`}
          className={`rounded px-1 font-medium ${certificate.severity === 'warning' ? warningBadge : dangerBadge}`}
        >
          {certificate.severity === 'invalid'
            ? 'cert unreadable'
            : days !== null && days !== undefined && days < 0
              ? 'cert expired'
              : `cert ${String(days)}d`}
        </span>
      )}
    </span>
  );
}

/** The name cut with an ellipsis, the count whole: after the name a little out, before it far out. */
function CompactText({ node, detail }: { node: TopologyNode; detail: CompactDetail }) {
  const { name, count } = compactLabel(node, detail);
  const shown = <span className="truncate">{name}</span>;
  if (count === undefined) return shown;
  return detail === 'short' ? (
    <>
      {shown}
      <span className="shrink-0 whitespace-pre"> · {count}</span>
    </>
  ) : (
    <>
      <span className="shrink-0 whitespace-pre">{count} </span>
      {shown}
    </>
  );
}

type Opened = NonNullable<ResourceData['to']>;
/** The Resources page of the object's kind at `at`, filtered to its name. */
/** The object's page, as it was at `at` when the graph shows a past moment (time travel). */
const openedHref = (to: Opened, at: string | undefined) =>
  objectHref(to, at ? router.options.stringifySearch({ at }) : '');

const openNamespace = (name: string) =>
  void router.navigate({ to: '/topology', search: (was: TopologySearch) => ({ ...was, namespace: name }) });

export const ResourceNode = memo(function ResourceNode({ data }: NodeProps<Node<ResourceData>>) {
  const detail = useStore(detailOf);
  const { node, to, namespace, at } = data;
  const color = healthColor[node.status];
  // A cluster too big to draw whole shows one node per namespace or per kind in each, counting what is in it;
  // either opens that namespace's graph.
  const overview = node.kind === 'Namespace' && node.data.objects !== undefined;
  const opens = node.kind === 'KindGroup' ? node.namespace : overview ? node.name : undefined;
  const openLabel =
    node.kind === 'KindGroup'
      ? `Open the topology of namespace ${opens} for its ${node.name}`
      : `Open the topology of namespace ${node.name}`;
  if (detail !== 'full') {
    return (
      <div
        className="flex h-full w-full items-center rounded-md border border-slate-300 bg-white px-2 text-left shadow-sm dark:border-slate-600 dark:bg-slate-900"
        style={{ borderLeft: `6px solid ${color}` }}
        title={`${kindLabel(node)} ${node.namespace ? `${node.namespace}/` : ''}${node.name}: ${node.status}`}
      >
        <Handle type="target" position={Position.Left} isConnectable={false} style={hiddenHandle} />
        {opens !== undefined ? (
          <button
            type="button"
            className="flex min-w-0 font-semibold leading-tight hover:underline"
            style={{ fontSize: compactFont[detail] }}
            aria-label={openLabel}
            onClick={() => openNamespace(opens)}
          >
            <CompactText node={node} detail={detail} />
          </button>
        ) : (
          <span
            className="flex min-w-0 font-semibold leading-tight"
            style={{ fontSize: compactFont[detail] }}
          >
            <CompactText node={node} detail={detail} />
          </span>
        )}
        <Handle type="source" position={Position.Right} isConnectable={false} style={hiddenHandle} />
      </div>
    );
  }
  // A placeholder of an object others name that does not exist: dashed, so that it reads as absent.
  const absent = node.data.missing === true;
  return (
    <div
      className={`flex h-full w-full flex-col justify-center rounded-md border px-2 text-left text-xs shadow-sm ${
        absent
          ? 'border-dashed border-red-500 bg-red-50 dark:border-red-400 dark:bg-red-950/40'
          : 'border-slate-300 bg-white dark:border-slate-600 dark:bg-slate-900'
      }`}
      style={{ borderLeft: `4px ${absent ? 'dashed' : 'solid'} ${color}` }}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} style={hiddenHandle} />
      <span className="flex items-center gap-1 text-[10px] uppercase tracking-wide text-slate-600 dark:text-slate-400">
        <span className="truncate">{kindLabel(node)}</span>
        {namespace ? ` · ${namespace}` : ''}
        {node.kind === 'PodGroup' ? ` · ${String(node.data.count)} pods` : ''}
        {overview ? ` · ${counted(node.data.objects, 'object')}, ${counted(node.data.pods, 'pod')}` : ''}
        {opens !== undefined && (
          <button
            type="button"
            className="ml-auto normal-case text-teal-800 hover:underline dark:text-teal-300"
            aria-label={openLabel}
            onClick={() => openNamespace(opens)}
          >
            open
          </button>
        )}
        {node.kind === 'PodGroup' && node.data.expandable === true && (
          <button
            type="button"
            className="ml-auto normal-case text-teal-800 hover:underline dark:text-teal-300"
            aria-label={`Show the ${String(node.data.count)} ${node.name} one by one`}
            onClick={() =>
              void router.navigate({
                to: '/topology',
                search: (was: TopologySearch) => ({ ...was, expand: withExpanded(was.expand, node.id) }),
              })
            }
          >
            show
          </button>
        )}
        {opens === undefined && node.kind !== 'PodGroup' && <FindingBadges data={node.data} />}
      </span>
      {to ? (
        // A plain link, not the router's: thousands of router links cost seconds to mount.
        <PlainLink
          href={openedHref(to, at)}
          go={() =>
            router.navigate({ to: '/resources/$kind/$namespace/$name', params: to, search: at ? { at } : {} })
          }
          className="truncate font-medium text-slate-900 hover:underline dark:text-slate-100"
          aria-label={`${node.kind} ${node.name}`}
          title={`${node.kind} ${node.namespace ? `${node.namespace}/` : ''}${node.name}: ${node.status}`}
        >
          {node.name}
        </PlainLink>
      ) : (
        <span className="truncate font-medium">{node.name}</span>
      )}
      <Handle type="source" position={Position.Right} isConnectable={false} style={hiddenHandle} />
    </div>
  );
});

/** The zoom in steps of 1/40, so a frame's title is drawn again only when its size visibly changes. */
const steppedZoom = (s: { transform: [number, number, number] }) =>
  Math.max(1, Math.round(s.transform[2] * 40)) / 40;

export function GroupNode({ data }: NodeProps<Node<GroupData>>) {
  // 13 px on screen whatever the zoom, as far as the room kept above the members allows.
  const size = Math.max(12, Math.min(13 / useStore(steppedZoom), frameTitleFont(data.room)));
  return (
    <div className="h-full w-full rounded-lg border border-dashed border-slate-400 bg-slate-50/60 dark:border-slate-600 dark:bg-slate-800/40">
      <span
        className="absolute left-3 top-1 max-w-[calc(100%-1.5rem)] truncate font-semibold text-slate-700 dark:text-slate-300"
        style={{ fontSize: size, lineHeight: 1.25 }}
      >
        {data.opens === undefined ? (
          data.title
        ) : (
          // The frame itself lets pointer events through to the pane (it is neither selectable nor draggable).
          <button
            type="button"
            className="nodrag nopan pointer-events-auto font-semibold hover:underline"
            aria-label={`Open the topology of ${data.title}`}
            onClick={() => openNamespace(data.opens as string)}
          >
            {data.title}
          </button>
        )}
        {data.pods > 0 && (
          <span className="font-normal">
            {' '}
            · {counted(data.pods, 'pod')}
            {data.failing > 0 && (
              <span className="text-red-700 dark:text-red-300"> · {data.failing} failing</span>
            )}
          </span>
        )}
      </span>
    </div>
  );
}
