import { Type } from 'typebox';
import { RoleSchema } from '../../http/org-schemas.ts';

export const OrgName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });

export const Org = Type.Object({
  id: Type.String(),
  name: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  role: RoleSchema,
  memberCount: Type.Integer(),
});
