import type { KubeObject } from '@binnacle/common';
import { Badge } from '../../../ui/Badge.tsx';
import { ObjectLink } from '../../../ui/ObjectLink.tsx';
import { Card, Empty } from '../../../ui/states.tsx';
import { Table } from '../../../ui/Table.tsx';
import { Facts, KindLink, SubHeading, useObjects } from './parts.tsx';
import type { KindDetailsProps } from './registry.ts';
import { loadBalancerAddresses } from './service.tsx';
import { type Backend, backendProblem } from './words.ts';

interface Rule {
  host?: string;
  http?: { paths?: { path?: string; pathType?: string; backend: Backend }[] };
}

/** A backend as a link to its Service and the port, flagged when the Service or the port is missing. */
function BackendCell({
  backend,
  namespace,
  services,
}: {
  backend: Backend;
  namespace: string;
  services?: KubeObject[];
}) {
  if (backend.resource)
    return <KindLink kind={backend.resource.kind} namespace={namespace} name={backend.resource.name} />;
  if (!backend.service) return <span>—</span>;
  const port = backend.service.port?.name ?? backend.service.port?.number;
  const problem = services && backendProblem(backend, services);
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <span>
        <ObjectLink kind="Service" namespace={namespace} name={backend.service.name} />
        <span className="font-mono text-xs">:{port ?? '—'}</span>
      </span>
      {problem && <Badge tone="bad">{problem}</Badge>}
    </span>
  );
}

/** An Ingress: its class and address, TLS, and each rule down to the Service and port that answers it. */
export function IngressDetails({ resource, namespace = '' }: KindDetailsProps) {
  const spec = resource.spec ?? {};
  const services = useObjects('services', namespace);
  const rules = (spec.rules as Rule[] | undefined) ?? [];
  const tls = (spec.tls as { hosts?: string[]; secretName?: string }[] | undefined) ?? [];
  const defaultBackend = spec.defaultBackend as Backend | undefined;
  const paths = rules.flatMap((rule) =>
    (rule.http?.paths ?? []).map((path) => ({ host: rule.host ?? '*', ...path })),
  );
  return (
    <Card title="Ingress">
      <Facts
        label="Ingress facts"
        facts={[
          [
            'Class',
            (spec.ingressClassName as string | undefined) ??
              resource.metadata?.annotations?.['kubernetes.io/ingress.class'] ??
              'none (the cluster default)',
          ],
          ['Address', loadBalancerAddresses(resource.status) || 'not assigned yet'],
          [
            'Default backend',
            defaultBackend && (
              <BackendCell key="d" backend={defaultBackend} namespace={namespace} services={services.data} />
            ),
          ],
        ]}
      />
      <SubHeading>Rules</SubHeading>
      {paths.length === 0 ? (
        <Empty>No rules: everything goes to the default backend.</Empty>
      ) : (
        <Table label="Rules" columns={['Host', 'Path', 'Path type', 'Backend']}>
          {paths.map((p) => (
            <tr key={`${p.host}${p.path}`}>
              <td className="py-1.5 pr-4 font-mono text-xs">{p.host}</td>
              <td className="py-1.5 pr-4 font-mono text-xs">{p.path ?? '/'}</td>
              <td className="py-1.5 pr-4">{p.pathType ?? '—'}</td>
              <td className="py-1.5">
                <BackendCell backend={p.backend} namespace={namespace} services={services.data} />
              </td>
            </tr>
          ))}
        </Table>
      )}
      {tls.length > 0 && (
        <>
          <SubHeading>TLS</SubHeading>
          <Table label="TLS" columns={['Hosts', 'Secret']}>
            {tls.map((t) => (
              <tr key={`${t.secretName}/${(t.hosts ?? []).join(',')}`}>
                <td className="py-1.5 pr-4 font-mono text-xs">{(t.hosts ?? []).join(', ') || 'all hosts'}</td>
                <td className="py-1.5">
                  {t.secretName ? (
                    <ObjectLink kind="Secret" namespace={namespace} name={t.secretName} />
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </Table>
        </>
      )}
    </Card>
  );
}
