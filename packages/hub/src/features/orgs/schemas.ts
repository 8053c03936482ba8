import { Type } from 'typebox';

export const RoleSchema = Type.Union(
  [Type.Literal('owner'), Type.Literal('member'), Type.Literal('viewer')],
  {
    description: 'owner: full admin; member: read and cluster operations; viewer: read-only',
  },
);

export const OrgParams = Type.Object({ org_id: Type.String({ minLength: 1, maxLength: 64 }) });

export const OrgName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });

export const Org = Type.Object({
  id: Type.String(),
  name: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  role: RoleSchema,
  memberCount: Type.Integer(),
});
