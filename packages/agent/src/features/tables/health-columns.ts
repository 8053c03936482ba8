import type { StatusTone, TableColumn } from '@binnacle/common';
import { type Health, healthWhy } from '../../kube/health.ts';
import { operatorColumns } from './operator-columns.ts';
import { column } from './printers/format.ts';
import type { Printer } from './printers/index.ts';

/** Our health words as the table's status tones (the colours of kubectl's STATUS everywhere else). */
const tones: Record<Health, StatusTone> = {
  healthy: 'ok',
  degraded: 'progress',
  unhealthy: 'error',
  unknown: 'muted',
};

const healthColumns: TableColumn[] = [
  column(
    'HEALTH',
    'string',
    0,
    'Binnacle: healthy, degraded (on its way), unhealthy or unknown (docs/integrations)',
  ),
  column(
    'HEALTH REASON',
    'string',
    0,
    'Binnacle: what decided the health (condition or phase) and its reason',
  ),
  column('HEALTH MESSAGE', 'string', 1, "Binnacle: the deciding condition's message"),
];

/**
 * A custom resource's printer with Binnacle's columns after kubectl's (ADR 0126): its project's operator fields
 * (`operator-columns.ts`), then HEALTH, HEALTH REASON and (wide) HEALTH MESSAGE. The row's status is the health,
 * so the status filter and the row colours work as for kubectl's STATUS. kubectl's columns stay first and
 * unchanged (ADR 0053's conformance test prints them alone).
 */
export function withHealthColumns(printer: Printer, group: string, kind: string): Printer {
  const taken = new Set(printer.columns.map((c) => c.name));
  const operator = (operatorColumns.get(`${group}/${kind}`) ?? []).filter((c) => !taken.has(c.column.name));
  return {
    columns: [...printer.columns, ...operator.map((c) => c.column), ...healthColumns],
    print(object) {
      const printed = printer.print(object);
      const why = healthWhy(object);
      const reason = [why.from, why.reason].filter(Boolean).join(': ');
      return {
        cells: [
          ...printed.cells,
          ...operator.map((c) => c.cell(object)),
          why.health,
          reason,
          why.message ?? '',
        ],
        status: { text: why.health, tone: tones[why.health] },
      };
    },
  };
}
