import { Type } from 'typebox';

// The report of ./report.ts as the API answers it: whole from the certificates route, its summary on the dashboard.

const Severity = Type.Union(
  ['ok', 'warning', 'critical', 'expired', 'invalid'].map((s) => Type.Literal(s)),
  {
    description:
      'from the leaf: expired (past notAfter), critical (≤ 7 days), warning (≤ 30 days), ok; invalid: unusable data',
  },
);
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
const Days = Type.Union([
  Type.Integer({ description: 'whole days left, negative once expired' }),
  Type.Null(),
]);

const Certificate = Type.Object({
  subject: Type.String(),
  commonName: Nullable(Type.String()),
  sans: Type.Array(Type.String(), { description: 'DNS:…, IP:…, URI:…, email:…' }),
  issuer: Type.String(),
  serialNumber: Type.String(),
  notBefore: Type.String(),
  notAfter: Type.String(),
  daysLeft: Type.Integer(),
  isCA: Type.Boolean(),
  selfSigned: Type.Boolean(),
  fingerprint256: Type.String(),
});

const SecretItem = Type.Object({
  kind: Type.Literal('Secret'),
  namespace: Type.String(),
  name: Type.String(),
  type: Type.String(),
  certificates: Type.Array(Certificate),
  leaf: Type.Union([Type.Integer(), Type.Null()]),
  notAfter: Nullable(Type.String()),
  daysLeft: Days,
  chain: Type.Object({
    ordered: Type.Boolean(),
    complete: Type.Boolean(),
    problems: Type.Array(Type.String()),
  }),
  severity: Severity,
  problems: Type.Array(Type.String()),
  managedBy: Nullable(Type.String({ description: 'the cert-manager Certificate that writes this Secret' })),
});

const CertificateItem = Type.Object({
  kind: Type.Literal('Certificate'),
  namespace: Type.String(),
  name: Type.String(),
  secretName: Nullable(Type.String()),
  dnsNames: Type.Array(Type.String()),
  notAfter: Nullable(Type.String()),
  renewalTime: Nullable(Type.String()),
  ready: Type.Union([Type.Boolean(), Type.Null()]),
  daysLeft: Days,
  severity: Severity,
  problems: Type.Array(Type.String()),
  secret: Type.Union([
    Type.Object({
      name: Type.String(),
      severity: Severity,
      notAfter: Nullable(Type.String()),
      fingerprint256: Nullable(Type.String()),
    }),
    Type.Null(),
  ]),
});

/** How many certificates are in each severity (a Secret and the Certificate that writes it count once each). */
export const CertificateSummary = Type.Object({
  total: Type.Integer(),
  ok: Type.Integer(),
  warning: Type.Integer(),
  critical: Type.Integer(),
  expired: Type.Integer(),
  invalid: Type.Integer(),
});

export const CertificateReport = Type.Object({
  items: Type.Array(Type.Union([SecretItem, CertificateItem]), { description: 'most urgent first' }),
  summary: CertificateSummary,
  certManager: Type.Boolean({
    description: "cert-manager's Certificates were read (the CRD is served and readable)",
  }),
  loading: Type.Array(Type.String()),
});
