import type { KubeObject, TableCell, TableColumn } from '@binnacle/common';
import { arr, column, num, obj, str, strings } from './printers/format.ts';

/**
 * The fields an operator of an ecosystem project reads that its CRD's printer columns leave out (ADR 0126,
 * docs/integrations/), by `group/Kind`. They follow kubectl's columns; a name the CRD already prints is not added
 * twice. Moments still to come (a certificate's expiry) are RFC 3339 text: an age cannot print the future.
 */
export interface OperatorColumn {
  column: TableColumn;
  cell(object: KubeObject): TableCell;
}

const field = (name: string, description: string, cell: OperatorColumn['cell'], priority: 0 | 1 = 0) => ({
  column: column(name, 'string', priority, description),
  cell,
});
const count = (name: string, description: string, cell: (object: KubeObject) => number) => ({
  column: column(name, 'integer', 0, description),
  cell,
});

/** Velero prints an empty namespace list as every namespace. */
const namespaces = (spec: unknown) => strings(obj(spec).includedNamespaces).join(',') || '*';
const status = (object: KubeObject) => obj(object.status);
const spec = (object: KubeObject) => obj(object.spec);

const pausedWithoutCount = (o: KubeObject) => {
  const annotations = o.metadata?.annotations ?? {};
  return (
    annotations['autoscaling.keda.sh/paused'] === 'true' &&
    annotations['autoscaling.keda.sh/paused-replicas'] === undefined
  );
};

const issuerTypes = ['acme', 'ca', 'selfSigned', 'vault', 'venafi'];
const issuerType = field('TYPE', 'how the issuer signs', (o) => issuerTypes.find((t) => t in spec(o)) ?? '');

const routeColumns = [
  field('PARENTS', 'the Gateways the route attaches to', (o) =>
    arr(spec(o).parentRefs)
      .map((ref) => `${str(ref.namespace) ? `${str(ref.namespace)}/` : ''}${str(ref.name)}`)
      .join(','),
  ),
  field('BACKENDS', 'the backends its rules send to', (o) =>
    [
      ...new Set(
        arr(spec(o).rules).flatMap((rule) =>
          arr(rule.backendRefs).map(
            (ref) => `${str(ref.name)}${ref.port === undefined ? '' : `:${num(ref.port)}`}`,
          ),
        ),
      ),
    ].join(','),
  ),
];

const veleroRun = [
  field('PHASE', 'the phase Velero reports', (o) => str(status(o).phase)),
  count('ERRORS', 'errors Velero counted', (o) => num(status(o).errors)),
  count('WARNINGS', 'warnings Velero counted', (o) => num(status(o).warnings)),
];

export const operatorColumns: ReadonlyMap<string, readonly OperatorColumn[]> = new Map([
  [
    'cert-manager.io/Certificate',
    [
      field('NOT AFTER', 'when the certificate expires', (o) => str(status(o).notAfter)),
      field('RENEWAL', 'when cert-manager renews it', (o) => str(status(o).renewalTime), 1),
    ],
  ],
  ['cert-manager.io/Issuer', [issuerType]],
  ['cert-manager.io/ClusterIssuer', [issuerType]],
  ['acme.cert-manager.io/Challenge', [field('TYPE', 'the ACME challenge type', (o) => str(spec(o).type))]],
  [
    'keda.sh/ScaledObject',
    [
      field('HPA', 'the HorizontalPodAutoscaler KEDA made', (o) =>
        // A pause without a count deletes the HPA and leaves its name in the status (docs/integrations/keda.md).
        pausedWithoutCount(o) ? 'none while paused' : str(status(o).hpaName),
      ),
    ],
  ],
  [
    'karpenter.sh/NodePool',
    [
      field('CONSOLIDATION', 'when Karpenter may consolidate nodes', (o) =>
        str(obj(spec(o).disruption).consolidationPolicy),
      ),
    ],
  ],
  [
    'gateway.networking.k8s.io/Gateway',
    [
      field('LISTENERS', 'name:protocol/port of each listener', (o) =>
        arr(spec(o).listeners)
          .map((l) => `${str(l.name)}:${str(l.protocol)}/${num(l.port)}`)
          .join(','),
      ),
      count('ROUTES', 'routes attached to its listeners', (o) =>
        arr(status(o).listeners).reduce((sum, l) => sum + num(l.attachedRoutes), 0),
      ),
    ],
  ],
  ['gateway.networking.k8s.io/HTTPRoute', routeColumns],
  ['gateway.networking.k8s.io/GRPCRoute', routeColumns],
  [
    'velero.io/Backup',
    [
      ...veleroRun,
      field('NAMESPACES', 'the namespaces it covers', (o) => namespaces(o.spec)),
      field('EXPIRES', 'when Velero deletes it', (o) => str(status(o).expiration)),
      field('STORAGE LOCATION', 'where it is kept', (o) => str(spec(o).storageLocation), 1),
    ],
  ],
  [
    'velero.io/Restore',
    [
      ...veleroRun,
      field('BACKUP', 'the backup it restores', (o) => str(spec(o).backupName)),
      field('NAMESPACES', 'the namespaces it restores', (o) => namespaces(o.spec)),
    ],
  ],
  [
    'velero.io/Schedule',
    [field('NAMESPACES', 'the namespaces its backups cover', (o) => namespaces(spec(o).template))],
  ],
  [
    'networking.istio.io/VirtualService',
    [
      field('DESTINATIONS', 'host[:subset] of its routes', (o) =>
        [
          ...new Set(
            ['http', 'tcp', 'tls'].flatMap((protocol) =>
              arr(spec(o)[protocol]).flatMap((route) =>
                arr(route.route).map((r) => {
                  const destination = obj(r.destination);
                  return `${str(destination.host)}${str(destination.subset) ? `:${str(destination.subset)}` : ''}`;
                }),
              ),
            ),
          ),
        ].join(','),
      ),
    ],
  ],
  [
    'networking.istio.io/DestinationRule',
    [
      field('SUBSETS', 'its named subsets', (o) =>
        arr(spec(o).subsets)
          .map((s) => str(s.name))
          .join(','),
      ),
    ],
  ],
]);
