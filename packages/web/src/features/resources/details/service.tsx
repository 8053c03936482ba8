import { Badge } from '../../../ui/Badge.tsx';
import { mutedLook } from '../../../ui/controls.tsx';
import { ObjectLink } from '../../../ui/ObjectLink.tsx';
import { Card } from '../../../ui/states.tsx';
import { Table } from '../../../ui/Table.tsx';
import { Facts, ListState, Selector, SubHeading, useObjects } from './parts.tsx';
import type { KindDetailsProps } from './registry.ts';

interface ServicePort {
  name?: string;
  protocol?: string;
  port: number;
  targetPort?: number | string;
  nodePort?: number;
  appProtocol?: string;
}

interface LoadBalancerIngress {
  ip?: string;
  hostname?: string;
}

/** A load balancer's addresses, as a Service's or an Ingress's status lists them. */
export const loadBalancerAddresses = (status: Record<string, unknown> | undefined) =>
  ((status?.loadBalancer as { ingress?: LoadBalancerIngress[] } | undefined)?.ingress ?? [])
    .map((i) => i.ip ?? i.hostname ?? '')
    .filter(Boolean)
    .join(', ');

/** A Service: how it is reached (type, addresses, ports) and what answers behind it (its endpoints). */
export function ServiceDetails({ resource, namespace = '', name }: KindDetailsProps) {
  const spec = resource.spec ?? {};
  const ports = (spec.ports as ServicePort[] | undefined) ?? [];
  const clusterIPs =
    (spec.clusterIPs as string[] | undefined) ?? (spec.clusterIP ? [String(spec.clusterIP)] : []);
  return (
    <>
      <Card title="Service">
        <Facts
          label="Service facts"
          facts={[
            ['Type', String(spec.type ?? 'ClusterIP')],
            ['Cluster IPs', clusterIPs.join(', ')],
            ['External name', spec.externalName as string | undefined],
            ['External IPs', ((spec.externalIPs as string[] | undefined) ?? []).join(', ')],
            ['Load balancer', loadBalancerAddresses(resource.status)],
            [
              'Session affinity',
              spec.sessionAffinity === 'None' ? undefined : (spec.sessionAffinity as string),
            ],
            ['Traffic policy', spec.externalTrafficPolicy as string | undefined],
            [
              'Selector',
              <Selector
                key="s"
                selector={spec.selector as Record<string, string> | undefined}
                none="none: endpoints are managed by hand"
              />,
            ],
          ]}
        />
        <SubHeading>Ports</SubHeading>
        <Table
          label="Ports"
          columns={['Name', { label: 'Port', right: true }, 'Protocol', 'Target port', 'Node port']}
        >
          {ports.map((p) => (
            <tr key={`${p.protocol}/${p.port}`}>
              <td className="py-1.5 pr-4">{p.name ?? '—'}</td>
              <td className="py-1.5 pr-4 text-right tabular-nums">{p.port}</td>
              <td className="py-1.5 pr-4">{p.protocol ?? 'TCP'}</td>
              <td className="py-1.5 pr-4">→ {p.targetPort ?? p.port}</td>
              <td className="py-1.5 tabular-nums">{p.nodePort ?? '—'}</td>
            </tr>
          ))}
        </Table>
      </Card>
      {spec.type !== 'ExternalName' && <EndpointsCard namespace={namespace} name={name} />}
    </>
  );
}

interface Endpoint {
  addresses: string[];
  conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean };
  targetRef?: { kind?: string; name?: string; namespace?: string };
  nodeName?: string;
  zone?: string;
}

interface EndpointSlice {
  metadata?: { name?: string };
  endpoints?: Endpoint[] | null;
  ports?: { name?: string; port?: number; protocol?: string }[] | null;
}

/** An endpoint's state as the EndpointSlice controller words it: ready, serving while it terminates, or not. */
function endpointState(e: Endpoint) {
  if (e.conditions?.terminating) return <Badge tone="muted">terminating</Badge>;
  if (e.conditions?.ready === false) return <Badge tone="warn">not ready</Badge>;
  return <Badge tone="good">ready</Badge>;
}

/** Every address behind the Service, from its EndpointSlices, with readiness and the pod it belongs to. */
function EndpointsCard({ namespace, name }: { namespace: string; name: string }) {
  const slices = useObjects('endpointslices', namespace, {
    labelSelector: `kubernetes.io/service-name=${name}`,
  });
  const rows = ((slices.data ?? []) as EndpointSlice[]).flatMap((slice) =>
    (slice.endpoints ?? []).map((endpoint) => ({ slice, endpoint })),
  );
  const ready = rows.filter((r) => r.endpoint.conditions?.ready !== false).length;
  return (
    <Card
      title="Endpoints"
      aside={<span className={`text-xs ${mutedLook}`}>{`${ready} of ${rows.length} ready`}</span>}
    >
      <ListState
        query={{ ...slices, data: slices.data && rows }}
        what="its endpoints"
        empty="No endpoints: no ready pod matches the selector."
      >
        <Table label="Endpoints" columns={['Address', 'State', 'Target', 'Node', 'Ports']}>
          {rows.map(({ slice, endpoint }) => (
            <tr key={`${slice.metadata?.name}/${endpoint.addresses.join(',')}`}>
              <td className="py-1.5 pr-4 font-mono text-xs">{endpoint.addresses.join(', ')}</td>
              <td className="py-1.5 pr-4">{endpointState(endpoint)}</td>
              <td className="py-1.5 pr-4">
                {endpoint.targetRef?.name ? (
                  <ObjectLink
                    kind={endpoint.targetRef.kind ?? 'Pod'}
                    namespace={endpoint.targetRef.namespace ?? namespace}
                    name={endpoint.targetRef.name}
                  />
                ) : (
                  '—'
                )}
              </td>
              <td className="py-1.5 pr-4 font-mono text-xs">{endpoint.nodeName ?? '—'}</td>
              <td className="py-1.5 text-xs">
                {(slice.ports ?? [])
                  .map((p) => `${p.name ? `${p.name} ` : ''}${p.port}/${p.protocol ?? 'TCP'}`)
                  .join(', ')}
              </td>
            </tr>
          ))}
        </Table>
      </ListState>
    </Card>
  );
}
