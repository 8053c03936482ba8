import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { post } from '../../api/client.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Card, ErrorMessage } from '../../ui/states.tsx';
import type { KubeObject } from '../resources/objects.ts';

interface Action {
  label: string;
  /** What the confirmation says will happen. */
  explain: string;
  run: (replicas: number) => Promise<{ message: string }>;
  /** Asks for a replica count first. */
  scale?: boolean;
}

const workloads = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Rollout']);

/** The operations the object's kind has, as the agent's routes define them (made as the signed-in caller). */
function actionsFor(o: KubeObject, namespace: string | undefined, name: string): Action[] {
  const kind = o.kind ?? '';
  if (workloads.has(kind) && namespace) {
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
        scale: true,
        run: (replicas) =>
          post('/api/workloads/{kind}/{namespace}/{name}/scale', { params, body: { replicas } }),
      });
    }
    return actions;
  }
  if (kind === 'Node') {
    const cordoned = Boolean(o.spec?.unschedulable);
    return [
      cordoned
        ? {
            label: 'Uncordon',
            explain: `Lets the scheduler place new pods on ${name} again.`,
            run: () => post('/api/nodes/{name}/uncordon', { params: { name } }),
          }
        : {
            label: 'Cordon',
            explain: `Stops the scheduler placing new pods on ${name}; running pods stay.`,
            run: () => post('/api/nodes/{name}/cordon', { params: { name } }),
          },
    ];
  }
  if (kind === 'CronJob' && namespace) {
    const params = { namespace, name };
    const suspended = Boolean(o.spec?.suspend);
    return [
      {
        label: 'Run now',
        explain: `Creates a Job from ${namespace}/${name}'s template now, as kubectl create job --from=cronjob/ does.`,
        run: () => post('/api/cronjobs/{namespace}/{name}/trigger', { params }),
      },
      suspended
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
  return [];
}

/** Buttons for the object's operations: each asks first, then says what happened and where it is recorded. */
export function ActionsCard({
  resource,
  namespace,
  name,
}: {
  resource: KubeObject;
  namespace?: string;
  name: string;
}) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<Action>();
  const [replicas, setReplicas] = useState(Number(resource.spec?.replicas ?? 1));
  const action = useMutation({
    mutationFn: (chosen: Action) => chosen.run(replicas),
    onSettled: () => {
      setAsking(undefined);
      void queryClient.invalidateQueries({ queryKey: ['resource'] });
      void queryClient.invalidateQueries({ queryKey: ['changes'] });
    },
  });
  const actions = actionsFor(resource, namespace, name);
  if (actions.length === 0) return null;
  return (
    <Card title="Actions">
      <div className="flex flex-wrap gap-2">
        {actions.map((a) => (
          <button
            key={a.label}
            type="button"
            className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
            onClick={() => {
              action.reset();
              setAsking(a);
            }}
          >
            {a.label}
          </button>
        ))}
      </div>
      {action.isSuccess && (
        <p role="status" className="mt-3 text-sm text-emerald-800 dark:text-emerald-300">
          {action.data.message}{' '}
          <Link
            to="/timeline"
            search={{ namespace, kind: resource.kind, name, type: 'actions' }}
            className="text-teal-800 underline dark:text-teal-300"
          >
            See it on the timeline
          </Link>
        </p>
      )}
      {action.isError && (
        <div className="mt-3">
          <ErrorMessage error={action.error} what="that done" />
        </div>
      )}
      {asking && (
        <ConfirmDialog
          title={`${asking.label} ${resource.kind} ${name}?`}
          confirm={asking.label}
          busy={action.isPending}
          onCancel={() => setAsking(undefined)}
          onConfirm={() => action.mutate(asking)}
        >
          <p>{asking.explain}</p>
          {asking.scale && (
            <label className="mt-3 flex items-center gap-2">
              Replicas
              <input
                type="number"
                min={0}
                max={10_000}
                value={replicas}
                onChange={(e) => setReplicas(Number(e.target.value))}
                className="w-24 rounded-md border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-800"
              />
            </label>
          )}
        </ConfirmDialog>
      )}
    </Card>
  );
}
