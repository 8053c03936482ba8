import type { KubeObject } from '@binnacle/common';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Badge } from '../../../ui/Badge.tsx';
import { linkLook, mutedLook } from '../../../ui/controls.tsx';
import { Card } from '../../../ui/states.tsx';
import {
  type ContainerStatus,
  endedWords,
  type Probe,
  probeWords,
  quantitiesWords,
  stateWords,
} from './pod-status.ts';
import { When } from './When.tsx';

type Ref = { name?: string; key?: string };
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: Ref;
    configMapKeyRef?: Ref;
    fieldRef?: { fieldPath?: string };
    resourceFieldRef?: { resource?: string };
  };
}
interface EnvFrom {
  prefix?: string;
  configMapRef?: Ref;
  secretRef?: Ref;
}
interface Container {
  name: string;
  image?: string;
  restartPolicy?: string;
  ports?: { name?: string; containerPort: number; protocol?: string }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  env?: EnvVar[];
  envFrom?: EnvFrom[];
  volumeMounts?: { name: string; mountPath: string; subPath?: string; readOnly?: boolean }[];
}
type Volume = { name: string } & Record<string, unknown>;

/**
 * Where an environment variable's value comes from, never the value: a literal may hold a secret someone pasted
 * in, and a Secret's key is named, not read.
 */
function envSource(e: EnvVar): string {
  const from = e.valueFrom;
  if (from?.secretKeyRef) return `Secret ${from.secretKeyRef.name ?? ''} key ${from.secretKeyRef.key ?? ''}`;
  if (from?.configMapKeyRef)
    return `ConfigMap ${from.configMapKeyRef.name ?? ''} key ${from.configMapKeyRef.key ?? ''}`;
  if (from?.fieldRef) return `field ${from.fieldRef.fieldPath ?? ''}`;
  if (from?.resourceFieldRef) return `resource ${from.resourceFieldRef.resource ?? ''}`;
  return 'value';
}

const envFromWords = (e: EnvFrom) =>
  `all of ${e.configMapRef ? `ConfigMap ${e.configMapRef.name ?? ''}` : `Secret ${e.secretRef?.name ?? ''}`}${e.prefix ? ` (prefix ${e.prefix})` : ''}`;

