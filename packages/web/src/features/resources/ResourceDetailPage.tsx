import {
  bareTopologyKinds,
  groupOf,
  integrationOf,
  type KubeObject,
  topologyKindName,
} from '@binnacle/common';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { ApiError, get } from '../../api/client.ts';
import { ObjectLink } from '../../ui/ObjectLink.tsx';
import { Card, ErrorMessage, Loading } from '../../ui/states.tsx';
import { CompareLinks } from '../compare/CompareLinks.tsx';
import { YamlCard } from '../editor/YamlCard.tsx';
import { LogViewer } from '../logs/LogViewer.tsx';
import { hasMetrics } from '../metrics/kinds.ts';
import { ActionsCard } from '../operations/ActionsCard.tsx';
import { PortForwardCard } from '../portforward/PortForwardCard.tsx';
import { useWhyNot } from '../shell/use-why-not.ts';
import { ShellOpener } from '../terminal/ShellOpener.tsx';
import { TimeTravelBar } from '../timetravel/TimeTravelBar.tsx';
import { DeletedNotice } from './DeletedNotice.tsx';
import { detailsOfTheObjectAlone, kindDetails } from './details/registry.ts';
import { EventsCard } from './EventsCard.tsx';
import { HealthCard, showsHealthCard } from './HealthCard.tsx';
import { ageOf } from './objects.ts';
import { RelatedCard } from './RelatedCard.tsx';

// The charts load with the first object page that has them: most pages people open first do not.
const ResourceMetrics = lazy(() =>
  import('../metrics/ResourceMetrics.tsx').then((m) => ({ default: m.ResourceMetrics })),
);

/**
 * One object: what it is, who owns it, its labels, its events, and its YAML. With `at` in the URL (time travel),
 * the object as it was then: its YAML, its related objects then and what of its details reads the object alone;
 * nothing live (logs, terminal, metrics, events, actions) and no edits.
 */
