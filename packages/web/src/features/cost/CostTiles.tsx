import { CountTiles } from '../../ui/CountTiles.tsx';
import { formatMoney } from '../../ui/units.ts';
import { windowLabel } from '../metrics/windows.ts';
import { type CostSummary, efficiencyText, perMonth } from './types.ts';

/**
 * What the namespaces in view cost per hour, averaged over the window: the total (and its month), its CPU, memory
 * and storage parts, what the nodes cost beyond what pods claim, and how much of the claim is used.
 */
export function CostTiles({ summary }: { summary: CostSummary }) {
  const part = (amount: number) =>
    summary.hourlyCost > 0 ? `${Math.round((amount / summary.hourlyCost) * 100)}% of the total` : 'per hour';
  return (
    <CountTiles
      label="Cost per hour"
      tiles={[
        {
          id: 'total',
          label: 'Per hour',
          value: formatMoney(summary.hourlyCost),
          accent: 'border-l-teal-600',
          hint: `≈ ${perMonth(summary.hourlyCost)} a month · ${formatMoney(summary.windowCost)} in ${windowLabel(summary.window)}`,
        },
        {
          id: 'cpu',
          label: 'CPU',
          value: formatMoney(summary.cpuCost),
          accent: 'border-l-sky-600',
          hint: part(summary.cpuCost),
        },
        {
          id: 'memory',
          label: 'Memory',
          value: formatMoney(summary.memoryCost),
          accent: 'border-l-violet-600',
          hint: part(summary.memoryCost),
        },
        {
          id: 'storage',
          label: 'Storage',
          value: formatMoney(summary.storageCost),
          accent: 'border-l-indigo-600',
          hint: part(summary.storageCost),
        },
        {
          id: 'idle',
          label: 'Idle',
          value: summary.idleCost === undefined ? '—' : formatMoney(summary.idleCost),
          accent: 'border-l-amber-500',
          hint: summary.idleCost === undefined ? 'needs every namespace in view' : 'node cost no pod claims',
        },
        {
          id: 'efficiency',
          label: 'Efficiency',
          value: efficiencyText(summary.efficiency),
          accent: 'border-l-emerald-600',
          hint: 'of the claimed CPU and memory used',
        },
      ]}
    />
  );
}
