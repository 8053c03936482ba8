import type { KubeObject } from '@binnacle/common';
import { ApiError, type PostAnswer, post } from '../../api/client.ts';
import { ActionsPanel, type Action as GenericAction } from '../../ui/ActionsPanel.tsx';
import { Field } from '../../ui/forms.tsx';
import type { Act } from '../shell/access.ts';
import { useWhyNot } from '../shell/use-why-not.ts';
import { DrainFit } from './DrainFit.tsx';
import {
  type DrainChoices,
  DrainForm,
  type DrainPod,
  DrainReport,
  drainBody,
  drainDefaults,
  drainProblem,
} from './DrainForm.tsx';
import { type EcosystemChoices, ecosystemActions } from './EcosystemActions.tsx';
import { accepted, wholeNumber } from './form-values.ts';
import { postgresBackupDefaults } from './PostgresBackupForm.tsx';
import { RevisionPicker } from './RevisionPicker.tsx';

/** What an action's dialog lets a person choose before it runs. */
interface Choices extends EcosystemChoices {
  /** As typed: parsed (and refused) by `wholeNumber`, never `Number()`ed. */
  replicas: string;
  revision?: number;
  drain: DrainChoices;
}

/** What an action answers: its message, and for a drain the report of every pod. */
type Outcome = { message: string } & Partial<Pick<PostAnswer<'/api/nodes/{name}/drain'>, 'pods'>>;

type Action = GenericAction<Choices>;

const workloads = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Rollout']);

/** The scale route's bounds. */
const replicaBounds = { min: 0, max: 10_000 };

function workloadActions(kind: string, namespace: string, name: string): Action[] {
  const params = { kind, namespace, name };
  const actions: Action[] = [
    {
      label: 'Restart',
      explain: `Rolls out new pods of ${kind} ${namespace}/${name}, as kubectl rollout restart does.`,
      run: () => post('/api/workloads/{kind}/{namespace}/{name}/restart', { params }),
    },
  ];
  if (kind !== 'DaemonSet') {
    actions.push({
      label: 'Scale',
      explain: `Sets the replicas of ${kind} ${namespace}/${name} (0 to 10000).`,
      problem: ({ replicas }) => wholeNumber(replicas, replicaBounds).problem,
      run: ({ replicas }) =>
        post('/api/workloads/{kind}/{namespace}/{name}/scale', {
          params,
          body: { replicas: accepted(wholeNumber(replicas, replicaBounds)) },
        }),
      form: (choices, set) => (
        <div className="mt-3 w-40">
          <Field
            label="Replicas"
            inputMode="numeric"
            autoComplete="off"
            value={choices.replicas}
            onText={(replicas) => set({ replicas })}
            error={wholeNumber(choices.replicas, replicaBounds).problem}
          />
        </div>
      ),
    });
  }
  actions.push({
    label: 'Roll back',
    explain: `Rolls ${kind} ${namespace}/${name} back to the pod template of an earlier revision, as kubectl rollout undo --to-revision does.`,
    run: ({ revision }) =>
      post('/api/workloads/{kind}/{namespace}/{name}/rollback', {
        params,
        body: revision === undefined ? {} : { revision },
      }),
    form: (choices, set) => (
      <RevisionPicker params={params} chosen={choices.revision} choose={(revision) => set({ revision })} />
    ),
  });
  return actions;
}

function nodeActions(o: KubeObject, name: string): Action[] {
  const params = { name };
  const cordon: Action = o.spec?.unschedulable
    ? {
        label: 'Uncordon',
        explain: `Lets the scheduler place new pods on ${name} again.`,
        run: () => post('/api/nodes/{name}/uncordon', { params }),
      }
    : {
        label: 'Cordon',
        explain: `Stops the scheduler placing new pods on ${name}; running pods stay.`,
        run: () => post('/api/nodes/{name}/cordon', { params }),
        form: () => (
          <DrainFit
            node={name}
            choices={drainDefaults}
            lead="Cordoning moves no pod; this is where they would go should the node be drained later."
          />
        ),
      };
  const drain: Action = {
    label: 'Drain',
    explain: `Cordons ${name} and evicts its pods through the Eviction API, honouring PodDisruptionBudgets, as kubectl drain does. The node stays cordoned.`,
    problem: ({ drain }) => drainProblem(drain),
    run: ({ drain }) => post('/api/nodes/{name}/drain', { params, body: drainBody(drain) }),
    form: (choices, set) => (
      <>
        <DrainForm choices={choices.drain} change={(drain) => set({ drain })} />
        <DrainFit node={name} choices={choices.drain} />
      </>
    ),
  };
  return [cordon, drain];
}

function cronJobActions(o: KubeObject, namespace: string, name: string): Action[] {
  const params = { namespace, name };
  return [
    {
      label: 'Run now',
      explain: `Creates a Job from ${namespace}/${name}'s template now, as kubectl create job --from=cronjob/ does.`,
      run: () => post('/api/cronjobs/{namespace}/{name}/trigger', { params }),
    },
    o.spec?.suspend
      ? {
          label: 'Resume',
          explain: 'Schedules Jobs again.',
          run: () => post('/api/cronjobs/{namespace}/{name}/resume', { params }),
        }
      : {
          label: 'Suspend',
          explain: 'Stops scheduling new Jobs; running ones go on.',
          run: () => post('/api/cronjobs/{namespace}/{name}/suspend', { params }),
        },
  ];
}

/** The operations the object's kind has, as the agent's routes define them (made as the signed-in caller). */
function actionsFor(o: KubeObject, namespace: string | undefined, name: string): Action[] {
  const kind = o.kind ?? '';
  if (workloads.has(kind) && namespace) return workloadActions(kind, namespace, name);
  if (kind === 'Node') return nodeActions(o, name);
  if (kind === 'CronJob' && namespace) return cronJobActions(o, namespace, name);
  return ecosystemActions<Choices>(o, name);
}

/** The capability each button needs; CronJob runs are left to the API server, which says why it refuses. */
const acts: Record<string, Act | undefined> = {
  Restart: 'restart',
  Scale: 'scale',
  'Roll back': 'rollback',
  Cordon: 'cordon',
  Uncordon: 'cordon',
  Drain: 'drain',
};

/** A drain that stopped early answers 409 with the same report as a finished one. */
const reportOf = (outcome?: Outcome, error?: unknown): DrainPod[] | undefined =>
  outcome?.pods ?? (error instanceof ApiError ? (error.body.pods as DrainPod[] | undefined) : undefined);

/** The operations the object's kind has, each asking first; a drain's report of every pod below. */
export function ActionsCard({
  resource,
  namespace,
  name,
}: {
  resource: KubeObject;
  namespace?: string;
  name: string;
}) {
  const whyNot = useWhyNot({ kind: resource.kind, apiVersion: resource.apiVersion, namespace });
  const actions = actionsFor(resource, namespace, name).map((a) => {
    const act = acts[a.label];
    return { ...a, unavailable: act && whyNot(act) };
  });
  if (actions.length === 0) return null;
  return (
    <ActionsPanel<Choices, Outcome>
      subject={{ kind: resource.kind ?? '', namespace, name }}
      actions={actions}
      initial={{
        replicas: String(resource.spec?.replicas ?? 1),
        drain: drainDefaults,
        holdAt: '',
        postgresBackup: postgresBackupDefaults,
      }}
      invalidate={[['resource']]}
      report={(outcome, error) => {
        const pods = reportOf(outcome, error);
        return pods && <DrainReport pods={pods} />;
      }}
    />
  );
}
