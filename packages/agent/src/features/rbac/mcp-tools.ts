import { z } from 'zod';
import { name, namespace } from '../../scope/mcp/args.ts';
import { toolsOf } from '../../scope/mcp/tool.ts';
import { questionOf, whoCan } from './access.ts';
import type { RbacContext } from './module.ts';
import { subjectPermissions } from './subject-permissions.ts';

const tool = toolsOf<RbacContext>();

/** The RBAC tools: what a subject may do, and who may do something. */
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
  tool({
    name: 'who_can',
    title: 'Who may do something',
    description:
      'The Users, Groups and ServiceAccounts whose RoleBindings (in the namespace) and ClusterRoleBindings grant a verb on a kind — e.g. who can delete pods in shop — with the bindings and roles that grant it, each confirmed by the API server (a SubjectAccessReview as that subject). Needs the right to create subjectaccessreviews.',
    input: {
      verb: z
        .string()
        .regex(/^([a-z]+|\*)$/)
        .max(64)
        .describe('get, list, create, update, patch, delete, …'),
      kind: z
        .string()
        .min(1)
        .max(253)
        .describe(
          'plural, Kind or short name: pods, deploy, Secret; * for every resource (with verb *: cluster-admins)',
        ),
      subresource: z
        .string()
        .regex(/^[a-z]+$/)
        .max(64)
        .optional()
        .describe('e.g. log, exec, scale'),
      namespace: namespace.describe('where (omit: cluster-wide, ClusterRoleBindings only)'),
      name: name.optional().describe('one object of the kind'),
    },
    run: (args, { ctx, caller }) => whoCan(ctx, caller, questionOf(ctx, args)),
  }),
];
