import type { KubeObject } from '@binnacle/common';
import { checkCatalogue } from '../../scope/audit/checks/catalogue.ts';
import { objectKey } from '../../scope/audit/report.ts';
import type { Danger } from '../../scope/audit/tally.ts';
import type { CertificateReport, CertificateReportItem } from '../../scope/certificates/report.ts';
import { type Problem, problemAge } from './problems.ts';

type Objects = Map<string, KubeObject>;

/** The objects by `kind/namespace/name`, to give a finding its object's age. */
export function objectsByKey(objects: KubeObject[]): Objects {
  return new Map(
    objects.map((o) => [
      objectKey({ kind: o.kind ?? '', namespace: o.metadata?.namespace, name: o.metadata?.name ?? '' }),
      o,
    ]),
  );
}

const certificateReason = {
  expired: 'CertificateExpired',
  invalid: 'CertificateInvalid',
  critical: 'CertificateExpiring',
} as const;

function certificateMessage(item: CertificateReportItem): string {
  if (item.severity === 'invalid') return item.problems[0] ?? 'the certificate cannot be read';
  const subject =
    item.kind === 'Secret'
      ? (item.certificates[item.leaf ?? 0]?.commonName ?? item.certificates[item.leaf ?? 0]?.subject)
      : item.dnsNames[0];
  const days = item.daysLeft ?? 0;
  const when =
    days < 0
      ? `expired ${-days} day${days === -1 ? '' : 's'} ago`
      : `expires in ${days} day${days === 1 ? '' : 's'}`;
  return `the certificate${subject ? ` for ${subject}` : ''} ${when} (not after ${item.notAfter})`;
}

/**
 * Certificates that are broken or break within the critical window. A Certificate whose Secret is among the items
 * is told by that Secret; warnings (within 30 days) stay in the counts.
 */
export function certificateProblems(report: CertificateReport, objects: Objects, now: number): Problem[] {
  return report.items.flatMap((item) => {
    if (item.severity === 'ok' || item.severity === 'warning') return [];
    if (item.kind === 'Certificate' && item.secret) return [];
    const object = objects.get(objectKey(item));
    return [
      {
        kind: item.kind,
        namespace: item.namespace,
        name: item.name,
        status: item.severity,
        reason: certificateReason[item.severity],
        message: certificateMessage(item),
        ageSeconds: object ? problemAge(object, now) : 0,
        source: 'certificate' as const,
      },
    ];
  });
}

/** One problem per danger finding (object and check), named by its check; warnings stay in the counts. */
export function auditProblems(dangers: Danger[], now: number): Problem[] {
  return dangers.map(({ finding, object }) => ({
    kind: finding.kind,
    ...(finding.namespace ? { namespace: finding.namespace } : {}),
    name: finding.name,
    status: 'danger',
    reason: checkCatalogue.get(finding.checkId)?.title ?? finding.checkId,
    message: finding.message,
    ageSeconds: problemAge(object, now),
    source: 'audit' as const,
    check: finding.checkId,
  }));
}
