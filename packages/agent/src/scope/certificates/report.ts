import type { KubeObject } from '@binnacle/common';
import { type CertManagerEntry, certManagerEntry, secretKey } from './certmanager.ts';
import { parseTlsSecret, type SecretCertificates, tlsSecretType } from './parse.ts';
import { type Severity, severityRank } from './severity.ts';

/** A TLS Secret, with the name of the cert-manager Certificate that writes it (same namespace), if any. */
export type SecretItem = SecretCertificates & { managedBy: string | null };
export type CertificateReportItem = SecretItem | CertManagerEntry;

export interface CertificateReport {
  /** Every TLS Secret and every Certificate, most urgent first. */
  items: CertificateReportItem[];
  /** Counts of `items` (a Secret and the Certificate that writes it count once each). */
  summary: Record<Severity, number> & { total: number };
  /** Whether Certificates were given (cert-manager is installed and readable). */
  certManager: boolean;
}

/**
 * A TLS Secret parsed, kept by object: the cache hands out the same object until the Secret changes, and parsing keys and
 * certificates on every dashboard or topology request would cost milliseconds per Secret. Days left move with the
 * clock, so a parse is reused for a minute at most.
 */
const parsedSecrets = new WeakMap<KubeObject, { at: number; parsed: SecretCertificates }>();
const reuseMs = 60_000;

export function parsedSecret(secret: KubeObject, now: number): SecretCertificates {
  const kept = parsedSecrets.get(secret);
  if (kept && Math.abs(now - kept.at) < reuseMs) return kept.parsed;
  const parsed = parseTlsSecret(secret, now);
  parsedSecrets.set(secret, { at: now, parsed });
  return parsed;
}

const byUrgency = (a: CertificateReportItem, b: CertificateReportItem) =>
  severityRank[a.severity] - severityRank[b.severity] ||
  (a.daysLeft ?? Number.MAX_SAFE_INTEGER) - (b.daysLeft ?? Number.MAX_SAFE_INTEGER) ||
  a.namespace.localeCompare(b.namespace) ||
  a.name.localeCompare(b.name) ||
  a.kind.localeCompare(b.kind);

/**
 * The certificate expiry of every `kubernetes.io/tls` Secret (others are skipped) and, when cert-manager is
 * there, of every Certificate. Pure: `now` (ms since the epoch) decides what has expired.
 */
export function certificateReport(
  secrets: KubeObject[],
  certificates: KubeObject[] | undefined,
  now: number,
): CertificateReport {
  const parsed = secrets.filter((s) => s.type === tlsSecretType).map((s) => parsedSecret(s, now));
  const bySecret = new Map(parsed.map((entry) => [secretKey(entry.namespace, entry.name), entry]));
  const managed = certificates?.map((c) => certManagerEntry(c, bySecret, now)) ?? [];
  const writers = new Map(
    managed.flatMap((c) => (c.secretName === null ? [] : [[secretKey(c.namespace, c.secretName), c.name]])),
  );
  const items: CertificateReportItem[] = [
    ...parsed.map((entry) => ({
      ...entry,
      managedBy: writers.get(secretKey(entry.namespace, entry.name)) ?? null,
    })),
    ...managed,
  ].sort(byUrgency);
  const summary = { total: items.length, ok: 0, warning: 0, critical: 0, expired: 0, invalid: 0 };
  for (const item of items) summary[item.severity] += 1;
  return { items, summary, certManager: certificates !== undefined };
}