/** A volume's source in words: `ConfigMap app-config`, `PVC data-postgres-0`, `emptyDir`. */
function volumeWords(volume: Volume | undefined): string {
  if (!volume) return '';
  const source = Object.entries(volume).find(([k]) => k !== 'name');
  if (!source) return '';
  const [type, value] = source as [string, Record<string, unknown>];
  const named: Record<string, string> = {
    configMap: `ConfigMap ${String(value.name ?? '')}`,
    secret: `Secret ${String(value.secretName ?? '')}`,
    persistentVolumeClaim: `PVC ${String(value.claimName ?? '')}`,
    hostPath: `hostPath ${String(value.path ?? '')}`,
  };
  return named[type] ?? type;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className={mutedLook}>{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}

const probeNames = [
  ['livenessProbe', 'Liveness'],
  ['readinessProbe', 'Readiness'],
  ['startupProbe', 'Startup'],
] as const;

function ContainerSection({
  container: c,
  status: s,
  kind,
  volumes,
  pod,
}: {
  container: Container;
  status: ContainerStatus | undefined;
  kind: 'init' | 'sidecar' | undefined;
  volumes: Volume[];
  /** Whose pull secrets read the image when its link is followed. */
  pod: { namespace?: string; name?: string };
}) {
  const probes = probeNames.filter(([key]) => c[key]);
  const last = s?.lastState?.terminated;
  return (
    <section aria-label={`Container ${c.name}`} className="py-3 first:pt-0 last:pb-0">
      <h3 className="flex flex-wrap items-center gap-2 text-sm font-semibold">
        <span className="font-mono">{c.name}</span>
        {kind && <Badge tone="muted">{kind === 'init' ? 'init container' : 'sidecar'}</Badge>}
        <Badge tone={s?.state?.running ? 'good' : s?.state?.terminated?.exitCode === 0 ? 'muted' : 'bad'}>
          {stateWords(s?.state)}
        </Badge>
        <span className={`text-xs font-normal ${mutedLook}`}>
          {s?.ready ? 'ready' : 'not ready'} · {s?.restartCount ?? 0} restart
          {s?.restartCount === 1 ? '' : 's'}
        </span>
      </h3>
      <dl className="mt-2 grid grid-cols-[9rem_1fr] gap-x-4 gap-y-1.5 text-sm">
        {s?.state?.waiting?.message && (
          <Row label="Waiting because">
            <span className="font-mono text-xs">{s.state.waiting.message}</span>
          </Row>
        )}
        {s?.state?.running?.startedAt && (
          <Row label="Running since">
            <When at={s.state.running.startedAt} />
          </Row>
        )}
        {last && (
          <Row label="Last state">
            Terminated: {endedWords(last)}
            {last.finishedAt && (
              <>
                , finished <When at={last.finishedAt} />
              </>
            )}
            {last.message && <span className="block font-mono text-xs">{last.message}</span>}
          </Row>
        )}
        <Row label="Image">
          {c.image ? (
            <Link
              to="/images"
              search={{ namespace: pod.namespace, pod: pod.name, image: c.image }}
              className={`font-mono text-xs ${linkLook}`}
              title="Browse the image's files and layers"
            >
              {c.image}
            </Link>
          ) : (
            <span className={mutedLook}>none</span>
          )}
          {s?.imageID && <span className={`block font-mono text-xs ${mutedLook}`}>{s.imageID}</span>}
        </Row>
        {(c.ports ?? []).length > 0 && (
          <Row label="Ports">
            {(c.ports ?? [])
              .map((p) => `${p.containerPort}/${p.protocol ?? 'TCP'}${p.name ? ` (${p.name})` : ''}`)
              .join(', ')}
          </Row>
        )}
        {probes.map(([key, label]) => (
          <Row key={key} label={label}>
            {probeWords(c[key] as Probe)}
          </Row>
        ))}
        <Row label="Requests">{quantitiesWords(c.resources?.requests) ?? 'none'}</Row>
        <Row label="Limits">{quantitiesWords(c.resources?.limits) ?? 'none'}</Row>
        {((c.env ?? []).length > 0 || (c.envFrom ?? []).length > 0) && (
          <Row label="Environment">
            <ul className="flex flex-col gap-0.5">
              {(c.envFrom ?? []).map((e) => (
                <li key={envFromWords(e)}>{envFromWords(e)}</li>
              ))}
              {(c.env ?? []).map((e) => (
                <li key={e.name}>
                  <span className="font-mono text-xs">{e.name}</span>{' '}
                  <span className={`text-xs ${mutedLook}`}>from {envSource(e)}</span>
                </li>
              ))}
            </ul>
          </Row>
        )}
        {(c.volumeMounts ?? []).length > 0 && (
          <Row label="Mounts">
            <ul className="flex flex-col gap-0.5">
              {(c.volumeMounts ?? []).map((m) => (
                <li key={`${m.mountPath}/${m.subPath ?? ''}`}>
                  <span className="font-mono text-xs">{m.mountPath}</span>
                  {m.subPath && <span className="font-mono text-xs"> (subPath {m.subPath})</span>} ← {m.name}{' '}
                  <span className={`text-xs ${mutedLook}`}>
                    {volumeWords(volumes.find((v) => v.name === m.name))}
                    {m.readOnly ? ', read-only' : ''}
                  </span>
                </li>
              ))}
            </ul>
          </Row>
        )}
      </dl>
    </section>
  );
}

/** Every container of the pod, init containers (and sidecars) first, each with its spec beside its status. */
export function PodContainers({ resource }: { resource: KubeObject }) {
  const spec = (resource.spec ?? {}) as {
    initContainers?: Container[];
    containers?: Container[];
    volumes?: Volume[];
  };
  const status = (resource.status ?? {}) as {
    initContainerStatuses?: ContainerStatus[];
    containerStatuses?: ContainerStatus[];
  };
  const all = [
    ...(spec.initContainers ?? []).map((c) => ({
      c,
      kind: c.restartPolicy === 'Always' ? ('sidecar' as const) : ('init' as const),
      s: status.initContainerStatuses?.find((x) => x.name === c.name),
    })),
    ...(spec.containers ?? []).map((c) => ({
      c,
      kind: undefined,
      s: status.containerStatuses?.find((x) => x.name === c.name),
    })),
  ];
  return (
    <Card title="Containers">
      <div className="divide-y divide-slate-100 dark:divide-slate-800">
        {all.map(({ c, kind, s }) => (
          <ContainerSection
            key={`${kind ?? 'main'}/${c.name}`}
            container={c}
            status={s}
            kind={kind}
            volumes={spec.volumes ?? []}
            pod={{ namespace: resource.metadata?.namespace, name: resource.metadata?.name }}
          />
        ))}
      </div>
    </Card>
  );
}
