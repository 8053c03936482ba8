import type { Answer } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';

type Evaluation = Answer<'/api/network-policies/evaluate'>;

/** The answers of `GET /api/network-policies/evaluate` (docs/network-policies.md): a matrix, or one connection. */
export type ReachabilityMatrix = Extract<Evaluation, { cells: unknown }>;
export type ConnectionResult = Exclude<Evaluation, { cells: unknown }>;
export type DirectionVerdict = ConnectionResult['egress'];
export type RuleRef = DirectionVerdict['decidedBy'][number];
export type BackendVerdict = NonNullable<ConnectionResult['perPod']>[number];
export type MatrixCell = ReachabilityMatrix['cells'][number][number];
export type Protocol = ReachabilityMatrix['protocol'];
export const protocols: readonly Protocol[] = ['TCP', 'UDP', 'SCTP'];

export type Direction = 'egress' | 'ingress';

/** Where a rule sits in its policy, as kubectl explain spells it: `spec.ingress[0].from[1].ports[0]`. */
export function rulePath(direction: Direction, rule: RuleRef): string {
  const peers = direction === 'ingress' ? 'from' : 'to';
  return [
    `spec.${direction}[${rule.ruleIndex}]`,
    rule.peerIndex === undefined ? undefined : `${peers}[${rule.peerIndex}]`,
    rule.portIndex === undefined ? undefined : `ports[${rule.portIndex}]`,
  ]
    .filter(Boolean)
    .join('.');
}

/** `demo-shop/checkout-from-storefront` → its namespace and name. */
export function policyRef(text: string): { namespace: string; name: string } {
  const at = text.indexOf('/');
  return { namespace: text.slice(0, at), name: text.slice(at + 1) };
}

/** How a matrix cell reads: allowed, or which side's policies stopped it. */
export type CellState = 'allowed' | 'ingress' | 'egress' | 'both' | 'ports';

export function cellState(cell: MatrixCell): CellState {
  if (cell.allowed) return 'allowed';
  if (!cell.egress && !cell.ingress) return 'both';
  if (!cell.ingress) return 'ingress';
  if (!cell.egress) return 'egress';
  // Each side opens some port, but no port is open on both.
  return 'ports';
}

export const cellWords: Record<CellState, string> = {
  allowed: 'allowed',
  ingress: "denied at ingress (the destination's policies)",
  egress: "denied at egress (the source's policies)",
  both: 'denied at egress and at ingress',
  ports: 'denied: no port open on both sides',
};

/** A matrix cell in words, for its tooltip and for screen readers. */
export function cellText(source: string, destination: string, cell: MatrixCell): string {
  const state = cellState(cell);
  const by =
    cell.policies.length > 0
      ? ` by ${cell.policies.join(', ')}`
      : state === 'allowed'
        ? ' (no policy isolates either pod)'
        : '';
  return `${source} → ${destination}: ${cellWords[state]}${by}`;
}

/** The query fields the agent may name in a 400; the form shows the message beside the field it names. */
export type FormField =
  | 'source'
  | 'sourceLabels'
  | 'sourceNamespace'
  | 'destination'
  | 'port'
  | 'protocol'
  | 'matrix';

/**
 * The field a 400's message names: the agent starts its own messages with the field (`sourceLabels "x" is not…`,
 * `source.ip "x" is not…`), and schema checks say `query parameter "port" must be…`.
 */
export function fieldOf(message: string): FormField | undefined {
  const match =
    /^(?:query parameter ")?(sourceLabels|sourceNamespace|source|destination|port|protocol|matrix)\b/.exec(
      message,
    );
  return match?.[1] as FormField | undefined;
}

/** The agent's 400 about one field of the question, to show beside it; other failures are shown below. */
export function fieldError(error: unknown): { field: FormField; message: string } | undefined {
  if (!(error instanceof ApiError) || error.status !== 400) return undefined;
  const field = fieldOf(error.message);
  return field ? { field, message: error.message } : undefined;
}
