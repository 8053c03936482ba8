import { type OptionSpec, optionsHelp, parseOptions, resolveOptions } from '@binnacle/common/server';
import { type AgentConfig, type ConfigFile, configDefaults } from './agent-config.ts';
import { authOptions } from './auth-config.ts';
import { cloudFlags } from './flags/cloud.ts';
import { desktopFlags } from './flags/desktop.ts';
import { imageFlags } from './flags/images.ts';
import { metricsFlags } from './flags/metrics.ts';
import { serveFlags } from './flags/serve.ts';
import { timelineFlags } from './flags/timeline.ts';
import { toolFlags } from './flags/tools.ts';

/** Every flag of `binnacle agent`, its BINNACLE_* variable and its config-file key: one table, one truth. */
export const agentOptions: OptionSpec<AgentConfig>[] = [
  ...serveFlags,
  ...timelineFlags,
  ...toolFlags,
  ...metricsFlags,
  ...imageFlags,
  ...cloudFlags,
  ...authOptions,
];

/** `binnacle desktop`: the agent's flags and the desktop helpers' own. */
export const desktopOptions: OptionSpec<AgentConfig>[] = [...agentOptions, ...desktopFlags];

/** The flags whose values are credentials. */
export const secretAgentFlags: ReadonlySet<string> = new Set(
  agentOptions.filter((option) => option.secret).map((option) => option.flag),
);

export function parseAgentArgs(argv: string[], env: NodeJS.ProcessEnv = process.env) {
  return parseOptions(agentOptions, argv, env);
}

export function parseDesktopArgs(argv: string[], env: NodeJS.ProcessEnv = process.env) {
  const parsed = parseOptions(desktopOptions, argv, env);
  return { ...parsed, overrides: { ...parsed.overrides, desktop: true } };
}

export function effectiveConfig(overrides: Partial<AgentConfig>, file: ConfigFile): AgentConfig {
  return resolveOptions(agentOptions, overrides, file, configDefaults(), 'config.json');
}

export function agentHelp(): string {
  return `usage: binnacle agent [flags]

Serves the Binnacle API and UI for one Kubernetes cluster on http://<listen-address>:<port>.
Settings come from flags, then BINNACLE_* variables, then <data-dir>/config.json.

flags:
${optionsHelp(agentOptions, configDefaults())}

docs: docs/agent.md, docs/agent-auth.md (sign-in: --auth-mode)
`;
}

export function desktopHelp(): string {
  return `usage: binnacle desktop [flags]

Runs the agent for this machine's desktop: the UI on loopback only, in your browser, with the desktop
helpers on (opening links and saved files, saving downloads, updating the binary). No --cloud-url.
Settings come from flags, then BINNACLE_* variables, then <data-dir>/config.json.

flags:
${optionsHelp(desktopOptions, configDefaults())}

docs: docs/desktop.md, docs/agent.md
`;
}
