import { useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { get } from '../../api/client.ts';
import { CountTiles } from '../../ui/CountTiles.tsx';
import { mutedLook, panelLook } from '../../ui/controls.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Empty, ErrorMessage, Loading, StillLoading } from '../../ui/states.tsx';
import { TextFilter } from '../../ui/TextFilter.tsx';
import { useSearchPatch } from '../../ui/use-search-patch.ts';
import { CertificateRows } from './CertificateRows.tsx';
import { type CertificateReport, type CertificatesSearch, certSeverities, itemMatches } from './types.ts';

const tiles = (summary: CertificateReport['summary']) => [
  {
    id: 'total',
    label: 'Certificates',
    value: summary.total,
    accent: 'border-l-slate-400',
    hint: 'every severity',
  },
  {
    id: 'expired',
    label: 'Expired',
    value: summary.expired,
    accent: 'border-l-red-700',
    hint: 'past not-after',
  },
  {
    id: 'invalid',
    label: 'Invalid',
    value: summary.invalid,
    accent: 'border-l-red-700',
    hint: 'unusable data',
  },
  {
    id: 'critical',
    label: 'Critical',
    value: summary.critical,
    accent: 'border-l-red-500',
    hint: 'within 7 days',
  },
  {
    id: 'warning',
    label: 'Warning',
    value: summary.warning,
    accent: 'border-l-amber-500',
    hint: 'within 30 days',
  },
  { id: 'ok', label: 'OK', value: summary.ok, accent: 'border-l-emerald-500', hint: 'over 30 days' },
];

/**
 * Every TLS Secret and cert-manager Certificate of the namespace in view, most urgent first, with who it names,
 * who issued it and how long it has left; parse problems are findings of their own row.
 */
export function CertificatesPage() {
  const search = useSearch({ from: '/certificates' });
  const { namespace, q, severity } = search;
  const setSearch = useSearchPatch<CertificatesSearch>();
  const report = useQuery({
    queryKey: ['certificate-expiry', namespace],
    queryFn: ({ signal }) => get('/api/secrets/certificate-expiry', { query: { namespace }, signal }),
    refetchInterval: 60_000,
  });
  const all = report.data?.items ?? [];
  const items = all.filter((i) => (!severity || i.severity === severity) && itemMatches(i, q));
  const scope = namespace ? ` in ${namespace}` : '';
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4">
      <PageHeading
        title="Certificates"
        about={`TLS Secrets${report.data?.certManager ? ' and cert-manager Certificates' : ''}${scope || ' in every namespace'}, most urgent first`}
      >
        <TextFilter
          label="Filter by name, host or issuer"
          value={q}
          onChange={(text) => setSearch({ q: text })}
        />
      </PageHeading>
      {report.isPending ? (
        <Loading what="certificates" />
      ) : report.isError ? (
        <ErrorMessage error={report.error} what="certificates" />
      ) : (
        <>
          <StillLoading kinds={report.data.loading} />
          <CountTiles
            label="Summary"
            tiles={tiles(report.data.summary)}
            chosen={severity ?? 'total'}
            choose={(id) => setSearch({ severity: certSeverities.find((s) => s === id) })}
          />
          <section aria-label="Certificates" className={panelLook}>
            <h2 className="mb-2 text-sm font-semibold">
              {severity
                ? `${severity[0]?.toUpperCase()}${severity.slice(1)} certificates`
                : 'All certificates'}{' '}
              <span className={`font-normal ${mutedLook}`}>
                {items.length === all.length ? all.length : `${items.length} of ${all.length}`}
              </span>
            </h2>
            {items.length === 0 ? (
              <Empty>
                {all.length === 0
                  ? `No TLS Secrets${scope}.`
                  : `No ${severity ?? ''} certificates${scope}${q ? ` match “${q}”` : ''}.`}
              </Empty>
            ) : (
              <CertificateRows items={items} />
            )}
            {!report.data.certManager && (
              <p className={`py-2 text-xs ${mutedLook}`}>
                cert-manager's Certificate kind is not served (or not readable) in this cluster: TLS Secrets
                only.
              </p>
            )}
          </section>
        </>
      )}
    </div>
  );
}
