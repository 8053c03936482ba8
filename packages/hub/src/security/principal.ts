import type { UserRow } from '../db/directory.ts';
import type { SessionsTable } from '../db/schema.ts';
import type { Role } from './roles.ts';

/** Who is calling, in which organization, with which role, and by which credential. */
export interface Principal {
  user: UserRow;
  /** The session's current organization, or the organization a PAT is pinned to. */
  orgId: string;
  /** The role in `orgId`, read at every request (a demotion applies at once). */
  role: Role;
  /** session: the hub's cookie; hosted: the hosted IdP's cookie; pat; oauth: an IdP access token (AI agents). */
  via: 'session' | 'hosted' | 'pat' | 'oauth';
  /** Forwardable IdP groups: OIDC sessions only, never PATs. */
  groups: string[];
  session?: {
    idHash: string;
    method: SessionsTable['method'];
    expiresAt: Date;
    idToken: string | null;
    /** Break-glass sessions: the password version, which a PAT minted in the session inherits. */
    credentialVersion: string | null;
  };
  patId?: string;
  /** The PAT's name, for the audit log. */
  patName?: string;
  /** When a token credential ends by itself (a PAT's expiry, an IdP token's `exp`); sessions have their own rules. */
  expiresAt?: Date;
}
