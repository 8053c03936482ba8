/** The spec's limits on forwarded groups. */
export const maxGroupBytes = 128;
export const maxGroups = 64;

// Printable ASCII without space (0x20) and comma (0x2C): a value that can travel verbatim in an
// Impersonate-Group header line. Length is counted as emitted, so a leading slash counts.
const forwardable = /^[\x21-\x2B\x2D-\x7E]{1,128}$/;

export interface ForwardableGroups {
  groups: string[];
  /** Values dropped for breaking a rule or beyond the 64th. */
  dropped: number;
  /** The IdP signalled more groups than it put in the token (Entra `_claim_names` / `hasgroups`). */
  overage: boolean;
}

/**
 * The IdP groups the hub may forward (and the agent may impersonate) (docs/architecture.md §6.2.3): a string claim is one group, never split; values that
 * break a rule are dropped, never escaped; duplicates are dropped; the first 64 in the IdP's order are kept.
 */
export function forwardableGroups(claims: Record<string, unknown>, claimName: string): ForwardableGroups {
  if (claimName === '') return { groups: [], dropped: 0, overage: false };
  const claim = claims[claimName];
  const raw: unknown[] = Array.isArray(claim) ? claim : typeof claim === 'string' ? [claim] : [];
  const groups: string[] = [];
  let dropped = 0;
  for (const value of raw) {
    if (typeof value !== 'string' || !forwardable.test(value)) {
      dropped++;
    } else if (!groups.includes(value)) {
      if (groups.length < maxGroups) groups.push(value);
      else dropped++;
    }
  }
  const names = claims._claim_names as Record<string, unknown> | undefined;
  return { groups, dropped, overage: names?.[claimName] !== undefined || claims.hasgroups === true };
}
