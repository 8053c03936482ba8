import {
  type EcosystemAction,
  ecosystemActionKinds,
  ecosystemActionsOf,
  groupOf,
  type KubeObject,
  kedaPaused,
  qualifiedKind,
} from '@binnacle/common';
import { useQuery } from '@tanstack/react-query';
import { post } from '../../api/client.ts';
import type { Action } from '../../ui/ActionsPanel.tsx';
import { mutedLook } from '../../ui/controls.tsx';
import { Field } from '../../ui/forms.tsx';
import { ErrorMessage } from '../../ui/states.tsx';
import { optionalWholeNumber } from './form-values.ts';
import {
  type PostgresBackupChoices,
  PostgresBackupForm,
  postgresBackupBody,
  postgresBackupProblem,
} from './PostgresBackupForm.tsx';

/**
 * What the ecosystem actions' dialogs let a person choose: the count a paused ScaledObject is held at, if any, and
 * a CloudNativePG backup's options.
 */
export interface EcosystemChoices {
  /** As typed; empty holds the target where it is. */
  holdAt: string;
  postgresBackup: PostgresBackupChoices;
}

/** The pause route's bounds. */
const holdBounds = { min: 0, max: 10_000 };
/** The count typed, once it is one (empty: undefined, the target stays where it is). */
const heldAt = (holdAt: string) => optionalWholeNumber(holdAt, holdBounds);

/** The route's `{kind}` (plural.group), `{namespace}` (`_` when cluster-scoped) and `{name}`. */
type Params = Record<'kind' | 'namespace' | 'name', string>;
/** An action's options besides the dry run: a held count (pause), a backup's options (backup of a Cluster). */
type Options = { replicas?: number } & ReturnType<typeof postgresBackupBody>;
type Send = (params: Params, body: { dryRun: boolean } & Options) => Promise<{ message: string }>;

/** Each action's route (docs/ecosystem-actions.md): the change the project's own CLI makes, as the caller. */
const send: Record<EcosystemAction, Send> = {
  renew: (params, body) => post('/api/ecosystem/{kind}/{namespace}/{name}/renew', { params, body }),
  backup: (params, body) => post('/api/ecosystem/{kind}/{namespace}/{name}/backup', { params, body }),
  pause: (params, body) => post('/api/ecosystem/{kind}/{namespace}/{name}/pause', { params, body }),
  resume: (params, body) => post('/api/ecosystem/{kind}/{namespace}/{name}/resume', { params, body }),
  disrupt: (params, body) => post('/api/ecosystem/{kind}/{namespace}/{name}/disrupt', { params, body }),
  restart: (params, body) => post('/api/ecosystem/{kind}/{namespace}/{name}/restart', { params, body }),
};

/**
 * What the API server answers to the change as a dry run, asked when the dialog opens (and again when a choice
 * changes): the person confirms knowing what would be done, or why it would be refused.
 */
function DryRun({ action, params, options }: { action: EcosystemAction; params: Params; options: Options }) {
  const answer = useQuery({
    queryKey: ['ecosystem-dry-run', action, params, options],
    staleTime: 0,
    gcTime: 0,
    retry: false,
    queryFn: () => send[action](params, { dryRun: true, ...options }),
  });
  return (
    <section
      aria-label="Dry run"
      className="mt-3 rounded-md border border-slate-200 p-3 dark:border-slate-700"
    >
      <h3 className="font-medium">Dry run</h3>
      {answer.isPending && <p className={mutedLook}>Asking the API server…</p>}
      {answer.isError && <ErrorMessage error={answer.error} what="that done" verb="get" />}
      {answer.data && <p className="text-emerald-800 dark:text-emerald-300">{answer.data.message}</p>}
    </section>
  );
}

const words: Record<EcosystemAction, { label: string; explain: (subject: string, group: string) => string }> =
  {
    renew: {
      label: 'Renew',
      explain: (s) =>
        `Marks ${s} for re-issuance (its Issuing condition, reason ManuallyTriggered), as cmctl renew does; cert-manager issues it again.`,
    },
    backup: {
      label: 'Back up now',
      explain: (s, group) =>
        group === 'velero.io'
          ? `Creates a Backup of ${s} now from its template, as velero backup create --from-schedule does.`
          : `Creates a Backup of ${s} now, as kubectl cnpg backup does; the choices below are its flags.`,
    },
    pause: {
      label: 'Pause autoscaling',
      explain: (s) =>
        `Stops KEDA scaling ${s} (the autoscaling.keda.sh/paused annotation); a count holds a ScaledObject's target at that many replicas.`,
    },
    resume: {
      label: 'Resume autoscaling',
      explain: (s) => `Lets KEDA scale ${s} again (the pause annotations removed).`,
    },
    disrupt: {
      label: 'Disrupt',
      explain: (s) =>
        `Deletes ${s}, Karpenter's manual disruption: Karpenter taints and drains its node, then removes the node and its instance.`,
    },
    restart: {
      label: 'Restart',
      explain: (s) =>
        `Restarts the instances of ${s} one by one, the primary last, as kubectl cnpg restart does (the restartedAt annotation).`,
    },
  };

/** The ecosystem actions an object offers (a KEDA object shows Pause or Resume, as it stands), each dry-run first. */
export function ecosystemActions<C extends EcosystemChoices>(o: KubeObject, name: string): Action<C>[] {
  const kind = o.kind ?? '';
  const group = groupOf(o.apiVersion);
  const namespace = o.metadata?.namespace;
  const subject = `${kind} ${namespace ? `${namespace}/` : ''}${name}`;
  return ecosystemActionsOf(group, kind)
    .filter((action) => (action === 'pause' ? !kedaPaused(o) : action === 'resume' ? kedaPaused(o) : true))
    .map((action) => {
      const actionKind = ecosystemActionKinds[action].find((k) => k.group === group && k.kind === kind);
      const params = {
        kind: actionKind ? qualifiedKind(actionKind) : kind,
        namespace: namespace ?? '_',
        name,
      };
      const holds = action === 'pause' && kind === 'ScaledObject';
      const backsUpPostgres = action === 'backup' && group === 'postgresql.cnpg.io';
      const optionsOf = ({ holdAt, postgresBackup }: C): Options => ({
        ...(holds && heldAt(holdAt).value !== undefined ? { replicas: heldAt(holdAt).value } : {}),
        ...(backsUpPostgres ? postgresBackupBody(postgresBackup) : {}),
      });
      return {
        label: words[action].label,
        explain: words[action].explain(subject, group),
        problem: ({ holdAt, postgresBackup }) =>
          holds
            ? heldAt(holdAt).problem
            : backsUpPostgres
              ? postgresBackupProblem(postgresBackup)
              : undefined,
        run: (choices) => send[action](params, { dryRun: false, ...optionsOf(choices) }),
        form: (choices, set) => (
          <>
            {holds && (
              <div className="mt-3 w-56">
                <Field
                  label="Hold at replicas (optional)"
                  inputMode="numeric"
                  autoComplete="off"
                  value={choices.holdAt}
                  onText={(text) => set({ holdAt: text } as Partial<C>)}
                  error={heldAt(choices.holdAt).problem}
                />
              </div>
            )}
            {backsUpPostgres && (
              <PostgresBackupForm
                choices={choices.postgresBackup}
                set={(change) =>
                  set({ postgresBackup: { ...choices.postgresBackup, ...change } } as Partial<C>)
                }
              />
            )}
            <DryRun action={action} params={params} options={optionsOf(choices)} />
          </>
        ),
      };
    });
}
