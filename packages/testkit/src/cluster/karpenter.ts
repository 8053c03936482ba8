import { type ComponentArgs, karpenterEnv } from './components.ts';
import type { Launch } from './flux.ts';
import type { FullClusterBinaries } from './paths.ts';
import { listening } from './ports.ts';
import { healthy } from './probe.ts';
import { waitUntil } from './wait.ts';

/**
 * Starts Karpenter with its kwok cloud provider (its NodePool, NodeClaim and KWOKNodeClass CRDs must be served
 * already); `ready` waits for its readiness probe and its metrics listener, which opens once its manager runs. It provisions only for pending pods a NodePool admits, and the
 * control plane has none: tests create their own (`karpenterNodePool`). ADR 0127.
 */
export async function startKarpenter(
  launch: Launch,
  bin: FullClusterBinaries,
  args: ComponentArgs,
): Promise<{ ready: (timeoutMs: number) => Promise<void> }> {
  const proc = await launch('karpenter', bin.karpenter, [], karpenterEnv(args));
  return {
    ready: async (timeoutMs) => {
      await Promise.all([
        waitUntil('karpenter', healthy(`http://127.0.0.1:${args.ports.karpenterHealth}/readyz`), {
          timeoutMs,
          process: proc,
        }),
        waitUntil('karpenter metrics', listening(args.ports.karpenterMetrics), { timeoutMs, process: proc }),
      ]);
    },
  };
}
