import type { Answer } from '../../api/client.ts';
import { formatMoney, hoursPerMonth } from '../../ui/units.ts';
import type { CostWindow } from '../metrics/windows.ts';

type Available<T> = Extract<T, { available: true }>;
export type CostSummary = Available<Answer<'/api/cost/summary'>>;
export type NamespaceCost = CostSummary['namespaces'][number];
export type WorkloadCost = Available<Answer<'/api/cost/workloads'>>['workloads'][number];
export type NodeCost = Available<Answer<'/api/cost/nodes'>>['nodes'][number];
export type CostTrend = Available<Answer<'/api/cost/trend'>>;

/** The cost page's tabs. */
export const costTabs = ['namespaces', 'nodes', 'rightsizing'] as const;
export type CostTab = (typeof costTabs)[number];

/** The cost page's URL: the window figures are averaged over and the open tab (the namespace is the shell's). */
export interface CostSearch {
  window?: CostWindow;
  tab?: CostTab;
}

/** What an hourly rate comes to over a month of 730 hours, as cloud bills count. */
export const perMonth = (hourly: number) => formatMoney(hourly * hoursPerMonth);

/** Usage cost over allocation cost; the agent gives null when nothing was allocated. */
export const efficiencyText = (percent: number | null) =>
  percent === null ? '—' : `${Math.round(percent)}%`;
