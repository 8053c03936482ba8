import type { KubeObject } from '@binnacle/common';
import type { SecretCertificates } from './parse.ts';
import { daysLeft, obj, type Severity, severityOf, str } from './severity.ts';

/** The Secret a Certificate writes, as found among the parsed TLS Secrets (same namespace). */
export interface SecretLink {
  name: string;
  severity: Severity;
  /** The leaf's, from the Secret itself. */
  notAfter: string | null;
  fingerprint256: string | null;
}

/** A cert-manager.io/v1 Certificate. */
export interface CertManagerEntry {
  kind: 'Certificate';
  namespace: string;
  name: string;
  secretName: string | null;
  dnsNames: string[];
  /** ISO 8601, from status (as cert-manager writes it). */
  notAfter: string | null;
  renewalTime: string | null;
  /** The Ready condition; null while there is none. */
  ready: boolean | null;
  daysLeft: number | null;
  /** From status.notAfter by the same thresholds as Secrets; `invalid` while there is no notAfter to judge by. */
  severity: Severity;
  /** What is off (not ready, renewal overdue, the Secret missing or disagreeing); only a missing notAfter is invalid. */
  problems: string[];
  /** The Secret's parsed entry, when it is among the TLS Secrets. */
  secret: SecretLink | null;
}

/** The key of a Secret among parsed entries: `namespace/name`. */
export const secretKey = (namespace: string, name: string) => `${namespace}/${name}`;

function readyOf(status: Record<string, unknown>): { ready: boolean | null; problem?: string } {
  const conditions = Array.isArray(status.conditions) ? status.conditions.map(obj) : [];
  const condition = conditions.find((c) => c.type === 'Ready');
  if (!condition) return { ready: null, problem: 'no Ready condition yet' };
  if (condition.status === 'True') return { ready: true };
  const why = [str(condition.reason), str(condition.message)].filter(Boolean).join(': ');
  return {
    ready: condition.status === 'False' ? false : null,
    problem: `not Ready${why ? ` (${why})` : ''}`,
  };
}

function linkOf(entry: SecretCertificates): SecretLink {
  const leaf = entry.leaf === null ? undefined : entry.certificates[entry.leaf];
  return {
    name: entry.name,
    severity: entry.severity,
    notAfter: entry.notAfter,
    fingerprint256: leaf?.fingerprint256 ?? null,
  };
}

/** What the Secret says against what the Certificate's status says. */
function secretProblems(link: SecretLink | null, secretName: string, notAfter: number): string[] {
  if (!link) return [`Secret ${secretName} not found among kubernetes.io/tls Secrets`];
  const problems: string[] = [];
  if (link.severity === 'invalid') problems.push(`Secret ${secretName} is invalid`);
  if (link.notAfter && !Number.isNaN(notAfter) && Date.parse(link.notAfter) !== notAfter) {
    problems.push(
      `Secret ${secretName} holds a certificate valid until ${link.notAfter}, not status.notAfter`,
    );
  }
  return problems;
}

/**
 * Reads a cert-manager Certificate and links it to its Secret among `secrets` (parsed entries by
 * {@link secretKey}). Never throws.
 */
export function certManagerEntry(
  certificate: KubeObject,
  secrets: ReadonlyMap<string, SecretCertificates>,
  now: number,
): CertManagerEntry {
  const namespace = certificate.metadata?.namespace ?? '';
  const spec = obj(certificate.spec);
  const status = obj(certificate.status);
  const secretName = str(spec.secretName) ?? null;
  const notAfter = str(status.notAfter) ?? null;
  const renewalTime = str(status.renewalTime) ?? null;
  const notAfterMs = notAfter === null ? Number.NaN : Date.parse(notAfter);
  const days = Number.isNaN(notAfterMs) ? null : daysLeft(notAfterMs, now);
  const { ready, problem } = readyOf(status);
  const problems = problem ? [problem] : [];
  if (notAfter === null) problems.push('not issued yet: no status.notAfter');
  else if (days === null) problems.push('status.notAfter is not a date');
  const renewal = renewalTime === null ? Number.NaN : Date.parse(renewalTime);
  if (renewal < now) problems.push(`renewal overdue since ${renewalTime}`);
  const found = secretName === null ? undefined : secrets.get(secretKey(namespace, secretName));
  const secret = found ? linkOf(found) : null;
  if (secretName === null) problems.push('spec.secretName is missing');
  else problems.push(...secretProblems(secret, secretName, notAfterMs));
  return {
    kind: 'Certificate',
    namespace,
    name: certificate.metadata?.name ?? '',
    secretName,
    dnsNames: Array.isArray(spec.dnsNames)
      ? spec.dnsNames.filter((n): n is string => typeof n === 'string')
      : [],
    notAfter,
    renewalTime,
    ready,
    daysLeft: days,
    severity: days === null ? 'invalid' : severityOf(days),
    problems,
    secret,
  };
}
