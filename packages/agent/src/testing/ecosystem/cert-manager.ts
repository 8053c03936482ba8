import {
  ago,
  condition,
  daysAhead,
  type MetadataExtras,
  metadata,
  type StateFixture,
  withStatus,
} from './fixture.ts';

/**
 * cert-manager objects in each state, statuses as cert-manager v1.19.1 writes them: a Certificate's Ready from the
 * readiness controller (pkg/controller/certificates/readiness/readiness_controller.go, reasons in
 * internal/controller/certificates/policies/constants.go), its Issuing from the trigger and issuing controllers
 * (pkg/controller/certificates/issuing/issuing_controller.go: False with the request's reason and "The
 * certificate request has failed to complete and will be retried: …"); a CertificateRequest's Approved and Ready
 * (pkg/apis/certmanager/v1/types_certificaterequest.go); an Issuer's Ready (pkg/issuer/selfsigned/setup.go
 * `IsReady`, pkg/issuer/acme/setup.go `ErrRegisterACMEAccount`); ACME Order and Challenge states
 * (pkg/apis/acme/v1/types_order.go).
 */
const api = 'cert-manager.io/v1';
const acme = 'acme.cert-manager.io/v1';
/** A CSR's PEM header, base64: the request field is bytes, nothing here parses it. */
const request = 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K';
const g1 = { observedGeneration: 1 };

type Status = Record<string, unknown>;

/** The issuer a cert-manager object names. */
export interface IssuerRef {
  name: string;
  kind: 'Issuer' | 'ClusterIssuer';
  group?: string;
}

/** An Issuer, or a ClusterIssuer when no namespace is given, of the issuer type `spec` configures. */
export const issuer = (name: string, namespace: string | undefined, spec: Status, status?: Status) => ({
  apiVersion: api,
  kind: namespace === undefined ? 'ClusterIssuer' : 'Issuer',
  metadata: metadata(name, namespace),
  spec,
  ...withStatus(status),
});

/**
 * A Certificate of `dnsNames` (`<name>.example.com` unless given) from `issuerRef` (ClusterIssuer `letsencrypt`
 * unless given), written to Secret `secretName` (`<name>-tls` unless given).
 */
export const certificate = (
  name: string,
  options: {
    namespace?: string;
    issuerRef?: IssuerRef;
    dnsNames?: string[];
    secretName?: string;
    status?: Status;
  } = {},
) => ({
  apiVersion: api,
  kind: 'Certificate',
  metadata: metadata(name, options.namespace),
  spec: {
    secretName: options.secretName ?? `${name}-tls`,
    issuerRef: options.issuerRef ?? { name: 'letsencrypt', kind: 'ClusterIssuer' },
    dnsNames: options.dnsNames ?? [`${name}.example.com`],
  },
  ...withStatus(options.status),
});

/** A CertificateRequest to `issuerRef` (the Certificate that made it names itself in `extras`). */
export const certificateRequest = (
  name: string,
  namespace: string,
  issuerRef: IssuerRef,
  conditions: object[],
  extras: MetadataExtras = {},
) => ({
  apiVersion: api,
  kind: 'CertificateRequest',
  metadata: metadata(name, namespace, extras),
  spec: { request, issuerRef },
  status: { conditions },
});

/** A CertificateRequest's Approved condition as cert-manager's approver writes it. */
export const approved = condition(
  'Approved',
  'True',
  'cert-manager.io',
  'Certificate request has been approved by cert-manager.io',
);

