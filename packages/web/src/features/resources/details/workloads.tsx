import type { KubeObject } from '@binnacle/common';
import { useQuery } from '@tanstack/react-query';
import { get } from '../../../api/client.ts';
import { Badge } from '../../../ui/Badge.tsx';
import { mutedLook } from '../../../ui/controls.tsx';
import { ObjectLink } from '../../../ui/ObjectLink.tsx';
import { Card, Empty, ErrorMessage, Loading } from '../../../ui/states.tsx';
import { Table } from '../../../ui/Table.tsx';
import { type Condition, type LabelSelector, selectorTerms } from './format.ts';
import {
  ConditionsTable,
  Facts,
  ListState,
  Moment,
  ownedBy,
  PodsTable,
  Selector,
  SubHeading,
  useObjects,
} from './parts.tsx';
import type { KindDetailsProps } from './registry.ts';
import { rolloutStatus, strategyWords } from './rollout.ts';

interface Container {
  name?: string;
  image?: string;
}

/** The containers of a pod template (init containers marked), each with its image. */
export function TemplateImages({ template }: { template: unknown }) {
  const spec = (template as { spec?: { containers?: Container[]; initContainers?: Container[] } } | undefined)
    ?.spec;
  const rows = [
    ...(spec?.initContainers ?? []).map((c) => ({ ...c, init: true })),
    ...(spec?.containers ?? []).map((c) => ({ ...c, init: false })),
  ];
  return (
    <ul aria-label="Container images" className="flex flex-col gap-0.5">
      {rows.map((c) => (
        <li key={`${c.init}/${c.name}`}>
          <span className="font-medium">{c.name}</span>
          {c.init && <span className="text-xs text-slate-600 dark:text-slate-400"> (init)</span>}{' '}
          <span className="font-mono text-xs break-all">{c.image}</span>
        </li>
      ))}
    </ul>
  );
}

const num = (value: unknown) => (typeof value === 'number' ? value : 0);

/** Desired against updated, ready and available, as the READY and UP-TO-DATE columns count them. */
function replicaFacts(o: KubeObject): string {
  const s = o.status ?? {};
  if (o.kind === 'DaemonSet')
    return `${num(s.desiredNumberScheduled)} desired, ${num(s.updatedNumberScheduled)} updated, ${num(s.numberReady)} ready, ${num(s.numberAvailable)} available`;
  const desired = typeof o.spec?.replicas === 'number' ? o.spec.replicas : 1;
  return `${desired} desired, ${num(s.updatedReplicas)} updated, ${num(s.readyReplicas)} ready, ${num(s.availableReplicas)} available`;
}

/** Deployments, StatefulSets, DaemonSets and ReplicaSets: the rollout in words, its revisions and its pods. */
export function WorkloadDetails({ resource, namespace = '', name }: KindDetailsProps) {
  const status = rolloutStatus(resource);
  const meta = resource.metadata as { generation?: number } | undefined;
  const revisions = resource.kind !== 'ReplicaSet';
  return (
    <>
      <Card title="Rollout">
        <div className="mb-3 flex items-center gap-2 text-sm">
          {status && <Badge tone={status.tone}>{status.state}</Badge>}
          <span>{status?.words}</span>
        </div>
        <Facts
          label="Rollout facts"
          facts={[
            ['Replicas', replicaFacts(resource)],
            ['Strategy', strategyWords(resource)],
            ['Selector', <Selector key="s" selector={resource.spec?.selector as Record<string, string>} />],
            ['Images', <TemplateImages key="i" template={resource.spec?.template} />],
            [
              'Generation',
              `${meta?.generation ?? '—'} (observed ${(resource.status?.observedGeneration as number | undefined) ?? '—'})`,
            ],
            [
              'Min ready',
              resource.spec?.minReadySeconds ? `${String(resource.spec.minReadySeconds)}s` : undefined,
            ],
            [
              'Progress deadline',
              resource.spec?.progressDeadlineSeconds
                ? `${String(resource.spec.progressDeadlineSeconds)}s`
                : undefined,
            ],
          ]}
        />
        <SubHeading>Conditions</SubHeading>
        <ConditionsTable conditions={resource.status?.conditions as Condition[] | undefined} />
      </Card>
      {revisions && <RevisionsCard kind={resource.kind ?? ''} namespace={namespace} name={name} />}
      {resource.kind === 'ReplicaSet' ? (
        <OwnedPods owner={resource} namespace={namespace} />
      ) : (
        <WorkloadPods kind={resource.kind ?? ''} namespace={namespace} name={name} />
      )}
    </>
  );
}

