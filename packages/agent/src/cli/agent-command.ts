import { urlHost } from '@binnacle/common';
import { exitOnCrash, exitOnSignal, serverLogger, UsageError } from '@binnacle/common/server';
import { agentVersion, createAgent } from '../agent.ts';
import { ConfigFileSchema, configDefaults, configFilePath } from '../config/agent-config.ts';
import { InvalidFileError, JsonFile } from '../config/json-file.ts';
import {
  agentHelp,
  desktopHelp,
  effectiveConfig,
  parseAgentArgs,
  parseDesktopArgs,
} from '../config/options.ts';
import { openExternal } from '../features/desktop/opener.ts';
import { checkDesktopConfig } from '../features/desktop/service.ts';
import { clusterConfigured, KubeconfigError, resolveTarget } from '../kube/kubeconfig.ts';
import { exposureNotice } from './exposure.ts';
import { showSyncProgress } from './progress.ts';

/** The two commands that serve an agent: the same start, their own flags. */
const commands = {
  agent: { parse: parseAgentArgs, help: agentHelp },
  desktop: { parse: parseDesktopArgs, help: desktopHelp },
};
type CommandName = keyof typeof commands;

/** Flags and BINNACLE_* variables over `<data-dir>/config.json` over the defaults. */
async function configOf(parsed: ReturnType<typeof parseAgentArgs>) {
  const dataDir = parsed.overrides.dataDir ?? configDefaults().dataDir;
  return effectiveConfig(
    parsed.overrides,
    await new JsonFile(configFilePath(dataDir), ConfigFileSchema, () => ({})).read(),
  );
}

/**
 * Whether `binnacle agent` with these flags would find a cluster by itself, from every source it reads:
 * --kubeconfig, BINNACLE_KUBECONFIG, `kubeconfig` in `<data-dir>/config.json`, KUBECONFIG, ~/.kube/config, the
 * in-cluster service account. Flags or a file it would refuse count as configured: the agent then says why.
 */
export async function agentFindsCluster(argv: string[]): Promise<boolean> {
  try {
    return clusterConfigured((await configOf(parseAgentArgs(argv))).kubeconfig);
  } catch (error) {
    if (error instanceof InvalidFileError || error instanceof UsageError) return true;
    throw error;
  }
}

/** `binnacle agent`: resolves config and cluster, serves, shows sync progress, shuts down cleanly on a signal. */
export const runAgent = (argv: string[]) => serve('agent', argv);

/** `binnacle desktop`: the same agent on loopback, with the desktop helpers (docs/desktop.md). */
export const runDesktop = (argv: string[]) => serve('desktop', argv);

async function serve(name: CommandName, argv: string[]): Promise<number> {
  const fail = (message: string, code: number) => {
    process.stderr.write(`binnacle ${name}: ${message}\n`);
    return code;
  };
  let parsed: ReturnType<typeof parseAgentArgs>;
  try {
    parsed = commands[name].parse(argv);
  } catch (error) {
    if (error instanceof UsageError)
      return fail(`${error.message}\nrun "binnacle ${name} --help" for the flags`, 2);
    throw error;
  }
  if (parsed.help) {
    process.stdout.write(commands[name].help());
    return 0;
  }
  let config: ReturnType<typeof effectiveConfig>;
  let target: Awaited<ReturnType<typeof resolveTarget>>;
  try {
    config = await configOf(parsed);
    checkDesktopConfig(config);
    target = await resolveTarget({ kubeconfig: config.kubeconfig, context: config.context });
  } catch (error) {
    if (error instanceof InvalidFileError || error instanceof UsageError) return fail(error.message, 2);
    if (error instanceof KubeconfigError) return fail(error.message, 1);
    throw error;
  }

  const log = serverLogger(config.debugEvents ? 'info' : 'warn');
  exitOnCrash(name, log);
  let agent: Awaited<ReturnType<typeof createAgent>>;
  try {
    agent = await createAgent(config, target, log, { connect: true });
  } catch (error) {
    // Settings that only make sense together (cloud mode, sign-in) are checked as the agent is built.
    if (error instanceof UsageError) return fail(error.message, 2);
    throw error;
  }
  try {
    await agent.listen();
  } catch (error) {
    await agent.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      return fail(`port ${config.port} on ${config.listenAddress} is in use; pick another with --port`, 1);
    }
    return fail(`cannot listen on ${config.listenAddress}:${config.port}: ${(error as Error).message}`, 1);
  }
  const host =
    config.listenAddress === '0.0.0.0' || config.listenAddress === '::' ? 'localhost' : config.listenAddress;
  const url = `http://${urlHost(host)}:${config.port}`;
  process.stderr.write(
    `binnacle ${name} ${agentVersion}: serving ${url} for context "${target.contextName}" (${target.server.origin})\n`,
  );
  const notice = exposureNotice(config, url);
  if (notice) process.stderr.write(`binnacle ${name}: ${notice}\n`);
  const stopProgress = showSyncProgress(agent.ctx.cluster.cache);
  // In cloud mode the UI lives at the hub; the agent's own port would only refuse the browser. A server has
  // no browser: failing to open one is no failure of the agent.
  if (process.stdout.isTTY && !config.noBrowser && !config.cloudUrl) openExternal(url).catch(() => {});
  // The progress line is left open (carriage returns): end it before the shutdown message.
  return exitOnSignal(
    name,
    () => agent.close(),
    () => {
      stopProgress();
      process.stderr.write('\n');
    },
  );
}