export function ResourceDetailPage() {
  const { kind, namespace, name } = useParams({ from: '/resources/$kind/$namespace/$name' });
  const { namespace: filter, at } = useSearch({ from: '/resources/$kind/$namespace/$name' });
  const navigate = useNavigate();
  const scope = namespace === '_' ? undefined : namespace;
  const object = useQuery({
    queryKey: ['resource', kind, namespace, name, at],
    queryFn: ({ signal }) =>
      get('/api/resources/{kind}/{namespace}/{name}', {
        params: { kind, namespace, name },
        query: at ? { at } : {},
        signal,
      }),
    refetchInterval: at ? false : 10_000,
    meta: { showsNotFound: true },
  });
  const timeBar = (
    <TimeTravelBar
      at={at}
      kind={kind}
      onChange={(moment) => void navigate({ to: '.', search: (prev) => ({ ...prev, at: moment }) })}
    />
  );
  // A failed refetch keeps the last answer: an object deleted while its page is open stays shown as it last was.
  const resource = object.data?.resource as KubeObject | undefined;
  const past = at !== undefined;
  const group = groupOf(resource?.apiVersion);
  const whyNot = useWhyNot({ kind: resource?.kind, apiVersion: resource?.apiVersion, namespace: scope });
  const gone = !past && object.error instanceof ApiError && object.error.code === 'not_found';
  const [missedSince, setMissedSince] = useState<number>();
  if (gone && missedSince === undefined) setMissedSince(Date.now());
  if (!gone && missedSince !== undefined) setMissedSince(undefined);
  const deleted = gone && (
    <DeletedNotice
      kind={resource?.kind ?? kind}
      namespace={scope}
      name={name}
      missedSince={missedSince ?? Date.now()}
      lastState={resource !== undefined}
    />
  );
  const back = (
    <Link
      to="/resources/$kind"
      params={{ kind }}
      search={{ namespace: filter }}
      className="text-sm text-teal-800 hover:underline dark:text-teal-300"
    >
      ← all {kind}
    </Link>
  );
  if (object.isPending) return <Loading what={`${kind} ${name}`} />;
  // Only a page that never loaded shows the error in its place: one that did keeps its last state (issue 38).
  if (object.isError && !resource)
    return (
      <div className="mx-auto flex max-w-6xl flex-col gap-3">
        {back}
        {past && timeBar}
        {deleted}
        <ErrorMessage error={object.error} what={`${kind} ${scope ? `${scope}/` : ''}${name}`} />
      </div>
    );
  const meta = resource?.metadata ?? {};
  // A deleted object, or one as it was, has no log, shell or port to open and takes no action.
  const live = !gone && !past;
  const logs = resource && scope && live ? logSource(resource, scope, name) : undefined;
  // Knative's `Service` is no core Service: a built-in kind's details, metrics and port forward are not for it.
  const kindOf =
    resource?.kind &&
    !(resource.kind in bareTopologyKinds && topologyKindName(group, resource.kind) !== resource.kind)
      ? resource.kind
      : undefined;
  const Details = kindOf && (!past || detailsOfTheObjectAlone.has(kindOf)) ? kindDetails[kindOf] : undefined;
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4">
      {back}
      <div className="flex items-baseline justify-between">
        <h1 className="text-xl font-semibold">
          <span className="text-slate-600 dark:text-slate-400">{resource?.kind}</span>{' '}
          {scope ? `${scope}/` : ''}
          {name}
        </h1>
        <div className="flex gap-4">
          <CompareLinks kind={kind} namespace={namespace} name={name} at={at} />
          <Link
            to="/timeline"
            search={{ namespace: scope, kind: resource?.kind, name }}
            className="text-sm text-teal-800 hover:underline dark:text-teal-300"
          >
            History on the timeline →
          </Link>
        </div>
      </div>
      {timeBar}
      {deleted}
      {object.isError && !gone && !past && (
        <p
          role="status"
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-1.5 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
        >
          Could not refresh — showing the state of{' '}
          {new Date(object.dataUpdatedAt).toLocaleTimeString('en-GB')}. It refreshes again on its own.
        </p>
      )}
      {resource && object.data?.health && showsHealthCard(resource) && (
        <HealthCard resource={resource} health={object.data.health} />
      )}
      {resource && live && <ActionsCard resource={resource} namespace={scope} name={name} />}
      <Card title="Summary">
        <dl className="grid grid-cols-[10rem_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-slate-600 dark:text-slate-400">API version</dt>
          <dd className="font-mono text-xs">{resource?.apiVersion}</dd>
          <dt className="text-slate-600 dark:text-slate-400">Age</dt>
          <dd>
            {resource ? ageOf(resource) : '—'} (created {meta.creationTimestamp ?? 'unknown'})
          </dd>
          <dt className="text-slate-600 dark:text-slate-400">Owners</dt>
          <dd className="flex flex-wrap gap-x-3">
            {(meta.ownerReferences ?? []).map((o) => (
              <span key={o.uid ?? `${o.kind}/${o.name}`}>
                <span className="text-xs text-slate-600 dark:text-slate-400">{o.kind}</span>{' '}
                <ObjectLink kind={o.kind} namespace={scope} name={o.name} />
              </span>
            ))}
            {(meta.ownerReferences ?? []).length === 0 && 'none'}
          </dd>
          <dt className="text-slate-600 dark:text-slate-400">Labels</dt>
          <dd className="flex flex-wrap gap-1">
            {Object.entries(meta.labels ?? {}).map(([k, v]) => (
              <span
                key={k}
                className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs dark:bg-slate-800"
              >
                {k}={v}
              </span>
            ))}
            {Object.keys(meta.labels ?? {}).length === 0 && 'none'}
          </dd>
        </dl>
      </Card>
      {resource && Details && <Details resource={resource} namespace={scope} name={name} />}
      {kindOf && resource && !past && hasMetrics(kindOf, scope) && (
        <Suspense fallback={<Loading what="the metrics" />}>
          <ResourceMetrics kind={kindOf} namespace={scope} name={name} resource={resource} />
        </Suspense>
      )}
      {resource?.kind && (scope || integrationOf(group, resource.kind)) && (
        <RelatedCard kind={resource.kind} group={group} namespace={scope} name={name} at={at} />
      )}
      {resource?.kind && !past && <EventsCard kind={resource.kind} namespace={scope} name={name} />}
      {logs && (
        <Card title="Logs">
          {whyNot('logs') ? <p className="text-sm">{whyNot('logs')}</p> : <LogViewer {...logs} />}
        </Card>
      )}
      {(kindOf === 'Pod' || kindOf === 'Service') && scope && live && (
        <PortForwardCard
          type={kindOf === 'Pod' ? 'pod' : 'service'}
          namespace={scope}
          name={name}
          unavailable={whyNot('portForward', `-n ${scope} ${kindOf.toLowerCase()}/${name} <port>`)}
        />
      )}
      {resource?.kind === 'Pod' && scope && logs && (
        <Card title="Terminal">
          <ShellOpener
            path={`/api/pods/${encodeURIComponent(scope)}/${encodeURIComponent(name)}/exec`}
            containers={logs.containers}
            unavailable={whyNot('exec')}
            dockTitle={`Shell: ${name}`}
          />
        </Card>
      )}
      {resource && <YamlCard resource={resource} params={{ kind, namespace, name }} readOnly={!live} />}
    </div>
  );
}

/** The kinds whose pods the agent's workload log stream follows (it takes the Kind as the path's kind). */
const loggedWorkloads = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job']);

type Containers = { name?: string }[] | undefined;

/** Pods stream their own log; workloads the logs of all their pods. Other kinds have none. */
function logSource(resource: KubeObject, namespace: string, name: string) {
  if (resource.kind === 'Pod') {
    const containers = ((resource.spec?.containers as Containers) ?? []).map((c) => c.name ?? '');
    const statuses = (resource.status?.containerStatuses ?? []) as { name: string; restartCount?: number }[];
    const restarts = Object.fromEntries(statuses.map((c) => [c.name, c.restartCount ?? 0]));
    return {
      route: { path: '/api/pods/{namespace}/{name}/logs/stream', params: { namespace, name } } as const,
      name,
      containers,
      previousRuns: { namespace, pod: name, restarts },
    };
  }
  const kind = resource.kind ?? '';
  if (!loggedWorkloads.has(kind)) return undefined;
  const template = resource.spec?.template as { spec?: { containers?: Containers } } | undefined;
  const containers = (template?.spec?.containers ?? []).map((c) => c.name ?? '');
  const route = {
    path: '/api/workloads/{kind}/{namespace}/{name}/logs/stream',
    params: { kind, namespace, name },
  } as const;
  return { route, name, containers, multiPod: true };
}