/** The revisions the agent keeps for a workload (ReplicaSets or ControllerRevisions), newest first. */
function RevisionsCard({ kind, namespace, name }: { kind: string; namespace: string; name: string }) {
  const revisions = useQuery({
    queryKey: ['revisions', kind, namespace, name],
    queryFn: ({ signal }) =>
      get('/api/workloads/{kind}/{namespace}/{name}/revisions', {
        params: { kind, namespace, name },
        signal,
      }),
    refetchInterval: 15_000,
  });
  return (
    <Card title="Revisions">
      {revisions.isPending ? (
        <Loading what="the revisions" />
      ) : revisions.isError ? (
        <ErrorMessage error={revisions.error} what="the revisions" />
      ) : revisions.data.items.length === 0 ? (
        <Empty>No revisions recorded.</Empty>
      ) : (
        <Table
          label="Revisions"
          columns={[{ label: 'Revision', right: true }, 'Images', 'Change cause', 'Created', 'From']}
        >
          {[...revisions.data.items]
            .sort((a, b) => b.revision - a.revision)
            .map((r) => (
              <tr key={r.revision} className="align-top">
                <td className="py-1.5 pr-4 text-right tabular-nums">
                  {r.revision}
                  {r.current && (
                    <span className="ml-2">
                      <Badge tone="good">current</Badge>
                    </span>
                  )}
                </td>
                <td className="py-1.5 pr-4 font-mono text-xs break-all">{r.images.join(', ')}</td>
                <td className="py-1.5 pr-4">{r.changeCause ?? '—'}</td>
                <td className="py-1.5 pr-4">
                  <Moment at={r.createdAt} />
                </td>
                <td className="py-1.5">
                  <ObjectLink kind={r.source.kind} namespace={namespace} name={r.source.name} />
                </td>
              </tr>
            ))}
        </Table>
      )}
    </Card>
  );
}

/** The pods a Deployment, StatefulSet or DaemonSet selects, as the agent's workload route finds them. */
function WorkloadPods({ kind, namespace, name }: { kind: string; namespace: string; name: string }) {
  const pods = useQuery({
    queryKey: ['workload-pods', kind, namespace, name],
    queryFn: ({ signal }) =>
      get('/api/workloads/{kind}/{namespace}/{name}/pods', { params: { kind, namespace, name }, signal }),
    refetchInterval: 10_000,
  });
  const items = pods.data?.items as KubeObject[] | undefined;
  const cut = pods.data && pods.data.total > pods.data.items.length;
  return (
    <Card
      title="Pods"
      aside={
        cut && (
          <span
            className={`text-xs ${mutedLook}`}
          >{`the first ${items?.length} of ${pods.data?.total}`}</span>
        )
      }
    >
      <ListState query={{ ...pods, data: items }} what="its pods" empty="It has no pods.">
        <PodsTable pods={items ?? []} />
      </ListState>
    </Card>
  );
}

/** The pods an object controls (a ReplicaSet's, a Job's): its namespace's pods whose owner it is. */
export function OwnedPods({ owner, namespace }: { owner: KubeObject; namespace: string }) {
  // The owner's selector narrows the list on the server; the owner reference settles it (selectors may overlap).
  const labelSelector =
    selectorTerms(owner.spec?.selector as LabelSelector | undefined).join(',') || undefined;
  const pods = useObjects('pods', namespace, { labelSelector, keep: ownedBy(owner) });
  return (
    <Card title="Pods">
      <ListState query={pods} what="its pods" empty="It has no pods.">
        <PodsTable pods={pods.data ?? []} />
      </ListState>
    </Card>
  );
}
