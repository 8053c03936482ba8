import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { GroupParam, KindParam, NamespaceParam, ObjectNameParam } from '../../http/schemas.ts';
import { questionOf, subjectRules, whoCan } from './access.ts';
import type { RbacContext } from './module.ts';
import { subjectPermissions } from './subject-permissions.ts';

const tags = ['access'];
const SubjectKind = Type.Union([Type.Literal('User'), Type.Literal('Group'), Type.Literal('ServiceAccount')]);
const Subject = Type.Object({
  kind: SubjectKind,
  name: Type.String(),
  namespace: Type.Optional(Type.String({ description: "a ServiceAccount's namespace" })),
});
const SubjectName = Type.String({ minLength: 1, maxLength: 253, pattern: '^[^\\s]+$' });
const Strings = Type.Array(Type.String());
const Grant = Type.Object({
  binding: Type.String({ description: '`RoleBinding ns/name` or `ClusterRoleBinding name`' }),
  role: Type.String({ description: '`Role ns/name` or `ClusterRole name`' }),
});

/** Access views (docs/access.md): what a subject may do, and who may do something. */
export function accessRoutes(app: App, ctx: RbacContext): void {
  app.get(
    '/api/access/subject',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          'What a User, Group or ServiceAccount may do in a namespace, as the API server evaluates it (kubectl auth can-i --list --as), with the bindings that name it',
        querystring: Query({
          kind: SubjectKind,
          name: SubjectName,
          namespace: NamespaceParam,
          serviceAccountNamespace: Type.Optional(NamespaceParam),
        }),
        response: {
          200: Type.Object({
            subject: Subject,
            namespace: Type.String(),
            resourceRules: Type.Array(
              Type.Object({
                verbs: Strings,
                apiGroups: Strings,
                resources: Strings,
                resourceNames: Type.Optional(Strings),
              }),
            ),
            nonResourceRules: Type.Array(Type.Object({ verbs: Strings, nonResourceURLs: Strings })),
            incomplete: Type.Boolean({ description: 'the API server could not evaluate every rule' }),
            evaluationError: Type.Optional(Type.String()),
            grants: Type.Array(
              Type.Object({
                binding: Type.String(),
                via: Type.String({ description: 'how the binding names the subject' }),
                role: Type.String(),
                scope: Type.String({ description: '`cluster-wide` or `namespace <ns>`' }),
                note: Type.Optional(Type.String()),
              }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const q = request.query;
      const subject = {
        kind: q.kind,
        name: q.name,
        ...(q.kind === 'ServiceAccount' ? { namespace: q.serviceAccountNamespace ?? q.namespace } : {}),
      };
      const rules = await subjectRules(ctx, request.caller, subject, q.namespace);
      const bound = await subjectPermissions(ctx, request.caller, {
        kind: q.kind,
        name: q.name,
        ...(q.kind === 'ServiceAccount' ? { namespace: subject.namespace } : { namespace: q.namespace }),
      });
      const grants = bound.grants.map(({ rules: _rules, ...grant }) => grant);
      return { ...rules, grants };
    },
  );

  app.get(
    '/api/access/who',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          'Who may do something: the subjects whose bindings grant the verb on the kind (in the namespace, or cluster-wide), each checked with a SubjectAccessReview',
        querystring: Query({
          verb: Type.String({ minLength: 1, maxLength: 64, pattern: '^([a-z]+|\\*)$' }),
          kind: Type.Union([KindParam, Type.Literal('*')], {
            description: 'the kind as the resource routes take it, or `*`: every resource of every group',
          }),
          group: Type.Optional(GroupParam),
          subresource: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z]+$' })),
          namespace: Type.Optional(NamespaceParam),
          name: Type.Optional(ObjectNameParam),
        }),
        response: {
          200: Type.Object({
            question: Type.Object({
              verb: Type.String(),
              resource: Type.String(),
              group: Type.String(),
              namespace: Type.Optional(Type.String()),
              name: Type.Optional(Type.String()),
            }),
            subjects: Type.Array(
              Type.Object({
                subject: Subject,
                grants: Type.Array(Grant),
                allowed: Type.Boolean({
                  description: "the API server's answer to a SubjectAccessReview as it",
                }),
              }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const question = questionOf(ctx, request.query);
      return { question, subjects: await whoCan(ctx, request.caller, question) };
    },
  );
}
