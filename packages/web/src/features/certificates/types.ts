import type { Answer } from '../../api/client.ts';
import type { Tone } from '../../ui/Badge.tsx';

/** The agent's certificate expiry report (`GET /api/secrets/certificate-expiry`, docs/certificates.md). */
export type CertificateReport = Answer<'/api/secrets/certificate-expiry'>;
export type CertificateItem = CertificateReport['items'][number];
export type SecretItem = Extract<CertificateItem, { kind: 'Secret' }>;
export type ManagedItem = Extract<CertificateItem, { kind: 'Certificate' }>;
export type Certificate = SecretItem['certificates'][number];
export type CertSeverity = CertificateItem['severity'];

/** The certificates page's URL: a severity to keep and a text filter. */
export interface CertificatesSearch {
  q?: string;
  severity?: CertSeverity;
}

/** Most urgent first, as the agent orders the items. */
export const certSeverities: readonly CertSeverity[] = ['expired', 'invalid', 'critical', 'warning', 'ok'];
export const certTone: Record<CertSeverity, Tone> = {
  expired: 'severe',
  invalid: 'severe',
  critical: 'bad',
  warning: 'warn',
  ok: 'good',
};

/** The certificate a Secret serves (the leaf), when its data parsed. */
export const leafOf = (item: SecretItem): Certificate | undefined =>
  item.leaf === null ? undefined : item.certificates[item.leaf];

/** `9 days`, `1 day`, `today`, `expired 3 days ago`; `—` when there is no date. */
export function daysText(days: number | null): string {
  if (days === null) return '—';
  if (days < 0) return `expired ${-days} ${-days === 1 ? 'day' : 'days'} ago`;
  if (days === 0) return 'today';
  return `${days} ${days === 1 ? 'day' : 'days'}`;
}

/** The date part of an RFC 3339 time (`2026-12-05`); `—` without one. */
export const dateOf = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : '—');

/** A distinguished name's CN (`CN=legacy.demo,O=Acme` → `legacy.demo`), else the whole name. */
export function commonNameOf(dn: string): string {
  return /(?:^|,\s*)CN=([^,]+)/.exec(dn)?.[1] ?? dn;
}

/** SANs as people read them: DNS names bare, other kinds with their prefix (`IP:10.0.0.1`). */
export const sanText = (san: string) => san.replace(/^DNS:/, '');

/** The names an item stands for: its leaf's SANs or common name, or a Certificate's DNS names. */
export function namesOf(item: CertificateItem): { main: string | undefined; sans: string[] } {
  if (item.kind === 'Certificate') return { main: item.dnsNames[0], sans: item.dnsNames };
  const leaf = leafOf(item);
  return { main: leaf?.commonName ?? leaf?.subject, sans: (leaf?.sans ?? []).map(sanText) };
}

/** Whether the filter text is in the item's namespace, name, names or issuer (any case). */
export function itemMatches(item: CertificateItem, q?: string): boolean {
  if (!q) return true;
  const { main, sans } = namesOf(item);
  const issuer = item.kind === 'Secret' ? (leafOf(item)?.issuer ?? '') : '';
  return [`${item.namespace}/${item.name}`, main ?? '', ...sans, issuer].some((text) =>
    text.toLowerCase().includes(q.toLowerCase()),
  );
}
