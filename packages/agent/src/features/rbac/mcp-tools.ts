import { z } from 'zod';
import { name, namespace } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import type { RbacContext } from './module.ts';
import { subjectPermissions } from './subject-permissions.ts';

const tool = toolsOf<RbacContext>();

/** The RBAC tool: who may do what. */
export const rbacTools = [
  tool({
    name: 'get_subject_permissions',
    title: "A subject's RBAC permissions",
    description:
      'What a ServiceAccount, User or Group may do: the RoleBindings and ClusterRoleBindings naming it (a ServiceAccount also through the system:serviceaccounts groups), the roles they grant and all their rules together. Groups a User gets from its identity provider are not known here: ask for each Group.',
    input: {
      kind: z.enum(['ServiceAccount', 'User', 'Group']),
      name,
      namespace: namespace.describe(
        "a ServiceAccount's namespace (required for one); for a User or Group, only RoleBindings in it",
      ),
    },
    run: (args, { ctx, caller }) => subjectPermissions(ctx, caller, args),
  }),
];
