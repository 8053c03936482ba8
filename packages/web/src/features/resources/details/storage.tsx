import type { KubeObject } from '@binnacle/common';
import { Badge } from '../../../ui/Badge.tsx';
import { ObjectLink } from '../../../ui/ObjectLink.tsx';
import { Card } from '../../../ui/states.tsx';
import { Chips, Facts, ListState, ObjectList, PodsTable, SubHeading, useObjects } from './parts.tsx';
import type { KindDetailsProps } from './registry.ts';
import { accessModes, claimsOf } from './words.ts';

const phaseTone = (phase: unknown) =>
  phase === 'Bound' ? 'good' : phase === 'Available' || phase === 'Pending' ? 'info' : 'bad';

const Phase = ({ phase }: { phase: unknown }) => (
  <Badge tone={phaseTone(phase)}>{String(phase ?? 'Unknown')}</Badge>
);

const storage = (o: unknown) => (o as { storage?: string } | undefined)?.storage;

/** A claim: what it asked for against what it got, where from, and the pods that mount it. */
export function ClaimDetails({ resource, namespace = '', name }: KindDetailsProps) {
  const spec = resource.spec ?? {};
  const requested = storage((spec.resources as { requests?: unknown } | undefined)?.requests);
  const capacity = storage(resource.status?.capacity);
  const className = spec.storageClassName as string | undefined;
  const volume = spec.volumeName as string | undefined;
  const pods = useObjects('pods', namespace, { keep: (p) => claimsOf(p).includes(name) });
  const mounting = pods.data ?? [];
  return (
    <>
      <Card title="Claim">
        <Facts
          label="Claim facts"
          facts={[
            ['Phase', <Phase key="p" phase={resource.status?.phase} />],
            ['Capacity', `${capacity ?? 'none yet'} (requested ${requested ?? '—'})`],
            ['Access modes', accessModes(resource.status?.accessModes ?? spec.accessModes)],
            ['Volume mode', spec.volumeMode as string | undefined],
            [
              'Storage class',
              className ? (
                <ObjectLink key="c" kind="StorageClass" name={className} />
              ) : (
                'none (static binding)'
              ),
            ],
            [
              'Volume',
              volume ? <ObjectLink key="v" kind="PersistentVolume" name={volume} /> : 'not bound yet',
            ],
          ]}
        />
      </Card>
      <Card title="Mounted by">
        <ListState query={pods} what="the pods" empty="No pod mounts this claim.">
          <PodsTable pods={mounting} label="Pods mounting it" />
        </ListState>
      </Card>
    </>
  );
}

/** Which of the in-tree or CSI sources backs a volume (`csi: ebs.csi.aws.com`, `hostPath: /data`). */
function volumeSource(spec: Record<string, unknown>): string | undefined {
  const csi = spec.csi as { driver?: string; volumeHandle?: string } | undefined;
  if (csi) return `CSI ${csi.driver ?? ''} (${csi.volumeHandle ?? ''})`;
  const hostPath = spec.hostPath as { path?: string } | undefined;
  if (hostPath) return `host path ${hostPath.path ?? ''}`;
  const local = spec.local as { path?: string } | undefined;
  if (local) return `local ${local.path ?? ''}`;
  const nfs = spec.nfs as { server?: string; path?: string } | undefined;
  if (nfs) return `NFS ${nfs.server ?? ''}:${nfs.path ?? ''}`;
  return undefined;
}

/** A volume: capacity, how it may be used, what becomes of it when released, and the claim it is bound to. */
export function VolumeDetails({ resource }: KindDetailsProps) {
  const spec = resource.spec ?? {};
  const claim = spec.claimRef as { namespace?: string; name?: string } | undefined;
  const className = spec.storageClassName as string | undefined;
  return (
    <Card title="Volume">
      <Facts
        label="Volume facts"
        facts={[
          ['Phase', <Phase key="p" phase={resource.status?.phase} />],
          ['Capacity', storage(spec.capacity)],
          ['Access modes', accessModes(spec.accessModes)],
          ['Reclaim policy', spec.persistentVolumeReclaimPolicy as string | undefined],
          ['Storage class', className ? <ObjectLink key="c" kind="StorageClass" name={className} /> : 'none'],
          [
            'Claim',
            claim?.name ? (
              <ObjectLink
                key="b"
                kind="PersistentVolumeClaim"
                namespace={claim.namespace}
                name={claim.name}
              />
            ) : (
              'unclaimed'
            ),
          ],
          ['Source', volumeSource(spec)],
          ['Reason', resource.status?.message as string | undefined],
        ]}
      />
    </Card>
  );
}

/** A StorageClass: who provisions it, how, and the claims that use it. */
export function StorageClassDetails({ resource, name }: KindDetailsProps) {
  const claims = useObjects('persistentvolumeclaims', undefined, {
    keep: (c: KubeObject) => c.spec?.storageClassName === name,
  });
  const using = claims.data ?? [];
  const parameters = Object.entries((resource.parameters as Record<string, string> | undefined) ?? {});
  const isDefault =
    resource.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true';
  return (
    <Card title="Storage class">
      <Facts
        label="Storage class facts"
        facts={[
          [
            'Provisioner',
            <span key="p" className="font-mono text-xs">
              {String(resource.provisioner ?? '—')}
            </span>,
          ],
          ['Default class', isDefault ? 'yes' : 'no'],
          ['Reclaim policy', String(resource.reclaimPolicy ?? 'Delete')],
          ['Binding mode', String(resource.volumeBindingMode ?? 'Immediate')],
          ['Expansion', resource.allowVolumeExpansion ? 'allowed' : 'not allowed'],
          ['Parameters', <Chips key="a" terms={parameters.map(([k, v]) => `${k}=${v}`)} />],
        ]}
      />
      <SubHeading>Claims using it</SubHeading>
      <ListState query={claims} what="the claims" empty="No claim uses this class.">
        <ObjectList objects={using} label="Claims using it" />
      </ListState>
    </Card>
  );
}
