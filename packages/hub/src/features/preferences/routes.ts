import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { HubApp, HubContext } from '../../context.ts';
import { access, principalOf } from '../../http/principal.ts';
import { Preferences, readPreferences, updatePreferences } from './service.ts';

type Deps = Pick<HubContext, 'clock' | 'database'>;

/** Personal UI preferences; they change nothing in the organization, so every role may set its own. */
export function preferenceRoutes(app: HubApp, ctx: Deps): void {
  app.get(
    '/api/preferences',
    {
      config: access('viewer'),
      schema: {
        summary: 'Your UI preferences',
        tags: ['account'],
        querystring: Query({}),
        response: { 200: Preferences, ...errorResponses },
      },
    },
    async (request) => readPreferences(ctx, principalOf(request).user.id),
  );
  app.patch(
    '/api/preferences',
    {
      config: access('viewer'),
      schema: {
        querystring: Query({}),
        summary: 'Change some of your UI preferences (fields left out keep their value)',
        tags: ['account'],
        body: Type.Partial(Preferences, { additionalProperties: false }),
        response: { 200: Preferences, ...errorResponses },
      },
    },
    async (request) => updatePreferences(ctx, principalOf(request).user.id, request.body),
  );
}
