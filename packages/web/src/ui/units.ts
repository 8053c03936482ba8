/** What a chart's or a table's numbers count, as the agent names its units. */
export type Unit = 'cores' | 'bytes' | 'bytes/s' | 'USD/h';

const binary = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/** Up to three significant digits, without trailing zeros (`1.5`, `250`, `0.042`). */
const short = (value: number) => String(Number(value.toPrecision(3)));

/** The power of 1024 that writes `bytes` with one to three digits before the point. */
export const binaryPower = (bytes: number) =>
  Math.min(binary.length - 1, Math.max(0, Math.floor(Math.log(Math.abs(bytes) || 1) / Math.log(1024))));

/** Bytes as Kubernetes people read memory: binary units (`512 MiB`, `1.5 GiB`). */
export function formatBytes(bytes: number, power = binaryPower(bytes)): string {
  return `${short(bytes / 1024 ** power)} ${binary[power]}`;
}

/** CPU as requests are written: millicores under one core (`250m`), cores above (`1.5 cores`). */
export function formatCores(cores: number): string {
  if (cores === 0) return '0';
  if (Math.abs(cores) < 1) return `${short(cores * 1000)}m`;
  return `${short(cores)} ${Math.abs(cores) === 1 ? 'core' : 'cores'}`;
}

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/**
 * US dollars as OpenCost prices them: cents from a dollar up, three significant digits below and never fewer than
 * two decimals (an hour of one pod is often a fraction of a cent, which `$0.00` would hide).
 */
export function formatMoney(amount: number): string {
  if (amount === 0) return '$0';
  if (Math.abs(amount) >= 1) return dollars.format(amount);
  const [whole, decimals = ''] = Math.abs(amount).toPrecision(3).split('.');
  return `${amount < 0 ? '−' : ''}$${whole}.${decimals.replace(/0+$/, '').padEnd(2, '0')}`;
}

/** Hours in a month as cloud price lists count them (365 × 24 ÷ 12). */
export const hoursPerMonth = 730;

/** A value in its unit, for a table cell or a chart's readout. */
export function formatValue(unit: Unit, value: number): string {
  switch (unit) {
    case 'cores':
      return formatCores(value);
    case 'bytes':
      return formatBytes(value);
    case 'bytes/s':
      return `${formatBytes(value)}/s`;
    case 'USD/h':
      return `${formatMoney(value)}/h`;
  }
}
