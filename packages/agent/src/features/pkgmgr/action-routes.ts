import { errorResponses, Query, sseData, toAppError } from '@binnacle/common/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Static, type TSchema, Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware, requireAccess } from '../../http/caller.ts';
import { actionAnswer } from '../../http/schemas.ts';
import { SseStream } from '../../http/sse.ts';
import type { Impersonation } from '../../kube/client.ts';
import { bodyMayBeEmpty, performAction } from '../../scope/actions.ts';
import type { ReleaseDecoder } from '../../scope/helm-releases.ts';
import type { ChartSources } from './chart-sources.ts';
import { helmTimeoutSeconds } from './helm-cli.ts';
import type { PkgmgrContext } from './module.ts';
import {
  executePlan,
  type HelmPlan,
  type HelmRun,
  type InstallRequest,
  planInstall,
  planRollback,
  planUninstall,
  planUpgrade,
  previewValues,
  type UpgradeRequest,
} from './release-actions.ts';
import {
  HelmStreamFrame,
  InstallBody,
  ReleaseAnswer,
  ReleaseParams,
  RollbackBody,
  UpgradeBody,
  Values,
  ValuesBody,
} from './schemas.ts';

const tags = ['pkgmgr'];
const streamFrames =
  'SSE of `data:` frames only: {type:"progress", phase, message, detail?} as helm works, then {type:"complete", release} or {type:"error", message, code}; the stream then ends. Closing it stops helm.';

/** A client that goes away (its socket closes) aborts the signal. */
function clientGone(request: FastifyRequest): AbortSignal {
  const gone = new AbortController();
  request.raw.socket?.once('close', () => gone.abort());
  return gone.signal;
}

/**
 * Installs, upgrades, rolls back and changes the values of releases with the helm binary, as the caller; each
 * also as an SSE stream of helm's progress. Every refusal the request can earn (400, 403, 404, 409) is answered
 * before helm runs; helm's own failures after that are its message with a status by kind (see runHelm).
 */
