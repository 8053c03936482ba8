import { type CertSeverity, certTone, dateOf, daysText } from '../../features/certificates/types.ts';
import { Badge } from '../../ui/Badge.tsx';
import { linkLook } from '../../ui/controls.tsx';
import { HealthBadge } from '../../ui/HealthBadge.tsx';
import { age } from '../../ui/states.tsx';
import { ClusterCell, ObjectCell, TwoLines } from './cells.tsx';
import { FleetResult } from './FleetResult.tsx';
import { useFleet } from './fleet-query.ts';
import { certificatePage, objectPage, packagePage } from './links.ts';

const rowKey = (row: { clusterId: string }, ...parts: (string | undefined)[]) =>
  [row.clusterId, ...parts].join('/');

/** Failing objects, certificates that expire and danger findings of every cluster, newest first. */
export function ProblemsView() {
  const query = useFleet('/api/fleet/problems');
  return (
    <FleetResult
      query={query}
      what="the fleet's problems"
      noun={['problem', 'problems']}
      columns={['Cluster', 'Object', 'Status', 'Why', { label: 'Age', right: true }]}
      empty="Nothing is failing in the clusters that answered (among what you may read there)."
    >
      {(answer) =>
        answer.items.map((p) => (
          <tr key={rowKey(p, p.source, p.kind, p.namespace, p.name, p.reason)}>
            <ClusterCell row={p} />
            <ObjectCell object={p} href={objectPage(p.clusterId, p)} />
            <TwoLines
              main={<span className="whitespace-nowrap text-red-800 dark:text-red-300">{p.status}</span>}
              under={p.source === 'health' ? undefined : p.source}
            />
            <TwoLines main={<span className="font-medium">{p.reason}</span>} under={p.message} />
            <td className="py-2 text-right align-top tabular-nums">{age(p.ageSeconds)}</td>
          </tr>
        ))
      }
    </FleetResult>
  );
}

/** TLS Secrets and cert-manager Certificates of every cluster, most urgent first. */
export function CertificatesView() {
  const query = useFleet('/api/fleet/certs');
  return (
    <FleetResult
      query={query}
      what="the fleet's certificates"
      noun={['certificate', 'certificates']}
      columns={['Cluster', 'Object', 'Severity', 'Expires in', 'Not after', 'Problems']}
      empty="No TLS Secret or cert-manager Certificate in the clusters that answered (among what you may read)."
    >
      {(answer) =>
        answer.items.map((c) => (
          <tr key={rowKey(c, c.kind, c.namespace, c.name)}>
            <ClusterCell row={c} />
            <ObjectCell object={c} href={certificatePage(c.clusterId, c)} />
            <td className="py-2 pr-4 align-top">
              <Badge tone={certTone[c.severity as CertSeverity] ?? 'muted'}>{c.severity}</Badge>
            </td>
            <td className="py-2 pr-4 align-top whitespace-nowrap">{daysText(c.daysLeft)}</td>
            <td className="py-2 pr-4 align-top font-mono text-xs">{dateOf(c.notAfter)}</td>
            <td className="py-2 align-top text-xs">{c.problems.join('; ') || '—'}</td>
          </tr>
        ))
      }
    </FleetResult>
  );
}

/** The best-practice audit's findings of every cluster, danger first. */
export function AuditView() {
  const query = useFleet('/api/fleet/audit');
  return (
    <FleetResult
      query={query}
      what="the fleet's audit"
      noun={['finding', 'findings']}
      columns={['Cluster', 'Object', 'Check', 'Severity', 'Finding']}
      empty="No findings: every object the audit checks passes in the clusters that answered."
    >
      {(answer) =>
        answer.items.map((f) => (
          <tr key={rowKey(f, f.kind, f.namespace, f.name, f.checkId, f.container)}>
            <ClusterCell row={f} />
            <ObjectCell object={f} href={objectPage(f.clusterId, f)} />
            <TwoLines main={<span className="font-mono text-xs">{f.checkId}</span>} under={f.category} />
            <td className="py-2 pr-4 align-top">
              <Badge tone={f.severity === 'danger' ? 'bad' : 'warn'}>{f.severity}</Badge>
            </td>
            <TwoLines main={f.message} under={f.container && `container ${f.container}`} />
          </tr>
        ))
      }
    </FleetResult>
  );
}

/** Installed packages of every cluster, those with a newer chart version first. */
export function PackagesView() {
  const query = useFleet('/api/fleet/packages');
  return (
    <FleetResult
      query={query}
      what="the fleet's packages"
      noun={['package', 'packages']}
      columns={['Cluster', 'Chart', 'Version', 'App version', 'Health', 'Found by', 'Upgrade']}
      empty="No packages (Helm releases, chart labels, CRDs, GitOps objects) in the clusters that answered."
    >
      {(answer) =>
        answer.items.map((p) => {
          const href = packagePage(p.clusterId, p);
          return (
            <tr key={rowKey(p, p.chart, p.namespace, p.releaseName, p.version)}>
              <ClusterCell row={p} />
              <TwoLines
                main={
                  href ? (
                    <a href={href} className={`font-medium ${linkLook}`}>
                      {p.chart}
                    </a>
                  ) : (
                    <span className="font-medium">{p.chart}</span>
                  )
                }
                under={p.releaseName && `release ${p.namespace}/${p.releaseName}`}
              />
              <td className="py-2 pr-4 align-top font-mono text-xs">{p.version ?? '—'}</td>
              <td className="py-2 pr-4 align-top font-mono text-xs">{p.appVersion ?? '—'}</td>
              <td className="py-2 pr-4 align-top">
                <HealthBadge health={p.health} />
              </td>
              <td className="py-2 pr-4 align-top text-xs">{p.sources.join(', ')}</td>
              <td className="py-2 align-top">
                <Upgrade upgrade={p.upgrade} />
              </td>
            </tr>
          );
        })
      }
    </FleetResult>
  );
}

function Upgrade({
  upgrade,
}: {
  upgrade?: { latestVersion?: string; updateAvailable: boolean; error?: string };
}) {
  if (!upgrade) return <span className="text-slate-600 dark:text-slate-400">—</span>;
  if (upgrade.error)
    return (
      <span className="text-xs text-slate-600 dark:text-slate-400" title={upgrade.error}>
        not checked
      </span>
    );
  return upgrade.updateAvailable ? (
    <Badge tone="info">↑ {upgrade.latestVersion}</Badge>
  ) : (
    <span className="text-xs text-slate-600 dark:text-slate-400">up to date</span>
  );
}

/** The objects of every cluster whose name, namespace, kind, labels or annotations hold all the words. */
export function SearchView({ q }: { q: string }) {
  const query = useFleet('/api/fleet/search', { q });
  return (
    <FleetResult
      query={query}
      what="the search"
      noun={['match', 'matches']}
      columns={['Cluster', 'Object', 'Summary']}
      empty={`Nothing matches “${q}” in the clusters that answered (among the objects you may list there).`}
    >
      {(answer) =>
        answer.items.map((hit) => (
          <tr key={rowKey(hit, hit.group, hit.kind, hit.namespace, hit.name)}>
            <ClusterCell row={hit} />
            <ObjectCell object={hit} href={objectPage(hit.clusterId, hit)} />
            <td className="py-2 align-top text-xs">{hit.summary}</td>
          </tr>
        ))
      }
    </FleetResult>
  );
}
