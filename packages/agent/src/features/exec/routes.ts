import { AppError, errorResponses, Query } from '@binnacle/common/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type WebSocket from 'ws';
import type { App } from '../../context.ts';
import { agentOnly, asCallerOnPod } from '../../http/caller.ts';
import { ImageRef } from '../../http/schemas.ts';
import { StreamLimit } from '../../http/sse.ts';
import { podAndContainer } from '../../kube/pods.ts';
import { addDebugContainer } from './debug-container.ts';
import { type ContainerPath, downloadFiles, listFiles, safePath } from './files.ts';
import { startLocalShell } from './local-terminal.ts';
import type { ExecContext } from './module.ts';
import { execInPod } from './pod-exec.ts';
import { serveTerminal } from './terminal-bridge.ts';

const tags = ['exec'];
const Namespace = Type.String({ minLength: 1, maxLength: 63, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' });
const Name = Type.String({ minLength: 1, maxLength: 253, pattern: '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$' });
const PodParams = Type.Object({ namespace: Namespace, name: Name });
const Container = Type.String({ minLength: 1, maxLength: 63 });
const Path = Type.String({
  minLength: 1,
  maxLength: 4096,
  // What safePath checks, so the document allows only paths it takes: absolute, no `..` segment, no NUL.
  pattern: '^(?!.*/\\.\\.(?:/|$))/[^\\u0000]*$',
  description: 'an absolute path in the container (no .. segments)',
});
export const sessionLimits = { exec: 50, terminal: 10 };

/** Tries bash, then ash, then sh, each as a login shell; a container without sh cannot run it at all. */
const autoShell = [
  'sh',
  '-c',
  'export TERM=xterm-256color; for s in bash ash sh; do command -v "$s" >/dev/null 2>&1 && exec "$s" -il; done; exec sh -i',
];
/** A check before the WebSocket upgrade: whatever it throws is answered as a plain HTTP error. */
const beforeUpgrade =
  (check: (request: FastifyRequest) => void) =>
  (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    try {
      check(request);
      done();
    } catch (error) {
      done(error as Error);
    }
  };
const upgradeOnly = (path: string) => () => {
  throw new AppError('upgrade_required', `${path} is a WebSocket endpoint: connect with Upgrade: websocket`);
};

export function execRoutes(app: App, ctx: ExecContext): void {
  const fileTarget = (
    { namespace, name }: { namespace: string; name: string },
    query: { container?: string; path?: string },
  ): ContainerPath => ({
    namespace,
    pod: name,
    // The path is checked first, as before any lookup: a bad one is 400 whatever the pod.
    path: safePath(query.path),
    container: podAndContainer(ctx.cluster, namespace, name, query.container).container,
  });
  const execLimit = new StreamLimit('exec', sessionLimits.exec);
  const terminalLimit = new StreamLimit('the local terminal', sessionLimits.terminal);

  app.route({
    config: asCallerOnPod('create', 'exec'),
    method: 'GET',
    url: '/api/pods/:namespace/:name/exec',
    schema: {
      tags,
      summary:
        'WebSocket: a shell (bash, ash or sh, whichever exists) or the given command in a container, with a TTY',
      params: PodParams,
      querystring: Query({
        container: Type.Optional(Container),
        command: Type.Optional(
          Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), {
            maxItems: 64,
            description: 'argv, repeated: command=ls&command=-la',
          }),
        ),
        cols: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 80 })),
        rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 24 })),
      }),
      response: errorResponses,
    },
    preHandler: beforeUpgrade((request) => {
      const { namespace, name } = request.params as { namespace: string; name: string };
      podAndContainer(ctx.cluster, namespace, name, (request.query as { container?: string }).container);
      execLimit.check();
    }),
    handler: upgradeOnly('/api/pods/{namespace}/{name}/exec'),
    wsHandler: (socket: WebSocket, request) => {
      const { namespace, name } = request.params as { namespace: string; name: string };
      const query = request.query as { container?: string; command?: string[]; cols: number; rows: number };
      const { container } = podAndContainer(ctx.cluster, namespace, name, query.container);
      const command = query.command?.length ? query.command : autoShell;
      serveTerminal(
        ctx,
        socket,
        execLimit,
        { kind: 'exec', target: `${namespace}/${name}/${container}` },
        async (sink) => {
          const proc = await execInPod(ctx, namespace, name, container, command, {
            as: request.caller,
            tty: true,
            stdin: true,
            onStdout: (data) => sink.output(data),
            onExit: (result) => {
              const noShell =
                !query.command?.length &&
                result.exitCode === undefined &&
                /not found|no such file/i.test(result.message ?? '');
              sink.exit(
                noShell
                  ? {
                      errorType: 'shell_not_found',
                      message: `container ${container} has no shell (sh not found); pass command=… to run a program`,
                    }
                  : result,
              );
            },
          });
          proc.resize(query.cols, query.rows);
          return proc;
        },
      );
    },
  });

  app.route({
    config: agentOnly,
    method: 'GET',
    url: '/api/local-terminal',
    schema: {
      tags,
      summary:
        "WebSocket: a shell on the agent's own host (local mode only; off in a cluster and with --disable-local-terminal)",
      querystring: Query({
        cols: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 80 })),
        rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 24 })),
      }),
      response: errorResponses,
    },
    preHandler: beforeUpgrade(() => {
      if (ctx.mode !== 'local')
        throw new AppError(
          'forbidden',
          'the local terminal is off: the agent runs in a cluster, where it would be a shell in its own pod',
        );
      if (ctx.config.disableLocalTerminal)
        throw new AppError('forbidden', 'the local terminal is off (--disable-local-terminal)');
      terminalLimit.check();
    }),
    handler: upgradeOnly('/api/local-terminal'),
    wsHandler: (socket: WebSocket, request) => {
      const query = request.query as { cols: number; rows: number };
      serveTerminal(ctx, socket, terminalLimit, { kind: 'terminal', target: 'local shell' }, (sink) =>
        Promise.resolve(startLocalShell(sink, query.cols, query.rows)),
      );
    },
  });

  app.post(
    '/api/pods/:namespace/:name/debug',
    {
      config: asCallerOnPod('patch', 'ephemeralcontainers'),
      schema: {
        tags,
        summary: 'Add an ephemeral debug container to a running pod',
        params: PodParams,
        querystring: Query({}),
        body: Type.Object(
          {
            image: Type.Optional(ImageRef),
            targetContainer: Type.Optional(Container),
            command: Type.Optional(
              Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), { maxItems: 64 }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({
            namespace: Type.String(),
            pod: Type.String(),
            containerName: Type.String(),
            image: Type.String(),
            targetContainer: Type.Optional(Type.String()),
            status: Type.Enum(['waiting', 'running', 'terminated', 'pending']),
            reason: Type.Optional(Type.String()),
          }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const answer = await addDebugContainer(
        ctx,
        request.params.namespace,
        request.params.name,
        request.body ?? {},
        request.caller,
      );
      return reply.code(201).send(answer);
    },
  );

  app.get(
    '/api/pods/:namespace/:name/files',
    {
      config: asCallerOnPod('create', 'exec'),
      schema: {
        tags,
        summary: 'List a directory in a container (through exec)',
        params: PodParams,
        querystring: Query({ container: Type.Optional(Container), path: Type.Optional(Path) }),
        response: {
          200: Type.Object({
            path: Type.String(),
            entries: Type.Array(
              Type.Object({
                name: Type.String(),
                path: Type.String(),
                type: Type.Enum(['file', 'dir', 'symlink', 'other']),
                size: Type.Integer(),
                mode: Type.String(),
                modTime: Type.Optional(Type.String()),
                linkTarget: Type.Optional(Type.String()),
              }),
            ),
            truncated: Type.Boolean(),
          }),
          ...errorResponses,
        },
      },
    },
    (request) => listFiles(ctx, fileTarget(request.params, request.query), request.caller),
  );

  app.get(
    '/api/pods/:namespace/:name/files/download',
    {
      config: asCallerOnPod('create', 'exec'),
      schema: {
        tags,
        summary: 'A tar of a file or directory in a container, streamed as tar produces it',
        produces: ['application/x-tar'],
        params: PodParams,
        querystring: Query({ container: Type.Optional(Container), path: Path }),
        response: { 200: Type.String({ description: 'application/x-tar' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const target = fileTarget(request.params, request.query);
      const { namespace, pod: name, path } = target;
      const stream = await downloadFiles(ctx, target, request.caller);
      const file = `${path === '/' ? 'root' : path.split('/').pop()}.tar`;
      const session = ctx.sessions.open('download', `${namespace}/${name}:${path}`, () => stream.destroy());
      stream.on('close', () => session.end());
      return reply
        .type('application/x-tar')
        .header('Content-Disposition', `attachment; filename="${file.replace(/"/g, '')}"`)
        .send(stream);
    },
  );
}
