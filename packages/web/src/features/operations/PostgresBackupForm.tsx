import {
  type PostgresBackupMethod,
  type PostgresBackupTarget,
  postgresBackupMethods,
  postgresBackupTargets,
} from '@binnacle/common';
import { Field } from '../../ui/forms.tsx';
import { SelectFilter } from '../../ui/SelectFilter.tsx';

/**
 * What `kubectl cnpg backup` lets a person choose beyond the cluster (docs/ecosystem-actions.md): each left unset
 * takes the cluster's own setting, as the plugin does without the flag.
 */
export interface PostgresBackupChoices {
  method?: PostgresBackupMethod;
  /** As typed: the plugin that takes a backup by method `plugin`. */
  plugin: string;
  target?: PostgresBackupTarget;
  online?: 'online' | 'offline';
}

export const postgresBackupDefaults: PostgresBackupChoices = { plugin: '' };

/** What the backup route takes from the choices: only what was chosen. */
export function postgresBackupBody(choices: PostgresBackupChoices) {
  const plugin = choices.plugin.trim();
  return {
    ...(choices.method ? { method: choices.method } : {}),
    ...(choices.method === 'plugin' && plugin ? { plugin } : {}),
    ...(choices.target ? { target: choices.target } : {}),
    ...(choices.online ? { online: choices.online === 'online' } : {}),
  };
}

/** Why the choices cannot be sent yet: a backup by method `plugin` names its plugin, as the CLI requires. */
export const postgresBackupProblem = (choices: PostgresBackupChoices) =>
  choices.method === 'plugin' && choices.plugin.trim() === ''
    ? 'Name the plugin that takes the backup.'
    : undefined;

const methodLabels: Record<PostgresBackupMethod, string> = {
  barmanObjectStore: 'Barman object store',
  volumeSnapshot: 'Volume snapshot',
  plugin: 'Plugin',
};

const targetLabels: Record<PostgresBackupTarget, string> = {
  primary: 'Primary',
  'prefer-standby': 'Prefer a standby',
};

const clusterSetting = "The cluster's setting";

const onlineLabels = [
  ['online', 'Online (hot)'],
  ['offline', 'Offline (cold)'],
] as const;

/** The plugin's `--method`, `--plugin-name`, `--backup-target` and `--online`, in the backup dialog. */
export function PostgresBackupForm({
  choices,
  set,
}: {
  choices: PostgresBackupChoices;
  set: (change: Partial<PostgresBackupChoices>) => void;
}) {
  return (
    <div className="mt-3 flex flex-wrap items-start gap-3">
      {/* The empty choice leaves the flag out, as the plugin does. */}
      <SelectFilter
        look="field"
        all={clusterSetting}
        label="Method"
        value={choices.method}
        options={postgresBackupMethods.map((m) => [m, methodLabels[m]] as const)}
        onChange={(method) => set({ method })}
      />
      {choices.method === 'plugin' && (
        <div className="w-72">
          <Field
            label="Plugin"
            autoComplete="off"
            placeholder="barman-cloud.cloudnative-pg.io"
            value={choices.plugin}
            onText={(plugin) => set({ plugin })}
            error={postgresBackupProblem(choices)}
          />
        </div>
      )}
      <SelectFilter
        look="field"
        all={clusterSetting}
        label="Target"
        value={choices.target}
        options={postgresBackupTargets.map((t) => [t, targetLabels[t]] as const)}
        onChange={(target) => set({ target })}
      />
      <SelectFilter
        look="field"
        all={clusterSetting}
        label="Online"
        value={choices.online}
        options={onlineLabels}
        onChange={(online) => set({ online })}
      />
    </div>
  );
}
