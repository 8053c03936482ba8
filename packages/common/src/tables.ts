/**
 * The shape of a resource table as the agent serves it and the web UI renders it: kubectl's columns and
 * values, with moments kept as moments so an open table's ages stay right without a refetch (ADR 0053).
 */

/** How a column's cells compare and align. */
export type TableColumnType = 'string' | 'integer' | 'number' | 'date' | 'quantity';

export interface TableColumn {
  /** The header as `kubectl get` prints it (NAME, READY, STATUS, AGE…). */
  name: string;
  type: TableColumnType;
  /** 0: shown by `kubectl get`; 1: only by `kubectl get -o wide`. */
  priority: 0 | 1;
  description?: string;
}

/**
 * A value printed relative to now: `${before}${kubectlDuration(now - at)}${after}` — AGE is `{at}`, a restart
 * count with its last restart is `{before: '5 (', at, after: ' ago)'}`.
 */
export interface RelativeTime {
  at: string;
  before?: string;
  after?: string;
}

export type TableCell = string | number | null | RelativeTime;

/** How the UI colours a row's status. */
export type StatusTone = 'ok' | 'warning' | 'error' | 'progress' | 'muted';

export const isRelativeTime = (cell: TableCell): cell is RelativeTime =>
  typeof cell === 'object' && cell !== null && typeof cell.at === 'string';

/**
 * A duration as kubectl prints ages (apimachinery's `duration.HumanDuration`): exact seconds below two
 * minutes, then two units while the larger is small (`5m30s`, `7h15m`, `3d4h`, `2y30d`), then one.
 */
export function kubectlDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}

/** A cell as kubectl would print it at `now` (ms since the epoch); an absent value is kubectl's `<none>`. */
export function cellText(cell: TableCell, now: number): string {
  if (cell === null) return '<none>';
  if (typeof cell === 'number') return String(cell);
  if (typeof cell === 'string') return cell;
  return `${cell.before ?? ''}${kubectlDuration(now - Date.parse(cell.at))}${cell.after ?? ''}`;
}

/** One object as a table row: NAME and NAMESPACE are the row's, the cells follow the columns (ADR 0054). */
export interface TableRow {
  uid: string;
  namespace?: string;
  name: string;
  cells: TableCell[];
  status?: { text: string; tone: StatusTone };
}

/** How many rows of a table have one status: the choices of a status filter. */
export interface StatusCount {
  text: string;
  tone: StatusTone;
  count: number;
}

/** What a table stream's `patch` frame carries: only what changed in the window it sent before. */
export interface TableWindowPatch {
  /** Rows new to the window or changed in it, whole. */
  rows?: TableRow[];
  /** uids that left the window. */
  removed?: string[];
  /** The window's uids in order, when the order or membership changed. */
  order?: string[];
  total?: number;
  statuses?: StatusCount[];
}
