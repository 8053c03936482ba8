import type { PostAnswer } from '../../api/client.ts';
import { mutedLook } from '../../ui/controls.tsx';
import { Field } from '../../ui/forms.tsx';
import { accepted, duration, optionalWholeNumber } from './form-values.ts';

/** The switches, and the two fields as typed (checked by `drainProblem` before anything is sent). */
export interface DrainChoices {
  ignoreDaemonSets: boolean;
  deleteEmptyDirData: boolean;
  force: boolean;
  timeout: string;
  /** Blank: each pod's own terminationGracePeriodSeconds. */
  gracePeriodSeconds: string;
  dryRun: boolean;
}

/** The drain route's bounds: a timeout of 1s to 15m, a grace period of 0 to a day. */
const timeoutMaxSeconds = 15 * 60;
const graceBounds = { min: 0, max: 86_400 };

const fields = (c: DrainChoices) => ({
  timeout: duration(c.timeout, timeoutMaxSeconds),
  gracePeriodSeconds: optionalWholeNumber(c.gracePeriodSeconds, graceBounds),
});

/** What is wrong with the typed fields, if anything. */
export const drainProblem = (c: DrainChoices) => {
  const { timeout, gracePeriodSeconds } = fields(c);
  return timeout.problem ?? gracePeriodSeconds.problem;
};

/** The request body of checked choices. */
export function drainBody(c: DrainChoices) {
  const { ignoreDaemonSets, deleteEmptyDirData, force, dryRun } = c;
  const { timeout, gracePeriodSeconds } = fields(c);
  const grace = accepted(gracePeriodSeconds);
  return {
    ignoreDaemonSets,
    deleteEmptyDirData,
    force,
    dryRun,
    timeout: `${accepted(timeout)}s`,
    ...(grace === undefined ? {} : { gracePeriodSeconds: grace }),
  };
}

export type DrainPod = PostAnswer<'/api/nodes/{name}/drain'>['pods'][number];

/** kubectl drain's defaults, and the agent's 60 s. */
export const drainDefaults: DrainChoices = {
  ignoreDaemonSets: true,
  deleteEmptyDirData: false,
  force: false,
  timeout: '60s',
  gracePeriodSeconds: '',
  dryRun: false,
};

const switches: { key: 'ignoreDaemonSets' | 'deleteEmptyDirData' | 'force' | 'dryRun'; label: string }[] = [
  { key: 'ignoreDaemonSets', label: 'Leave DaemonSet pods on the node' },
  { key: 'deleteEmptyDirData', label: 'Evict pods with emptyDir volumes (their data is lost)' },
  { key: 'force', label: 'Evict pods no controller recreates' },
  { key: 'dryRun', label: 'Dry run: only say what would be evicted' },
];

/** The switches of a drain, named as kubectl drain's flags mean them. */
export function DrainForm({ choices, change }: { choices: DrainChoices; change: (c: DrainChoices) => void }) {
  const { timeout, gracePeriodSeconds } = fields(choices);
  return (
    <fieldset className="mt-3 flex flex-col gap-1.5">
      <legend className="sr-only">Drain options</legend>
      {switches.map((s) => (
        <label key={s.key} className="flex items-center gap-2">
          <input
            type="checkbox"
            checked={choices[s.key]}
            onChange={(e) => change({ ...choices, [s.key]: e.target.checked })}
          />
          {s.label}
        </label>
      ))}
      <div className="mt-1 grid grid-cols-2 gap-3">
        <Field
          label="Give up after"
          autoComplete="off"
          value={choices.timeout}
          onText={(text) => change({ ...choices, timeout: text })}
          error={timeout.problem}
        />
        <Field
          label="Grace period (seconds)"
          inputMode="numeric"
          autoComplete="off"
          placeholder="each pod's own"
          value={choices.gracePeriodSeconds}
          onText={(text) => change({ ...choices, gracePeriodSeconds: text })}
          error={gracePeriodSeconds.problem}
        />
      </div>
      <span className={`text-xs ${mutedLook}`}>
        e.g. 90s or 5m, at most 15m; a grace period of 0 to 86400
      </span>
    </fieldset>
  );
}

const statusLook: Record<DrainPod['status'], string> = {
  evicted: 'text-emerald-800 dark:text-emerald-300',
  planned: 'text-teal-800 dark:text-teal-300',
  skipped: 'text-slate-600 dark:text-slate-400',
  terminating: 'text-amber-800 dark:text-amber-300',
  blocked: 'text-amber-800 dark:text-amber-300',
  refused: 'text-red-800 dark:text-red-300',
  failed: 'text-red-800 dark:text-red-300',
};

/** Every pod of the drain and what became of it (a PodDisruptionBudget that blocked it, a switch it needs). */
export function DrainReport({ pods }: { pods: DrainPod[] }) {
  if (pods.length === 0) return <p className="mt-3 text-sm">No pods were on the node.</p>;
  return (
    <table className="mt-3 w-full text-left text-sm" aria-label="Drain report">
      <thead>
        <tr className="text-xs text-slate-600 dark:text-slate-400">
          <th className="py-1 font-medium">Pod</th>
          <th className="py-1 font-medium">Outcome</th>
          <th className="py-1 font-medium">Why</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
        {pods.map((p) => (
          <tr key={`${p.namespace}/${p.name}`}>
            <td className="py-1 font-mono text-xs">
              {p.namespace}/{p.name}
            </td>
            <td className={`py-1 ${statusLook[p.status]}`}>{p.status}</td>
            <td className="py-1 text-slate-700 dark:text-slate-300">{p.reason ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
