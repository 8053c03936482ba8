import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { CertSeverity } from '../certificates/types.ts';
import type { Dashboard } from './DashboardPage.tsx';

export type ProblemGroup = Dashboard['problemGroups'][number];

/** The pods table filtered by kubectl's status texts: `status=CrashLoopBackOff,Error`, as the Resources page reads it. */
export function PodsLink({
  statuses,
  className,
  children,
}: {
  statuses: readonly string[];
  className?: string;
  children: ReactNode;
}) {
  // Spread, not written out: the Resources page owns its search params and takes `status` (ADR 0057).
  const filter = { status: statuses.join(',') };
  return (
    <Link
      to="/resources/$kind"
      params={{ kind: 'pods' }}
      search={(prev) => ({ namespace: prev.namespace, ...filter })}
      className={className}
    >
      {children}
    </Link>
  );
}

const certificateSeverity: Record<string, CertSeverity> = {
  CertificateExpired: 'expired',
  CertificateInvalid: 'invalid',
  CertificateExpiring: 'critical',
};

/** Where a problem group lists all its objects: the audit by check, the certificates, a kind's table. */
export function GroupLink({ group, children }: { group: ProblemGroup; children: ReactNode }) {
  const look = 'text-xs text-teal-800 hover:underline dark:text-teal-300';
  if (group.source === 'audit') {
    return (
      <Link
        to="/audit"
        search={(prev) => ({ namespace: prev.namespace, severity: 'danger', view: 'checks', q: group.check })}
        className={look}
      >
        {children}
      </Link>
    );
  }
  if (group.source === 'certificate') {
    return (
      <Link
        to="/certificates"
        search={(prev) => ({ namespace: prev.namespace, severity: certificateSeverity[group.reason] })}
        className={look}
      >
        {children}
      </Link>
    );
  }
  const [kind] = group.kinds;
  if (group.kinds.length === 1 && kind === 'Pod') {
    return (
      <PodsLink statuses={[...new Set(group.objects.map((o) => o.status))]} className={look}>
        {children}
      </PodsLink>
    );
  }
  return (
    <Link
      to="/resources/$kind"
      params={{ kind: kind ?? 'pods' }}
      search={(prev) => ({ namespace: prev.namespace })}
      className={look}
    >
      {children}
    </Link>
  );
}