export function certManagerStates(namespace: string, prefix: string): StateFixture[] {
  const issuerRef: IssuerRef = { name: `${prefix}-issuer`, kind: 'Issuer', group: 'cert-manager.io' };
  const ownCertificate = (name: string, status: Status) =>
    certificate(name, { namespace, issuerRef, status });
  const ownRequest = (name: string, conditions: object[]) =>
    certificateRequest(name, namespace, issuerRef, conditions);
  const order = (name: string, status: Record<string, unknown>) => ({
    apiVersion: acme,
    kind: 'Order',
    metadata: metadata(name, namespace),
    spec: { request, issuerRef, dnsNames: ['shop.example.com'] },
    status: { url: `https://acme.example/order/${name}`, ...status },
  });
  return [
    {
      state: 'healthy',
      object: issuer(
        `${prefix}-issuer`,
        namespace,
        { selfSigned: {} },
        { conditions: [condition('Ready', 'True', 'IsReady', '', g1)] },
      ),
      expected: { health: 'healthy', from: 'Ready', reason: 'IsReady' },
    },
    {
      state: 'failed',
      object: issuer(
        `${prefix}-acme`,
        undefined,
        {
          acme: {
            server: 'https://acme.invalid/directory',
            privateKeySecretRef: { name: `${prefix}-acme-account` },
            solvers: [{ http01: { ingress: { ingressClassName: 'nginx' } } }],
          },
        },
        {
          conditions: [
            condition(
              'Ready',
              'False',
              'ErrRegisterACMEAccount',
              'Failed to register ACME account: dial tcp: lookup acme.invalid: no such host',
              g1,
            ),
          ],
        },
      ),
      expected: { health: 'unhealthy', from: 'Ready', reason: 'ErrRegisterACMEAccount' },
    },
    {
      state: 'healthy',
      object: ownCertificate(`${prefix}-cert`, {
        conditions: [
          condition('Ready', 'True', 'Ready', 'Certificate is up to date and has not expired', g1),
        ],
        notBefore: ago(60 * 24 * 30),
        notAfter: daysAhead(60),
        renewalTime: daysAhead(30),
        revision: 1,
      }),
      expected: { health: 'healthy', from: 'Ready', reason: 'Ready' },
    },
    {
      state: 'progressing',
      object: ownCertificate(`${prefix}-cert-issuing`, {
        conditions: [
          condition('Ready', 'False', 'DoesNotExist', 'Issuing certificate as Secret does not exist', g1),
          condition('Issuing', 'True', 'DoesNotExist', 'Issuing certificate as Secret does not exist', g1),
        ],
      }),
      expected: { health: 'degraded', from: 'Issuing', reason: 'DoesNotExist' },
    },
    {
      state: 'failed',
      object: ownCertificate(`${prefix}-cert-failed`, {
        conditions: [
          condition('Ready', 'False', 'DoesNotExist', 'Issuing certificate as Secret does not exist', g1),
          condition(
            'Issuing',
            'False',
            'Failed',
            'The certificate request has failed to complete and will be retried: Failed to wait for order resource to become ready: order is in "invalid" state',
            g1,
          ),
        ],
        failedIssuanceAttempts: 1,
        lastFailureTime: ago(3),
      }),
      expected: { health: 'unhealthy', from: 'Issuing', reason: 'Failed' },
    },
    {
      state: 'healthy',
      object: ownRequest(`${prefix}-cert-1`, [
        approved,
        condition('Ready', 'True', 'Issued', 'Certificate fetched from issuer successfully'),
      ]),
      expected: { health: 'healthy', from: 'Ready', reason: 'Issued' },
    },
    {
      state: 'progressing',
      object: ownRequest(`${prefix}-cert-issuing-1`, [
        approved,
        condition(
          'Ready',
          'False',
          'Pending',
          `Waiting on certificate issuance from order ${namespace}/${prefix}-order`,
        ),
      ]),
      expected: { health: 'degraded', from: 'Ready', reason: 'Pending' },
    },
    {
      state: 'failed',
      object: ownRequest(`${prefix}-cert-failed-1`, [
        approved,
        condition(
          'Ready',
          'False',
          'Failed',
          'Failed to wait for order resource to become ready: order is in "invalid" state',
        ),
      ]),
      expected: { health: 'unhealthy', from: 'Ready', reason: 'Failed' },
    },
    {
      state: 'progressing',
      object: order(`${prefix}-order`, { state: 'pending' }),
      expected: { health: 'degraded', from: 'state', reason: 'pending' },
    },
    {
      state: 'failed',
      object: order(`${prefix}-order-invalid`, {
        state: 'invalid',
        reason: 'Failed to finalize Order: 403 urn:ietf:params:acme:error:unauthorized',
      }),
      expected: { health: 'unhealthy', from: 'state', reason: 'invalid' },
    },
    {
      state: 'healthy',
      object: order(`${prefix}-order-valid`, { state: 'valid' }),
      expected: { health: 'healthy', from: 'state', reason: 'valid' },
    },
    {
      state: 'failed',
      object: {
        apiVersion: acme,
        kind: 'Challenge',
        metadata: metadata(`${prefix}-challenge`, namespace),
        spec: {
          authorizationURL: 'https://acme.example/authz/1',
          dnsName: 'shop.example.com',
          issuerRef,
          key: 'token.thumbprint',
          solver: { http01: { ingress: { ingressClassName: 'nginx' } } },
          token: 'token',
          type: 'HTTP-01',
          url: 'https://acme.example/chall/1',
        },
        status: {
          processing: false,
          presented: false,
          state: 'invalid',
          reason: 'Error accepting authorization: acme: authorization error for shop.example.com: 403',
        },
      },
      expected: { health: 'unhealthy', from: 'state', reason: 'invalid' },
    },
  ];
}
