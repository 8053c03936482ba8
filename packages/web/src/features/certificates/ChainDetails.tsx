import { Badge } from '../../ui/Badge.tsx';
import { mutedLook } from '../../ui/controls.tsx';
import { ObjectLink } from '../../ui/ObjectLink.tsx';
import {
  type Certificate,
  certTone,
  commonNameOf,
  dateOf,
  daysText,
  type ManagedItem,
  type SecretItem,
  sanText,
} from './types.ts';

const facts = 'grid gap-x-4 gap-y-1 text-xs sm:grid-cols-[8rem_1fr]';

/** What a certificate is in the bundle: the leaf, a CA that issues another, or the root it ends at. */
function roleOf(cert: Certificate, index: number, item: SecretItem): string {
  if (index === item.leaf) return 'Leaf';
  if (cert.selfSigned) return 'Root CA';
  return cert.isCA ? 'Intermediate CA' : 'Certificate';
}

function CertificateCard({ cert, role }: { cert: Certificate; role: string }) {
  return (
    <li className="rounded-md border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900">
      <div className="mb-1.5 flex flex-wrap items-center gap-2">
        <span className="text-xs font-semibold tracking-wide uppercase">{role}</span>
        <span className="font-medium">{commonNameOf(cert.subject)}</span>
        {cert.selfSigned && <Badge tone="muted">self-signed</Badge>}
        {cert.isCA && <Badge tone="info">CA</Badge>}
      </div>
      <dl className={facts}>
        <dt className={mutedLook}>Subject</dt>
        <dd className="font-mono break-all">{cert.subject}</dd>
        <dt className={mutedLook}>Issuer</dt>
        <dd className="font-mono break-all">{cert.issuer}</dd>
        {cert.sans.length > 0 && (
          <>
            <dt className={mutedLook}>SANs</dt>
            <dd className="font-mono break-all">{cert.sans.map(sanText).join(', ')}</dd>
          </>
        )}
        <dt className={mutedLook}>Valid</dt>
        <dd>
          {dateOf(cert.notBefore)} → {dateOf(cert.notAfter)}{' '}
          <span className={mutedLook}>({daysText(cert.daysLeft)})</span>
        </dd>
        <dt className={mutedLook}>Serial</dt>
        <dd className="font-mono break-all">{cert.serialNumber}</dd>
        <dt className={mutedLook}>SHA-256</dt>
        <dd className="font-mono break-all">{cert.fingerprint256}</dd>
      </dl>
    </li>
  );
}

/** A TLS Secret's bundle: whether the chain is in order and complete, what is wrong with it, every certificate. */
export function SecretDetails({ item }: { item: SecretItem }) {
  const { chain } = item;
  return (
    <div className="flex flex-col gap-2 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className={`text-xs ${mutedLook}`}>Chain</span>
        <Badge tone={chain.ordered ? 'good' : 'warn'}>{chain.ordered ? 'in order' : 'out of order'}</Badge>
        <Badge tone={chain.complete ? 'good' : 'warn'}>{chain.complete ? 'complete' : 'incomplete'}</Badge>
        <span className={`text-xs ${mutedLook}`}>
          {item.certificates.length} {item.certificates.length === 1 ? 'certificate' : 'certificates'} in
          tls.crt
        </span>
        {item.managedBy && (
          <span className="text-xs">
            written by cert-manager Certificate{' '}
            <ObjectLink kind="Certificate" namespace={item.namespace} name={item.managedBy} />
          </span>
        )}
      </div>
      {chain.problems.length > 0 && (
        <ul aria-label="Chain problems" className="list-disc pl-5 text-xs text-amber-900 dark:text-amber-200">
          {chain.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      {item.certificates.length > 0 && (
        <ol aria-label="Certificates in the bundle" className="grid gap-2 lg:grid-cols-2">
          {item.certificates.map((cert, index) => (
            <CertificateCard key={cert.fingerprint256} cert={cert} role={roleOf(cert, index, item)} />
          ))}
        </ol>
      )}
    </div>
  );
}

/** A cert-manager Certificate: the Secret it writes (and how that Secret stands), readiness and renewal. */
export function ManagedDetails({ item }: { item: ManagedItem }) {
  const yesNo = item.ready === null ? 'unknown' : item.ready ? 'yes' : 'no';
  return (
    <dl className={facts}>
      <dt className={mutedLook}>Secret</dt>
      <dd>
        {item.secretName ? (
          <ObjectLink kind="Secret" namespace={item.namespace} name={item.secretName} />
        ) : (
          '—'
        )}
        {item.secret && (
          <span className="ml-2">
            <Badge tone={certTone[item.secret.severity]}>{item.secret.severity}</Badge>
          </span>
        )}
      </dd>
      <dt className={mutedLook}>DNS names</dt>
      <dd className="font-mono break-all">{item.dnsNames.join(', ') || '—'}</dd>
      <dt className={mutedLook}>Ready</dt>
      <dd>{yesNo}</dd>
      <dt className={mutedLook}>Not after</dt>
      <dd>{item.notAfter ?? '—'}</dd>
      <dt className={mutedLook}>Renewal</dt>
      <dd>{item.renewalTime ?? '—'}</dd>
    </dl>
  );
}
