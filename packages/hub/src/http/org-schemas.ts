import { Type } from 'typebox';

/** A member's role, as every route that shows or sets one names it. */
export const RoleSchema = Type.Union(
  [Type.Literal('owner'), Type.Literal('member'), Type.Literal('viewer')],
  {
    description: 'owner: full admin; member: read and cluster operations; viewer: read-only',
  },
);

/** The organisation a route under `/api/orgs/:org_id/…` acts in. */
export const OrgParams = Type.Object({ org_id: Type.String({ minLength: 1, maxLength: 64 }) });