export function pkgmgrActionRoutes(
  app: App,
  ctx: PkgmgrContext,
  decoder: ReleaseDecoder,
  sources: ChartSources,
): void {
  const runFor = (caller: Impersonation | undefined, signal?: AbortSignal): HelmRun => ({
    ctx,
    sources,
    decoder,
    caller,
    signal,
  });
  /** Helm reads and writes a release's Secrets: a caller must be able to list them in its namespace. */
  const mayUseReleases = (caller: Impersonation | undefined, namespace: string) =>
    requireAccess(ctx, caller, { verb: 'list', group: '', resource: 'secrets', namespace });

  const perform = (run: HelmRun, plan: HelmPlan) =>
    performAction(
      ctx,
      run.caller,
      `helm-${plan.action}`,
      { kind: 'HelmRelease', group: 'helm.sh', namespace: plan.namespace, name: plan.name },
      async () => {
        const release = await executePlan(run, plan);
        return {
          message: release
            ? `${plan.description}: revision ${release.revision} is ${release.status}`
            : `uninstalled release ${plan.namespace}/${plan.name}`,
          release,
        };
      },
    );

  /** The plan runs with its progress streamed; the answer is already sent, so failures become the last frame. */
  const stream = (reply: FastifyReply, run: HelmRun, plan: HelmPlan) => {
    const sse = new SseStream<{ message: Static<typeof HelmStreamFrame> }>(reply, {
      heartbeat: 'comment',
      heartbeatMs: 15_000,
    });
    const stop = new AbortController();
    sse.onClose(() => stop.abort());
    const streamed: HelmRun = {
      ...run,
      signal: stop.signal,
      progress: (progress) => sse.sendData({ type: 'progress', ...progress }),
    };
    perform(streamed, plan)
      .then(
        ({ release }) => sse.sendData({ type: 'complete', release }),
        (error: unknown) => {
          const failure = toAppError(error);
          sse.sendData({ type: 'error', message: failure.message, code: failure.code });
        },
      )
      .finally(() => sse.end());
  };

  /**
   * One change as two routes: the plain one answers when helm is done, the streamed one (`streamPath`) sends its
   * progress. Both plan first, so every refusal is an ordinary JSON error.
   */
  const change = (
    path: string,
    streamPath: string,
    schema: { params: TSchema; body: TSchema },
    summary: { plain: string; streamed: string },
    plan: (request: FastifyRequest) => Promise<HelmPlan>,
  ) => {
    const common = { tags, querystring: Query({}), ...schema };
    app.post(
      path,
      {
        config: callerAware,
        preValidation: bodyMayBeEmpty,
        schema: { ...common, summary: summary.plain, response: { 200: ReleaseAnswer, ...errorResponses } },
      },
      async (request) => {
        const planned = await plan(request);
        return perform(runFor(request.caller, clientGone(request)), planned);
      },
    );
    app.post(
      streamPath,
      {
        config: callerAware,
        preValidation: bodyMayBeEmpty,
        schema: {
          ...common,
          summary: `${summary.streamed}, streamed. ${streamFrames}`,
          produces: ['text/event-stream'],
          response: sseData(HelmStreamFrame),
        },
      },
      async (request, reply) => stream(reply, runFor(request.caller), await plan(request)),
    );
  };
  const releaseOf = (request: FastifyRequest) => request.params as { namespace: string; name: string };

  change(
    '/api/pkgmgr/releases',
    '/api/pkgmgr/releases/install-stream',
    { params: Type.Object({}), body: InstallBody },
    {
      plain:
        'Install a chart version from a configured source as a release, with helm as the caller (--wait)',
      streamed: 'Install',
    },
    async (request) => {
      const body = request.body as InstallRequest;
      await mayUseReleases(request.caller, body.namespace);
      return planInstall(runFor(request.caller), body);
    },
  );

  change(
    '/api/pkgmgr/releases/:namespace/:name/upgrade',
    '/api/pkgmgr/releases/:namespace/:name/upgrade-stream',
    { params: ReleaseParams, body: UpgradeBody },
    {
      plain:
        'Upgrade a release to a chart version (default: the one it has) with new values or its own, as the caller',
      streamed: 'Upgrade',
    },
    async (request) => {
      const { namespace, name } = releaseOf(request);
      await mayUseReleases(request.caller, namespace);
      return planUpgrade(runFor(request.caller), namespace, name, request.body as UpgradeRequest);
    },
  );

  change(
    '/api/pkgmgr/releases/:namespace/:name/rollback',
    '/api/pkgmgr/releases/:namespace/:name/rollback-stream',
    { params: ReleaseParams, body: RollbackBody },
    {
      plain: 'Roll a release back to a revision (default: the one before the newest), as the caller',
      streamed: 'Roll back',
    },
    async (request) => {
      const { namespace, name } = releaseOf(request);
      await mayUseReleases(request.caller, namespace);
      const { revision } = request.body as { revision?: number };
      return planRollback(runFor(request.caller), namespace, name, revision);
    },
  );

  app.delete(
    '/api/pkgmgr/releases/:namespace/:name',
    {
      config: callerAware,
      schema: {
        tags,
        summary: `Uninstall a release with helm, as the caller, waiting up to ${helmTimeoutSeconds} s for its objects to go`,
        params: ReleaseParams,
        querystring: Query({}),
        response: { 200: Type.Object(actionAnswer), ...errorResponses },
      },
    },
    async (request) => {
      const { namespace, name } = request.params;
      await mayUseReleases(request.caller, namespace);
      const run = runFor(request.caller, clientGone(request));
      const { release: _none, ...answer } = await perform(run, planUninstall(run, namespace, name));
      return answer;
    },
  );

  app.put(
    '/api/pkgmgr/releases/:namespace/:name/values',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          "Replace a release's user-supplied values: an upgrade to the same chart version, as the caller",
        params: ReleaseParams,
        querystring: Query({}),
        body: ValuesBody,
        response: { 200: ReleaseAnswer, ...errorResponses },
      },
    },
    async (request) => {
      const { namespace, name } = request.params;
      await mayUseReleases(request.caller, namespace);
      const run = runFor(request.caller, clientGone(request));
      return perform(run, await planUpgrade(run, namespace, name, { values: request.body.values }));
    },
  );

  app.post(
    '/api/pkgmgr/releases/:namespace/:name/values/preview',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          'What new values would change, rendered by helm without applying (--dry-run=server): values before and after, manifest diff',
        params: ReleaseParams,
        querystring: Query({}),
        body: ValuesBody,
        response: {
          200: Type.Object({ currentValues: Values, newValues: Values, manifestDiff: Type.String() }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { namespace, name } = request.params;
      await mayUseReleases(request.caller, namespace);
      return previewValues(runFor(request.caller, clientGone(request)), namespace, name, request.body.values);
    },
  );
}
