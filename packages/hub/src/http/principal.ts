import type { Principal } from '../security/principal.ts';
import type { Role } from '../security/roles.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
}

/**
 * What a route requires: `public`, or a minimum role in the organization concerned; `session` routes also
 * refuse PATs (minting PATs, switching organization, signing out need a person at a browser).
 */
export interface Access {
  minRole: Role | 'public';
  session?: boolean;
}

/** The route option that declares access; every hub route passes one (a static check enforces it). */
export const access = (minRole: Access['minRole'], options: { session?: boolean } = {}) => ({
  access: { minRole, session: options.session ?? false } satisfies Access,
});

/** The principal of a request that passed the access hook (routes that are not public). */
export function principalOf(request: { principal?: Principal }): Principal {
  if (!request.principal) throw new Error('route without access control reached principalOf');
  return request.principal;
}

/** Credentials a browser sends by itself (cookies): they need CSRF protection, and they are "a person at a browser". */
export const cookieBased = (principal: Pick<Principal, 'via'>) =>
  principal.via === 'session' || principal.via === 'hosted';
