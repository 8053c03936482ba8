import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import type { RepohostContext } from './module.ts';
import { dismiss, star, starPrompt } from './service.ts';
import { StarPromptState } from './state.ts';

const tags = ['repohost'];
const StarPromptSchema = Type.Object({
  repository: Type.String(),
  url: Type.String(),
  starred: Type.Boolean(),
  dismissed: Type.Boolean(),
  prompt: Type.Boolean({ description: 'whether the UI should still ask' }),
});
const responses = { 200: StarPromptSchema, ...errorResponses };

/** The "star the project" prompt: each person's answer, and the star itself made with their own code-host token. */
export function repohostRoutes(app: App, ctx: RepohostContext): void {
  const state = new StarPromptState(ctx.config.dataDir);
  app.get(
    '/api/repohost/starred',
    {
      config: callerAware,
      schema: {
        tags,
        summary: 'Whether you starred the project or dismissed the prompt',
        querystring: Query({}),
        response: responses,
      },
    },
    (request) => starPrompt(state, request.caller),
  );
  app.post(
    '/api/repohost/star',
    {
      config: callerAware,
      schema: {
        tags,
        summary: 'Star the project on the code host with your token (used for this call only, never kept)',
        querystring: Query({}),
        body: Type.Object(
          {
            token: Type.String({
              minLength: 1,
              maxLength: 1024,
              pattern: '^[\\x21-\\x7e]+$',
              description: 'a code-host token allowed to star repositories',
            }),
          },
          { additionalProperties: false },
        ),
        response: responses,
      },
    },
    (request) => star(ctx, state, request.caller, request.body.token),
  );
  app.post(
    '/api/repohost/dismiss',
    {
      config: callerAware,
      schema: {
        tags,
        summary: 'Stop asking you to star the project',
        querystring: Query({}),
        response: responses,
      },
    },
    (request) => dismiss(state, request.caller),
  );
}
