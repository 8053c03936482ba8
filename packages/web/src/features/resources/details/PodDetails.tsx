import { podStatusText, podTone } from '@binnacle/common';
import { Badge, statusBadgeTone } from '../../../ui/Badge.tsx';
import { mutedLook } from '../../../ui/controls.tsx';
import { ObjectLink } from '../../../ui/ObjectLink.tsx';
import { Card } from '../../../ui/states.tsx';
import { Conditions } from './Conditions.tsx';
import type { Condition } from './format.ts';
import { PodContainers } from './PodContainers.tsx';
import { type ContainerStatus, type ContainerTrouble, containerTroubles, endedWords } from './pod-status.ts';
import type { KindDetailsProps } from './registry.ts';
import { When } from './When.tsx';

/** One failing container: what it is doing now and how its previous run ended, in the kubelet's words. */
function Trouble({ t }: { t: ContainerTrouble }) {
  return (
    <li className="py-1.5">
      <span className="font-medium">
        {t.init ? 'Init container' : 'Container'} <span className="font-mono">{t.container}</span>
      </span>
      {t.now && (
        <>
          {' '}
          is <span className="font-semibold text-red-800 dark:text-red-300">{t.now.reason}</span>
          {t.now.exitCode !== undefined && ` (${endedWords(t.now)})`}
          {t.now.message && <span className="block font-mono text-xs break-words">{t.now.message}</span>}
        </>
      )}
      {t.last && (
        <span className="block">
          Last run ended: <span className="font-semibold">{endedWords(t.last)}</span>{' '}
          {t.last.finishedAt && (
            <>
              (<When at={t.last.finishedAt} />)
            </>
          )}
          {t.last.message && <span className="block font-mono text-xs break-words">{t.last.message}</span>}
        </span>
      )}
      <span className={`block text-xs ${mutedLook}`}>
        Restarted {t.restarts} time{t.restarts === 1 ? '' : 's'}
      </span>
    </li>
  );
}

interface PodFields {
  phase?: string;
  reason?: string;
  message?: string;
  podIP?: string;
  podIPs?: { ip: string }[];
  hostIP?: string;
  qosClass?: string;
  startTime?: string;
  conditions?: Condition[];
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
}

/** The latest restart of any container: when its previous run finished. */
function lastRestart(statuses: ContainerStatus[]): string | undefined {
  const times = statuses
    .filter((c) => (c.restartCount ?? 0) > 0)
    .map((c) => c.lastState?.terminated?.finishedAt)
    .filter((t): t is string => Boolean(t))
    .sort();
  return times.at(-1);
}

/**
 * A pod's page, as Headlamp's and `kubectl describe pod` tell it: the STATUS kubectl would print and why (the
 * failing containers' reasons, messages, exit codes), where it runs, its conditions, then every container.
 */
export function PodDetails({ resource, namespace }: KindDetailsProps) {
  const status = (resource.status ?? {}) as PodFields;
  const spec = (resource.spec ?? {}) as {
    nodeName?: string;
    serviceAccountName?: string;
    priorityClassName?: string;
  };
  const text = podStatusText(resource);
  const troubles = containerTroubles(resource);
  const statuses = [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])];
  const restarts = statuses.reduce((sum, c) => sum + (c.restartCount ?? 0), 0);
  const restartedAt = lastRestart(statuses);
  const unschedulable = (status.conditions ?? []).find(
    (c) => c.type === 'PodScheduled' && c.status === 'False' && c.message,
  );
  const ips = status.podIPs?.map((p) => p.ip) ?? (status.podIP ? [status.podIP] : []);
  const row = (label: string, value: React.ReactNode) => (
    <>
      <dt className={mutedLook}>{label}</dt>
      <dd>{value}</dd>
    </>
  );
  return (
    <>
      <Card title="Status">
        <div className="flex flex-wrap items-center gap-3">
          <Badge tone={statusBadgeTone[podTone(text)]}>{text}</Badge>
          <span className={`text-sm ${mutedLook}`}>phase {status.phase ?? 'unknown'}</span>
        </div>
        {(status.reason || status.message) && (
          <p className="mt-2 text-sm">
            {status.reason && <span className="font-semibold">{status.reason}: </span>}
            {status.message}
          </p>
        )}
        {unschedulable && (
          <p className="mt-2 text-sm">
            <span className="font-semibold">{unschedulable.reason ?? 'Not scheduled'}: </span>
            {unschedulable.message}
          </p>
        )}
        {troubles.length > 0 && (
          <div className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-1 text-sm dark:border-red-900 dark:bg-red-950">
            <h3 className="pt-1 text-xs font-semibold tracking-wide text-red-900 uppercase dark:text-red-200">
              Why
            </h3>
            <ul aria-label="Why it fails" className="divide-y divide-red-100 dark:divide-red-900">
              {troubles.map((t) => (
                <Trouble key={`${t.init}/${t.container}`} t={t} />
              ))}
            </ul>
          </div>
        )}
        <dl className="mt-4 grid grid-cols-[10rem_1fr] gap-x-4 gap-y-2 text-sm">
          {row('Node', spec.nodeName ? <ObjectLink kind="Node" name={spec.nodeName} /> : 'not scheduled')}
          {row(
            'Pod IP',
            ips.length > 0 ? <span className="font-mono text-xs">{ips.join(', ')}</span> : 'none',
          )}
          {row('Host IP', <span className="font-mono text-xs">{status.hostIP ?? 'none'}</span>)}
          {row('QoS class', status.qosClass ?? 'unknown')}
          {row(
            'Service account',
            namespace && spec.serviceAccountName ? (
              <ObjectLink kind="ServiceAccount" namespace={namespace} name={spec.serviceAccountName} />
            ) : (
              (spec.serviceAccountName ?? 'default')
            ),
          )}
          {spec.priorityClassName && row('Priority class', spec.priorityClassName)}
          {row(
            'Restarts',
            <>
              {restarts}
              {restarts > 0 && restartedAt && (
                <>
                  {' '}
                  (last <When at={restartedAt} />)
                </>
              )}
            </>,
          )}
          {row('Started', status.startTime ? <When at={status.startTime} /> : 'not yet')}
        </dl>
        <h3 className="mt-4 mb-2 text-sm font-medium">Conditions</h3>
        <Conditions conditions={status.conditions ?? []} bad={(c) => c.status !== 'True'} />
      </Card>
      <PodContainers resource={resource} />
    </>
  );
}
