import type { SortColumn } from '../../ui/SortableTable.tsx';
import { formatMoney } from '../../ui/units.ts';
import { efficiencyText, perMonth } from './types.ts';

interface Figures {
  pods: number;
  hourlyCost: number;
  cpuCost: number;
  memoryCost: number;
  storageCost: number;
  efficiency: number | null;
}

/**
 * The figure columns the namespace and workload tables share: pods, the hourly cost and its parts, efficiency and
 * the month. Workloads leave storage out (the agent prices volumes per namespace only).
 */
export function figureColumns<T extends Figures>(withStorage: boolean): SortColumn<T>[] {
  const money = (label: string, of: (row: T) => number): SortColumn<T> => ({
    label,
    right: true,
    sortBy: of,
    cell: (row) => formatMoney(of(row)),
  });
  return [
    { label: 'Pods', right: true, sortBy: (row) => row.pods, cell: (row) => row.pods },
    money('Per hour', (row) => row.hourlyCost),
    money('CPU', (row) => row.cpuCost),
    money('Memory', (row) => row.memoryCost),
    ...(withStorage ? [money('Storage', (row) => row.storageCost)] : []),
    {
      label: 'Efficiency',
      right: true,
      sortBy: (row) => row.efficiency ?? -1,
      cell: (row) => efficiencyText(row.efficiency),
    },
    {
      label: 'Per month',
      right: true,
      sortBy: (row) => row.hourlyCost,
      cell: (row) => perMonth(row.hourlyCost),
    },
  ];
}
