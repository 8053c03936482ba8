import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { type ReactNode, useId } from 'react';
import { get } from '../../api/client.ts';
import { buttonLook, mutedLook, panelLook } from '../../ui/controls.tsx';
import { ModeSwitch } from '../../ui/ModeSwitch.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Loaded } from '../../ui/states.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { formatMoney } from '../../ui/units.ts';
import { useSearchPatch } from '../../ui/use-search-patch.ts';
import { StoreUnavailable } from '../metrics/StoreUnavailable.tsx';
import { type CostWindow, costWindows, windowWords } from '../metrics/windows.ts';
import { CostTiles } from './CostTiles.tsx';
import { CostTrend } from './CostTrend.tsx';
import { NamespaceCosts } from './NamespaceCosts.tsx';
import { NodeCosts } from './NodeCosts.tsx';
import { RightsizingScan } from './RightsizingScan.tsx';
import { type CostSearch, type CostSummary, type CostTab, efficiencyText, perMonth } from './types.ts';
import { WorkloadCosts } from './WorkloadCosts.tsx';

/**
 * What the cluster costs, from OpenCost's prices in the metrics store: totals, per namespace (each opening its
 * workloads), per node, the trend over the window, and the requests worth lowering.
 */
export function CostPage() {
  const search = useSearch({ from: '/cost' });
  const { namespace } = search;
  const window: CostWindow = search.window ?? '24h';
  const tab: CostTab = search.tab ?? 'namespaces';
  const setSearch = useSearchPatch<CostSearch & { namespace?: string }>();
  const switchName = useId();
  const summary = useQuery({
    queryKey: ['cost', 'summary', window],
    queryFn: ({ signal }) => get('/api/cost/summary', { query: { window }, signal }),
    refetchInterval: 60_000,
    placeholderData: keepPreviousData,
  });
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4">
      <PageHeading
        title="Cost"
        about={`Hourly rates averaged over the last ${windowWords(window)}, from OpenCost's prices in the metrics store (USD)`}
      >
        <ModeSwitch
          name={switchName}
          label="Window"
          modes={costWindows}
          value={window}
          onChange={(w) => setSearch({ window: w === '24h' ? undefined : w })}
        />
      </PageHeading>
      <Loaded query={summary} what="the cost summary">
        {(answer) =>
          !answer.available ? (
            <StoreUnavailable answer={answer} needs="cost" />
          ) : (
            <>
              <CostTiles summary={answer} />
              <section aria-label="Breakdown" className={panelLook}>
                <Tabs
                  label="Cost by"
                  tabs={[
                    { id: 'namespaces', label: namespace ? `Namespace ${namespace}` : 'Namespaces' },
                    { id: 'nodes', label: 'Nodes' },
                    { id: 'rightsizing', label: 'Rightsizing' },
                  ]}
                  current={tab}
                  choose={(t) => setSearch({ tab: t === 'namespaces' ? undefined : t })}
                >
                  <div className="pb-3">
                    {tab === 'nodes' ? (
                      <NodeCosts window={window} />
                    ) : tab === 'rightsizing' ? (
                      <RightsizingScan namespace={namespace} window={window} />
                    ) : namespace ? (
                      <NamespaceDetail
                        summary={answer}
                        namespace={namespace}
                        window={window}
                        back={() => setSearch({ namespace: undefined })}
                      />
                    ) : (
                      <div className="flex flex-col gap-6">
                        <Part title="Hourly cost per namespace">
                          <CostTrend window={window} />
                        </Part>
                        <Part title="Namespaces">
                          <NamespaceCosts
                            namespaces={answer.namespaces}
                            open={(ns) => setSearch({ namespace: ns })}
                          />
                        </Part>
                      </div>
                    )}
                  </div>
                </Tabs>
              </section>
            </>
          )
        }
      </Loaded>
    </div>
  );
}

/** One namespace: its figures, its trend and its workloads. */
function NamespaceDetail(props: {
  summary: CostSummary;
  namespace: string;
  window: string;
  back: () => void;
}) {
  const { namespace, window } = props;
  const row = props.summary.namespaces.find((n) => n.name === namespace);
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm">
        <button type="button" className={buttonLook} onClick={props.back}>
          ← All namespaces
        </button>
        {row ? (
          <p>
            <span className="font-mono">{namespace}</span>: <strong>{formatMoney(row.hourlyCost)}</strong> an
            hour, ≈ {perMonth(row.hourlyCost)} a month, {row.pods} {row.pods === 1 ? 'pod' : 'pods'},
            efficiency {efficiencyText(row.efficiency)}
          </p>
        ) : (
          <p className={mutedLook}>No pod in {namespace} has a cost in this window.</p>
        )}
      </div>
      <Part title={`Hourly cost of ${namespace}`}>
        <CostTrend window={window} namespace={namespace} />
      </Part>
      <Part title={`Workloads in ${namespace}`}>
        <WorkloadCosts namespace={namespace} window={window} />
      </Part>
    </div>
  );
}

/** A titled part of a tab. */
function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-2">
      <h2 className="text-sm font-semibold">{title}</h2>
      {children}
    </section>
  );
}
