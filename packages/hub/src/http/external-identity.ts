import { forwardableGroups } from '@binnacle/common/oidc';
import { unauthenticated } from '@binnacle/common/server';
import type { JWTPayload } from 'jose';
import type { HubConfig } from '../config/hub-config.ts';
import type { HubDatabase } from '../db/database.ts';
import { findUser, membershipsOf, upsertUser } from '../db/directory.ts';
import { type Clock, iso } from '../security/clock.ts';
import type { Principal } from '../security/principal.ts';
import type { AccessCache } from '../services/access/access-cache.ts';
import type { HostedIdp } from '../services/identity/hosted-idp.ts';
import type { OidcClient } from '../services/identity/oidc-client.ts';
import { placeMember } from '../services/identity/sign-in.ts';
import { acceptedAudiences } from './protected-resource.ts';

/** What IdP access tokens and the hosted IdP's cookie are checked against, and where a first visit lands. */
export interface ExternalIdentityDeps {
  config: Pick<HubConfig, 'publicUrl' | 'groupForwarding' | 'oidcGroupsClaim' | 'oidcDefaultRole'>;
  clock: Clock;
  database: HubDatabase;
  accessCache: AccessCache;
  oidc?: OidcClient;
  hosted?: HostedIdp;
}

const expiryOf = (claims: JWTPayload) => (claims.exp ? new Date(claims.exp * 1000) : undefined);

/** The person behind IdP claims in their first organization; cached like the other access rows (ADR 0043). */
function knownMember(ctx: ExternalIdentityDeps, claims: JWTPayload & { sub: string }) {
  return ctx.accessCache.remember(`idp ${claims.iss} ${claims.sub}`, async () => {
    const user = await findUser(ctx.database.db, claims.iss as string, claims.sub);
    const membership = user ? (await membershipsOf(ctx.database.db, user.id))[0] : undefined;
    return user && membership ? { user, orgId: membership.id, role: membership.role } : undefined;
  });
}

/**
 * An OAuth access token the IdP issued for the hub (AI agents): signature, issuer, expiry and audience (the
 * hub's MCP resource URL, or on a cluster's MCP path that cluster's) are checked; groups come from the same claim as for browser sessions. The person
 * must have signed in to the hub before; they act in their first organization.
 */
export async function authenticateAccessToken(
  ctx: ExternalIdentityDeps,
  token: string,
  url: string,
): Promise<Principal> {
  const client = ctx.oidc;
  if (!client) throw unauthenticated('the bearer token is not a Binnacle personal access token');
  let claims: JWTPayload;
  try {
    claims = await client.verifyIdpJwt(token, { audience: acceptedAudiences(ctx.config.publicUrl, url) });
  } catch {
    throw unauthenticated(
      'the access token is not valid for this hub (signature, issuer, audience or expiry)',
    );
  }
  if (!claims.sub) throw unauthenticated('the access token names no subject');
  const member = await knownMember(ctx, claims as JWTPayload & { sub: string });
  if (!member)
    throw unauthenticated(
      'the access token belongs to nobody who signed in to this hub; sign in with a browser first',
    );
  const { groups } = forwardableGroups(claims, ctx.config.groupForwarding ? ctx.config.oidcGroupsClaim : '');
  return { ...member, via: 'oauth', groups, expiresAt: expiryOf(claims) };
}

/**
 * The hosted identity provider's session cookie. A first visit signs the person in (user created, placed in
 * an organization); later visits only read. Hosted sessions never carry IdP groups.
 */
export async function authenticateHosted(
  ctx: ExternalIdentityDeps,
  token: string,
): Promise<Principal | undefined> {
  const claims = await ctx.hosted?.verify(token);
  if (!claims) return undefined;
  const member = await knownMember(ctx, claims);
  if (member) return { ...member, via: 'hosted', groups: [], expiresAt: expiryOf(claims) };
  const email = String(claims.email ?? claims.sub);
  const at = iso(ctx.clock.now());
  const placed = await ctx.database.db.transaction().execute(async (tx) => {
    const user = await upsertUser(
      tx,
      { issuer: claims.iss as string, subject: claims.sub, email, name: String(claims.name ?? email) },
      at,
    );
    return {
      user: { id: user.id, email: user.email, name: user.name },
      ...(await placeMember(tx, ctx, user, ctx.config.oidcDefaultRole)),
    };
  });
  return { ...placed, via: 'hosted', groups: [], expiresAt: expiryOf(claims) };
}
