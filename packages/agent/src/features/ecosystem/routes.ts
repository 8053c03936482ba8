import {
  dnsSubdomainPattern,
  type EcosystemAction,
  ecosystemActionKinds,
  pluginParameterNamePattern,
  pluginParametersMax,
  pluginParameterValueMax,
  postgresBackupMethods,
  postgresBackupTargets,
  qualifiedKind,
} from '@binnacle/common';
import { errorResponses, Query, StringRecord } from '@binnacle/common/server';
import type { FastifyRequest } from 'fastify';
import { type TProperties, Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { actionAnswer, KubeObjectSchema, ObjectNameParam } from '../../http/schemas.ts';
import { clusterScoped } from '../../kube/discovery.ts';
import { bodyMayBeEmpty } from '../../scope/actions.ts';
import { type ActionAddress, type ActionOptions, runEcosystemAction } from './actions.ts';
import type { EcosystemContext } from './module.ts';

const tags = ['ecosystem'];

const Params = (action: EcosystemAction) =>
  Type.Object({
    kind: Type.String({
      minLength: 1,
      maxLength: 253,
      pattern: '^[A-Za-z0-9][A-Za-z0-9.-]*$',
      description: `${ecosystemActionKinds[action].map(qualifiedKind).join(' or ')} (the plural or Kind alone also works)`,
    }),
    namespace: Type.String({
      minLength: 1,
      maxLength: 63,
      pattern: '^(_|[a-z0-9]([-a-z0-9]*[a-z0-9])?)$',
      description: `namespace, or \`${clusterScoped}\` for a cluster-scoped object (a NodeClaim)`,
    }),
    name: ObjectNameParam,
  });

const dryRun = {
  dryRun: Type.Optional(
    Type.Boolean({
      description: 'the API server checks and answers the change (dryRun=All) and keeps nothing',
    }),
  ),
};

const Changed = {
  changed: Type.Boolean({ description: 'false when the object already was in that state' }),
};

interface Route {
  action: EcosystemAction;
  summary: string;
  body: TProperties;
  answer: TProperties;
}

const routes: Route[] = [
  {
    action: 'renew',
    summary:
      "Renew a cert-manager Certificate now, as `cmctl renew`: its `Issuing` condition True, reason ManuallyTriggered, through the status subresource; cert-manager's issuing controller then issues it again",
    body: {},
    answer: {
      condition: Type.Object({}, { additionalProperties: true, description: 'the Issuing condition set' }),
    },
  },
  {
    action: 'backup',
    summary:
      "Back up now: from a Velero Schedule, as `velero backup create --from-schedule` (a Backup of the Schedule's template named `<schedule>-<UTC yyyyMMddHHmmss>`, labelled velero.io/schedule-name); of a CloudNativePG Cluster, as `kubectl cnpg backup` (a Backup naming the cluster)",
    body: {
      name: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 253,
          pattern: dnsSubdomainPattern,
          description: 'the Backup name (default: the Schedule or Cluster name and the UTC time)',
        }),
      ),
      method: Type.Optional(
        Type.Enum([...postgresBackupMethods], {
          description: "CloudNativePG only, as `--method` (default: the cluster's own)",
        }),
      ),
      plugin: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 253,
          pattern: dnsSubdomainPattern,
          description:
            'CloudNativePG only, as `--plugin-name`: the plugin that takes the backup (`barman-cloud.cloudnative-pg.io`); required with method `plugin`, refused with any other',
        }),
      ),
      pluginParameters: Type.Optional(
        StringRecord(
          { pattern: pluginParameterNamePattern },
          Type.String({ maxLength: pluginParameterValueMax }),
          {
            maxProperties: pluginParametersMax,
            description:
              'CloudNativePG only, as `--plugin-parameters`: what the plugin is given (names of letters, digits, `.`, `_`, `-`, `/`, at most 253; values up to 1 024 characters; at most 32); with method `plugin` only',
          },
        ),
      ),
      target: Type.Optional(
        Type.Enum([...postgresBackupTargets], {
          description: "CloudNativePG only, as `--backup-target` (default: the cluster's own)",
        }),
      ),
      online: Type.Optional(
        Type.Boolean({
          description:
            "CloudNativePG only, as `--online`: hot (true) or cold (false); default: the cluster's own",
        }),
      ),
      immediateCheckpoint: Type.Optional(
        Type.Boolean({
          description:
            "CloudNativePG only, as `--immediate-checkpoint`: an online backup starts with an immediate checkpoint (true) or a spread one (false); default: the cluster's own",
        }),
      ),
      waitForArchive: Type.Optional(
        Type.Boolean({
          description:
            "CloudNativePG only, as `--wait-for-archive`: an online backup ends once its last WAL file is archived (true) or at once (false); default: the cluster's own",
        }),
      ),
    },
    answer: { backup: KubeObjectSchema },
  },
  {
    action: 'pause',
    summary:
      'Pause KEDA autoscaling of a ScaledObject or ScaledJob: the autoscaling.keda.sh/paused annotation, and for a ScaledObject held at a count autoscaling.keda.sh/paused-replicas',
    body: {
      replicas: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: 10_000,
          description: 'ScaledObject only: KEDA scales the target to this count and holds it there',
        }),
      ),
    },
    answer: {
      ...Changed,
      paused: Type.Boolean(),
      annotations: Type.Record(Type.String(), Type.String(), { description: "KEDA's pause annotations now" }),
    },
  },
  {
    action: 'resume',
    summary: 'Resume KEDA autoscaling: both pause annotations removed',
    body: {},
    answer: {
      ...Changed,
      paused: Type.Boolean(),
      annotations: Type.Record(Type.String(), Type.String()),
    },
  },
  {
    action: 'disrupt',
    summary:
      "Disrupt a Karpenter NodeClaim: delete it (Karpenter's manual disruption); its termination finalizer has Karpenter drain the node and remove it",
    body: {},
    answer: { ...Changed, node: Type.Optional(Type.String({ description: 'the NodeClaim’s node' })) },
  },
  {
    action: 'restart',
    summary:
      'Restart a CloudNativePG Cluster, as `kubectl cnpg restart`: the kubectl.kubernetes.io/restartedAt annotation on the Cluster; the operator restarts the instances one by one, the primary last',
    body: {},
    answer: { restartedAt: Type.String() },
  },
];

/** The ecosystem projects' actions (docs/ecosystem-actions.md): each the object change of the project's own CLI. */
export function ecosystemRoutes(app: App, ctx: EcosystemContext): void {
  for (const { action, summary, body, answer } of routes) {
    app.post(
      `/api/ecosystem/:kind/:namespace/:name/${action}`,
      {
        config: callerAware,
        preValidation: bodyMayBeEmpty,
        schema: {
          tags,
          summary,
          params: Params(action),
          querystring: Query({}),
          body: Type.Object({ ...dryRun, ...body }, { additionalProperties: false }),
          response: {
            200: Type.Object({ ...actionAnswer, dryRun: Type.Boolean(), ...answer }),
            ...errorResponses,
          },
        },
      },
      (request: FastifyRequest) =>
        runEcosystemAction(
          ctx,
          request.caller,
          action,
          request.params as ActionAddress,
          request.body as ActionOptions,
        ),
    );
  }
}
