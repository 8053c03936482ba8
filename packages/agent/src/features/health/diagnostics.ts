import { homedir } from 'node:os';
import type { KindStatus, TierStatus } from '../../kube/informer-cache.ts';
import { healthReport } from './health.ts';
import type { HealthContext } from './module.ts';

export interface Diagnostics {
  generatedAt: string;
  agent: {
    version: string;
    node: string;
    platform: string;
    mode: string;
    uptimeSeconds: number;
    rssMB: number;
    heapUsedMB: number;
  };
  connection: {
    state: string;
    error?: string;
    server: string;
    kubernetesVersion?: string;
    connectedAt?: string;
  };
  kubeconfig: {
    source: string;
    files: string[];
    context: string;
    contexts: number;
    authMethod: string;
    namespaces?: readonly string[];
  };
  informers: {
    tiers: TierStatus[];
    kinds: number;
    objects: number;
    failing: KindStatus[];
    slowest: KindStatus[];
  };
  config: { port: number; listenAddress: string; namespace?: string; debugEvents: boolean; dataDir: string };
}

/** Paths show `~` instead of the home directory: the report is meant to be pasted into an issue. */
const tilde = (path: string) => (path.startsWith(homedir()) ? `~${path.slice(homedir().length)}` : path);

/**
 * A report to paste into a bug: versions, connection, how the agent authenticates (the method, never the
 * credential), sync progress and the slowest or failing kinds. Server addresses keep only scheme and host.
 */
export function diagnostics(ctx: HealthContext): Diagnostics {
  const health = healthReport(ctx);
  const { cluster, config } = ctx;
  const kinds = cluster.cache.kinds();
  return {
    generatedAt: new Date().toISOString(),
    agent: {
      version: ctx.version,
      node: process.version,
      platform: `${process.platform}/${process.arch}`,
      mode: ctx.mode,
      uptimeSeconds: health.runtime.uptimeSeconds,
      rssMB: health.runtime.rssMB,
      heapUsedMB: health.runtime.heapUsedMB,
    },
    connection: {
      state: cluster.state,
      error: cluster.lastError?.message,
      server: cluster.target.server.origin,
      kubernetesVersion: cluster.version?.gitVersion,
      connectedAt: cluster.connectedAt?.toISOString(),
    },
    kubeconfig: {
      source: cluster.target.source,
      files: cluster.target.kubeconfigFiles.map(tilde),
      context: cluster.target.contextName,
      contexts: cluster.target.contexts.length,
      authMethod: cluster.target.authMethod,
      ...(cluster.cache.namespaces ? { namespaces: cluster.cache.namespaces } : {}),
    },
    informers: {
      tiers: health.sync.tiers,
      kinds: kinds.length,
      objects: health.resourceCount,
      failing: kinds.filter((k) => k.state === 'error' || k.state === 'forbidden'),
      slowest: [...kinds].sort((a, b) => (b.listDurationMs ?? 0) - (a.listDurationMs ?? 0)).slice(0, 5),
    },
    config: {
      port: config.port,
      listenAddress: config.listenAddress,
      namespace: config.namespace,
      debugEvents: config.debugEvents,
      dataDir: tilde(config.dataDir),
    },
  };
}

/** The same report as Markdown, for "copy diagnostics". */
export function diagnosticsMarkdown(d: Diagnostics): string {
  const tiers = d.informers.tiers
    .map((t) => `| ${t.name} | ${t.state} | ${t.synced}/${t.kinds} | ${t.durationMs ?? '-'} |`)
    .join('\n');
  const failing = d.informers.failing
    .map((k) => `- ${k.resource}${k.group ? `.${k.group}` : ''}: ${k.state} — ${k.error ?? ''}`)
    .join('\n');
  return `## Binnacle diagnostics (${d.generatedAt})

- agent ${d.agent.version} on Node ${d.agent.node}, ${d.agent.platform}, mode ${d.agent.mode}, up ${d.agent.uptimeSeconds}s, RSS ${d.agent.rssMB} MB
- connection: ${d.connection.state} to ${d.connection.server} (Kubernetes ${d.connection.kubernetesVersion ?? 'unknown'})${d.connection.error ? ` — ${d.connection.error}` : ''}
- kubeconfig: ${d.kubeconfig.source} ${d.kubeconfig.files.join(':')} context ${d.kubeconfig.context} (${d.kubeconfig.contexts} contexts), auth ${d.kubeconfig.authMethod}
- informers: ${d.informers.kinds} kinds, ${d.informers.objects} objects

| tier | state | kinds | ms |
|---|---|---|---|
${tiers}

${failing ? `failing kinds:\n${failing}\n` : 'no failing kinds\n'}`;
}
