import type { AgentConfig, AuditSettings, ConfigFile, Settings } from '../config/agent-config.ts';
import type { AgentContext } from '../context.ts';

/** What the settings read: the running configuration and the two files the agent keeps. */
type SettingsFiles = Pick<AgentContext, 'config' | 'configFile' | 'settingsFile'>;

export interface ConfigView {
  /** What `<data-dir>/config.json` holds. */
  file: ConfigFile;
  /** What the agent runs with now (flags > BINNACLE_* > file > defaults). */
  effective: Omit<AgentConfig, 'dataDir' | 'clusterToken' | 'metricsdbHeaders' | 'oidcClientSecret'> & {
    dataDir: string;
    clusterTokenSet: boolean;
    metricsdbHeadersSet: boolean;
    oidcClientSecretSet: boolean;
  };
  path: string;
}

export async function readConfig(ctx: SettingsFiles): Promise<ConfigView> {
  // The cluster token, the metrics store's headers and the OIDC client secret (set when the agent is embedded)
  // are credentials: the answer says whether they are set.
  const { clusterToken, metricsdbHeaders, oidcClientSecret, ...effective } = ctx.config;
  return {
    file: await ctx.configFile.read(),
    effective: {
      ...effective,
      clusterTokenSet: Boolean(clusterToken),
      metricsdbHeadersSet: Boolean(metricsdbHeaders),
      oidcClientSecretSet: Boolean(oidcClientSecret),
    },
    path: ctx.configFile.path,
  };
}

/** Replaces the config file (validated by the route schema); it takes effect at the next start. */
export async function replaceConfig(
  ctx: SettingsFiles,
  file: ConfigFile,
): Promise<ConfigView & { restartRequired: boolean }> {
  await ctx.configFile.write(file);
  return { ...(await readConfig(ctx)), restartRequired: true };
}

export const defaultAuditSettings = (): AuditSettings => ({ ignoredNamespaces: [], disabledChecks: [] });

export function readSettings(ctx: SettingsFiles): Promise<Settings> {
  return ctx.settingsFile.read();
}

/** Merges the given top-level fields into the settings; fields left out keep their value. */
export function mergeSettings(ctx: SettingsFiles, patch: Settings): Promise<Settings> {
  return ctx.settingsFile.update((current) => ({ ...current, ...patch }));
}

export async function readAuditSettings(ctx: SettingsFiles): Promise<AuditSettings> {
  return (await ctx.settingsFile.read()).audit ?? defaultAuditSettings();
}

export async function replaceAuditSettings(ctx: SettingsFiles, audit: AuditSettings): Promise<AuditSettings> {
  const settings = await ctx.settingsFile.update((current) => ({ ...current, audit }));
  return settings.audit ?? audit;
}
