import { searchLimits } from '@binnacle/common';
import { badRequest } from '@binnacle/common/server';
import type { HubContext } from '../../context.ts';
import type { Principal } from '../../security/principal.ts';
import type { Certificate, Finding, Package, Problem, SearchHit } from './schemas.ts';
import { askAgent, type FleetQuery, type FleetView } from './service.ts';

type Deps = Pick<
  HubContext,
  'accessCache' | 'clock' | 'database' | 'fleetLimit' | 'log' | 'replicas' | 'tunnels'
>;

/** The parts of the agents' answers a fleet view reads (their full shapes: docs/api/agent-openapi.json). */
interface Dashboard {
  problems: Problem[];
  health: Record<string, number>;
  loading: string[];
}
interface CertificateReport {
  items: Certificate[];
  summary: Record<string, number>;
  loading: string[];
}
interface AuditReport {
  findings: Finding[];
  summary: { passing: number; warning: number; danger: number };
  loading: string[];
}
interface Packages {
  packages: Omit<Package, 'upgrade'>[];
  loading: string[];
}
interface UpgradeCheck {
  releases: Record<string, Package['upgrade']>;
}
interface SearchResult {
  hits: SearchHit[];
  loading: string[];
}

const severityRank: Record<string, number> = { expired: 0, invalid: 1, critical: 2, warning: 3, ok: 4 };

/** The dashboards' problems (runtime health, certificates, danger findings), newest first. */
export function problemsView(ctx: Deps, principal: Principal, { namespace }: FleetQuery): FleetView<Problem> {
  return {
    async ask(cluster) {
      const dashboard = await askAgent<Dashboard>(ctx, principal, cluster, '/api/dashboard', { namespace });
      return { rows: dashboard.problems, summary: dashboard.health, loading: dashboard.loading };
    },
    order: (a, b) => a.row.ageSeconds - b.row.ageSeconds,
  };
}

/** TLS Secrets and cert-manager Certificates, most urgent first (severity, then days left). */
export function certificatesView(
  ctx: Deps,
  principal: Principal,
  { namespace }: FleetQuery,
): FleetView<Certificate> {
  return {
    async ask(cluster) {
      const report = await askAgent<CertificateReport>(
        ctx,
        principal,
        cluster,
        '/api/secrets/certificate-expiry',
        { namespace },
      );
      const rows = report.items.map(
        ({ kind, namespace: ns, name, severity, daysLeft, notAfter, problems }) => ({
          kind,
          namespace: ns,
          name,
          severity,
          daysLeft,
          notAfter,
          problems,
        }),
      );
      return { rows, summary: report.summary, loading: report.loading };
    },
    order: (a, b) =>
      (severityRank[a.row.severity] ?? 5) - (severityRank[b.row.severity] ?? 5) ||
      (a.row.daysLeft ?? Number.MAX_SAFE_INTEGER) - (b.row.daysLeft ?? Number.MAX_SAFE_INTEGER),
  };
}

/** Best-practice findings (each cluster's audit settings applied), danger before warning. */
export function auditView(
  ctx: Deps,
  principal: Principal,
  { namespace, category, severity }: FleetQuery,
): FleetView<Finding> {
  return {
    async ask(cluster) {
      const report = await askAgent<AuditReport>(ctx, principal, cluster, '/api/audit', {
        namespace,
        category,
        severity,
      });
      const { passing, warning, danger } = report.summary;
      return { rows: report.findings, summary: { passing, warning, danger }, loading: report.loading };
    },
    order: (a, b) => Number(a.row.severity !== 'danger') - Number(b.row.severity !== 'danger'),
  };
}

/**
 * Installed packages with the upgrade check of their Helm releases. The check reads chart sources and may fail
 * on its own: the packages still count, without `upgrade`. Upgrades available first, then by chart.
 */
export function packagesView(ctx: Deps, principal: Principal, { namespace }: FleetQuery): FleetView<Package> {
  return {
    async ask(cluster) {
      const [listed, check] = await Promise.all([
        askAgent<Packages>(ctx, principal, cluster, '/api/packages', { namespace }),
        askAgent<UpgradeCheck>(ctx, principal, cluster, '/api/pkgmgr/upgrade-check', { namespace }).catch(
          () => undefined,
        ),
      ]);
      const rows: Package[] = listed.packages.map((pkg) => {
        const upgrade = pkg.releaseName && check?.releases[`${pkg.namespace}/${pkg.releaseName}`];
        return upgrade ? { ...pkg, upgrade } : pkg;
      });
      const updates = rows.filter((row) => row.upgrade?.updateAvailable).length;
      return { rows, summary: { packages: rows.length, updates }, loading: listed.loading };
    },
    order: (a, b) =>
      Number(!a.row.upgrade?.updateAvailable) - Number(!b.row.upgrade?.updateAvailable) ||
      a.row.chart.localeCompare(b.row.chart),
  };
}

/**
 * Free-text search in every cluster. Each agent ranks its hits (best name matches first); merged, the clusters
 * take turns, so every cluster's best hits come before anyone's weaker ones.
 */
export function searchView(
  ctx: Deps,
  principal: Principal,
  { q = '', namespace, kind, at, limit }: FleetQuery,
): FleetView<SearchHit> {
  if (q.trim() === '') throw badRequest('q: name something to look for (it is only spaces)');
  return {
    async ask(cluster) {
      const result = await askAgent<SearchResult>(ctx, principal, cluster, '/api/search', {
        q,
        namespace,
        kind,
        at,
        limit: Math.min(limit, searchLimits.maxLimit),
      });
      return { rows: result.hits, loading: result.loading };
    },
    order: (a, b) => a.index - b.index,
  };
}
