import {
  type PostgresBackupMethod,
  type PostgresBackupTarget,
  parsePluginParameters,
  pluginParameterNamePattern,
  pluginParametersMax,
  pluginParameterValueMax,
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
  /** As typed, as `--plugin-parameters` takes them: `name=value,name=value`. */
  parameters: string;
  target?: PostgresBackupTarget;
  online?: 'online' | 'offline';
  immediateCheckpoint?: YesNo;
  waitForArchive?: YesNo;
}

type YesNo = 'yes' | 'no';

export const postgresBackupDefaults: PostgresBackupChoices = { plugin: '', parameters: '' };

const yesNo = (choice: YesNo | undefined) => (choice === undefined ? undefined : choice === 'yes');

/** The online configuration applies to a backup that is not chosen offline. */
const mayRunOnline = (choices: PostgresBackupChoices) => choices.online !== 'offline';

/** What the backup route takes from the choices: only what was chosen. */
export function postgresBackupBody(choices: PostgresBackupChoices) {
  const plugin = choices.plugin.trim();
  const byPlugin = choices.method === 'plugin';
  const parameters = byPlugin ? parsePluginParameters(choices.parameters.trim()) : {};
  const online = mayRunOnline(choices)
    ? {
        immediateCheckpoint: yesNo(choices.immediateCheckpoint),
        waitForArchive: yesNo(choices.waitForArchive),
      }
    : {};
  return {
    ...(choices.method ? { method: choices.method } : {}),
    ...(byPlugin && plugin ? { plugin } : {}),
    ...(Object.keys(parameters).length > 0 ? { pluginParameters: parameters } : {}),
    ...(choices.target ? { target: choices.target } : {}),
    ...(choices.online ? { online: choices.online === 'online' } : {}),
    ...Object.fromEntries(Object.entries(online).filter(([, value]) => value !== undefined)),
  };
}

const parameterName = new RegExp(pluginParameterNamePattern);

/** Why the typed parameters cannot be sent: names or values the route refuses, or too many of them. */
function parametersProblem(text: string): string | undefined {
  const parameters = Object.entries(parsePluginParameters(text.trim()));
  const bad = parameters.find(([name]) => !parameterName.test(name));
  if (bad !== undefined)
    return `"${bad[0]}" is not a parameter name: letters, digits, ".", "_", "-" and "/" only.`;
  const long = parameters.find(([, value]) => value.length > pluginParameterValueMax);
  if (long !== undefined) return `The value of ${long[0]} is over ${pluginParameterValueMax} characters.`;
  return parameters.length > pluginParametersMax ? `At most ${pluginParametersMax} parameters.` : undefined;
}

/**
 * Why the choices cannot be sent yet, by field: a backup by method `plugin` names its plugin, as the CLI requires,
 * and its parameters are `name=value` pairs the route takes.
 */
export function postgresBackupProblems(choices: PostgresBackupChoices): {
  plugin?: string;
  parameters?: string;
} {
  if (choices.method !== 'plugin') return {};
  const parameters = parametersProblem(choices.parameters);
  return {
    ...(choices.plugin.trim() === '' ? { plugin: 'Name the plugin that takes the backup.' } : {}),
    ...(parameters ? { parameters } : {}),
  };
}

/** The first reason the choices cannot be sent yet. */
export const postgresBackupProblem = (choices: PostgresBackupChoices) => {
  const { plugin, parameters } = postgresBackupProblems(choices);
  return plugin ?? parameters;
};

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

/** The typed fields of a plugin backup: the plugin's name and its parameters, as the CLI takes them. */
const pluginFields = [
  ['plugin', 'Plugin', 'barman-cloud.cloudnative-pg.io'],
  ['parameters', 'Parameters', 'name=value,name=value'],
] as const;

/** `--immediate-checkpoint` and `--wait-for-archive`: how an online backup starts and ends. */
const onlineFields = [
  ['immediateCheckpoint', 'Immediate checkpoint'],
  ['waitForArchive', 'Wait for WAL archive'],
] as const;

const yesNoLabels = [
  ['yes', 'Yes'],
  ['no', 'No'],
] as const;

/**
 * The plugin's `--method`, `--plugin-name`, `--plugin-parameters`, `--backup-target`, `--online`,
 * `--immediate-checkpoint` and `--wait-for-archive`, in the backup dialog.
 */
export function PostgresBackupForm({
  choices,
  set,
}: {
  choices: PostgresBackupChoices;
  set: (change: Partial<PostgresBackupChoices>) => void;
}) {
  const problems = postgresBackupProblems(choices);
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
      {choices.method === 'plugin' &&
        pluginFields.map(([field, label, placeholder]) => (
          <div key={field} className="w-72">
            <Field
              label={label}
              autoComplete="off"
              placeholder={placeholder}
              value={choices[field]}
              onText={(text) => set({ [field]: text })}
              error={problems[field]}
            />
          </div>
        ))}
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
      {mayRunOnline(choices) &&
        onlineFields.map(([field, label]) => (
          <SelectFilter
            key={field}
            look="field"
            all={clusterSetting}
            label={label}
            value={choices[field]}
            options={yesNoLabels}
            onChange={(choice) => set({ [field]: choice })}
          />
        ))}
    </div>
  );
}
