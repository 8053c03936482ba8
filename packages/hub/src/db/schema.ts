import type { Generated } from 'kysely';

/** Timestamps are ISO 8601 UTC strings (same width, so they sort and compare as text on both databases). */
type Timestamp = string;

export interface OrgsTable {
  id: string;
  name: string;
  created_at: Timestamp;
}

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  /** Who vouches for the user: `break-glass`, or an OIDC issuer. */
  idp_issuer: string;
  idp_subject: string;
  created_at: Timestamp;
  last_sign_in_at: Timestamp | null;
}

export interface MembershipsTable {
  org_id: string;
  user_id: string;
  role: 'owner' | 'member' | 'viewer';
  created_at: Timestamp;
}

export interface SessionsTable {
  /** SHA-256 of the cookie value; the value itself is never stored. */
  id_hash: string;
  user_id: string;
  org_id: string;
  method: 'break-glass' | 'oidc';
  created_at: Timestamp;
  absolute_expires_at: Timestamp;
  last_seen_at: Timestamp;
  /** For break-glass sessions: which password they were opened with (an HMAC); a new password ends them. */
  credential_version: string | null;
  /** OIDC sessions: the last ID token (for id_token_hint) and when it expires. */
  id_token: string | null;
  id_token_expires_at: Timestamp | null;
  /** JSON array of the forwardable IdP groups, already normalized; `[]` for none. */
  groups: Generated<string>;
  /** AES-256-GCM sealed refresh token (additional data: id_hash). */
  refresh_token_enc: string | null;
  /** The IdP session id (`sid`), for back-channel logout. */
  idp_sid: string | null;
  /** While a replica refreshes this session's tokens, others wait instead of refreshing too. */
  refresh_lease_until: Timestamp | null;
}

export interface EndedSessionsTable {
  /** The ended session's `id_hash`. */
  id_hash: string;
  /** Why it ended (EndReason), named in the `session_ended` answer its cookie still gets. */
  reason: string;
  ended_at: Timestamp;
  /** The session's absolute expiry: after it, its cookie is forgotten (and the browser has dropped it). */
  forget_at: Timestamp;
}

/** One row (`slot` = `current`): the break-glass password in force on every replica. */
export interface BreakGlassPasswordTable {
  slot: string;
  /** HMAC(key, e-mail ‖ password) of the password in force; null: break-glass sign-in is off. */
  version: string | null;
  /** When the hub process that put it in force started. */
  in_force_since: Timestamp;
}

export interface OidcLoginsTable {
  /** SHA-256 of the `state` sent to the IdP. */
  state_hash: string;
  /** SHA-256 of the value of this sign-in's browser cookie, which binds the callback to the browser that started it. */
  binding_hash: string;
  nonce: string;
  code_verifier: string;
  return_to: string;
  expires_at: Timestamp;
}

export interface LogoutTokensTable {
  jti: string;
  expires_at: Timestamp;
}

export interface PatsTable {
  id: string;
  user_id: string;
  org_id: string;
  name: string;
  token_hash: string;
  /** The last 4 characters, so people can tell tokens apart. */
  hint: string;
  created_at: Timestamp;
  expires_at: Timestamp | null;
  last_used_at: Timestamp | null;
  /** Minted in a break-glass session: that session's password version; a new password ends the PAT. */
  credential_version: string | null;
}

export interface ClustersTable {
  id: string;
  org_id: string;
  name: string;
  token_hash: string;
  token_hint: string;
  created_at: Timestamp;
  created_by: string;
  token_rotated_at: Timestamp | null;
  last_seen_at: Timestamp | null;
  agent_version: string | null;
}

export interface InvitationsTable {
  id: string;
  org_id: string;
  email: string;
  role: 'owner' | 'member' | 'viewer';
  token_hash: string;
  created_by: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  accepted_at: Timestamp | null;
  accepted_by: string | null;
}

export interface AuditTable {
  id: Generated<number>;
  org_id: string;
  at: Timestamp;
  actor_user_id: string | null;
  actor_email: string | null;
  /** The actor's display name when the entry was written (ADR 0068). */
  actor_name: string | null;
  /** How the actor authenticated: `session`, `pat`, or `system`. */
  via: string;
  pat_id: string | null;
  /** The PAT's name when the entry was written. */
  pat_name: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  /** The target's name when the entry was written (a cluster's or a PAT's name, a person's e-mail). */
  target_name: string | null;
  detail: string | null;
  ip: string | null;
}

export interface PreferencesTable {
  user_id: string;
  data: string;
  updated_at: Timestamp;
}

export interface BillingAccountsTable {
  org_id: string;
  /** The Stripe customer (cus_…), made at the first checkout. */
  customer_id: string | null;
  subscription_id: string | null;
  /** The plan the subscription is for; limits follow it only while `status` is active, trialing or past_due. */
  plan: string;
  /** Stripe's subscription status, `none` before the first subscription. */
  status: string;
  current_period_end: Timestamp | null;
  /** `created` of the newest Stripe event applied to the subscription state: older ones arrive late and are ignored. */
  state_at: Timestamp | null;
  updated_at: Timestamp;
}

export interface BillingEventsTable {
  /** Stripe's event id (evt_…): a delivery whose id is here was applied already. */
  event_id: string;
  type: string;
  org_id: string | null;
  received_at: Timestamp;
}

export interface HubSchema {
  orgs: OrgsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  ended_sessions: EndedSessionsTable;
  break_glass_password: BreakGlassPasswordTable;
  pats: PatsTable;
  clusters: ClustersTable;
  invitations: InvitationsTable;
  audit_events: AuditTable;
  preferences: PreferencesTable;
  oidc_logins: OidcLoginsTable;
  logout_tokens: LogoutTokensTable;
  billing_accounts: BillingAccountsTable;
  billing_events: BillingEventsTable;
}
