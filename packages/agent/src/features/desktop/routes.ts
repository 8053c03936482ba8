import { errorResponses, Query } from '@binnacle/common/server';
import type { FastifyContextConfig } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { App } from '../../context.ts';
import { agentOnly, callerAware } from '../../http/caller.ts';
import { saveBodyLimit } from './downloads.ts';
import type { DesktopContext } from './module.ts';
import { DesktopService, notDesktop } from './service.ts';

const tags = ['desktop'];
const NotDesktop = Type.Object(
  { desktop: Type.Literal(false) },
  { description: 'not the desktop binary (binnacle agent, a cluster, cloud mode): nothing was done' },
);
/** Each route's answer in desktop mode, or the no-op answer everywhere else. */
const answers = (desktop: Record<string, TSchema>) => ({
  200: Type.Union([Type.Object({ desktop: Type.Literal(true), ...desktop }), NotDesktop]),
  ...errorResponses,
});
const Opened = answers({ opened: Type.String({ description: 'the URL or path handed to the opener' }) });
const PathBody = Type.Object(
  { path: Type.String({ minLength: 1, maxLength: 4096, description: 'an absolute path' }) },
  { additionalProperties: false },
);
const UpdateStatus = answers({
  current: Type.String({ description: 'the running version' }),
  latest: Type.Optional(Type.String({ description: "the manifest's version at the last check" })),
  available: Type.Boolean({ description: 'a newer build for this platform can be applied' }),
  state: Type.Union(
    ['idle', 'checking', 'ready', 'downloading', 'applied', 'error'].map((s) => Type.Literal(s)),
  ),
  checkedAt: Type.Optional(Type.String()),
  error: Type.Optional(Type.String({ description: 'why the last check or apply failed' })),
  restartRequired: Type.Boolean({ description: 'an update was applied; it runs at the next start' }),
});

/**
 * The helpers of the desktop binary (`binnacle desktop`). Every route exists in every mode so the UI has one
 * API; outside desktop mode each answers `{desktop: false}` and does nothing.
 */
export function desktopRoutes(app: App, ctx: DesktopContext): void {
  const service = ctx.config.desktop ? new DesktopService(ctx.config, ctx.version) : undefined;
  // The helpers act on the agent's own machine: never for a tunneled or signed-in caller. The no-op answers
  // reveal nothing, so through the hub they answer like everywhere else.
  const config: FastifyContextConfig = service ? agentOnly : callerAware;
  app.post(
    '/api/desktop/open-url',
    {
      config,
      schema: {
        tags,
        summary: 'Open an http(s) URL in the default browser',
        querystring: Query({}),
        body: Type.Object(
          { url: Type.String({ minLength: 1, maxLength: 8192, description: 'an http or https URL' }) },
          { additionalProperties: false },
        ),
        response: Opened,
      },
    },
    (request) => service?.openUrl(request.body.url) ?? notDesktop,
  );
  app.post(
    '/api/desktop/open-file',
    {
      config,
      schema: {
        tags,
        summary: 'Open a file in the downloads folder or the data directory with its application',
        querystring: Query({}),
        body: PathBody,
        response: Opened,
      },
    },
    (request) => service?.openPath(request.body.path, 'file') ?? notDesktop,
  );
  app.post(
    '/api/desktop/open-folder',
    {
      config,
      schema: {
        tags,
        summary:
          'Open a folder in the downloads folder or the data directory in the file manager (a file: the folder holding it)',
        querystring: Query({}),
        body: PathBody,
        response: Opened,
      },
    },
    (request) => service?.openPath(request.body.path, 'folder') ?? notDesktop,
  );
  app.post(
    '/api/desktop/save-file',
    {
      config,
      bodyLimit: saveBodyLimit,
      schema: {
        tags,
        summary:
          'Save a file into the downloads folder under a safe, unused name ("name (1).ext" when taken); at most 64 MiB',
        querystring: Query({}),
        body: Type.Object(
          {
            filename: Type.String({ minLength: 1, maxLength: 1024, description: 'the suggested name' }),
            content: Type.String({ description: 'the bytes, as text or base64' }),
            encoding: Type.Optional(
              Type.Union([Type.Literal('utf8'), Type.Literal('base64')], { default: 'utf8' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: answers({
          path: Type.String({ description: 'where the file was written' }),
          name: Type.String({ description: 'the name it got' }),
          size: Type.Integer({ description: 'bytes written' }),
        }),
      },
    },
    (request) =>
      service?.saveFile(request.body.filename, request.body.content, request.body.encoding ?? 'utf8') ??
      notDesktop,
  );
  app.get(
    '/api/desktop/update/status',
    {
      config,
      schema: {
        tags,
        summary: "The desktop binary's update: the versions, the last check and what is happening now",
        querystring: Query({}),
        response: UpdateStatus,
      },
    },
    () => service?.updateStatus() ?? notDesktop,
  );
  app.post(
    '/api/desktop/update',
    {
      config,
      schema: {
        tags,
        summary: 'Check the release manifest (--update-url) for a newer desktop binary',
        querystring: Query({}),
        response: UpdateStatus,
      },
    },
    () => service?.checkUpdate() ?? notDesktop,
  );
  app.post(
    '/api/desktop/update/apply',
    {
      config,
      schema: {
        tags,
        summary:
          "Download this platform's newer build, verify its size and SHA-256, and replace the executable (runs at the next start)",
        querystring: Query({}),
        response: answers({
          applied: Type.Literal(true),
          version: Type.String(),
          restartRequired: Type.Literal(true),
        }),
      },
    },
    () => service?.applyUpdate() ?? notDesktop,
  );
}
