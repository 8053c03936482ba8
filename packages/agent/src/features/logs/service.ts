import { parseDuration } from '@binnacle/common';
import { badRequest } from '@binnacle/common/server';
import type { Impersonation } from '../../kube/client.ts';
import { containersOf, podAndContainer } from '../../kube/pods.ts';
import type { LogLine } from './lines.ts';
import type { LogsContext } from './module.ts';
import { openPodLog } from './pod-log.ts';

/** A log's `since` (a duration back from now: `90s`, `15m`, `2h`) in whole seconds; a 400 naming it otherwise. */
export function sinceSeconds(
  since: string | undefined,
  field = 'query parameter "since"',
): number | undefined {
  if (since === undefined) return undefined;
  try {
    return Math.max(1, Math.ceil(parseDuration(since, field) / 1000));
  } catch (error) {
    throw badRequest((error as Error).message);
  }
}

export const quickReadLimits = { defaultTail: 500, maxTail: 10_000, maxBytes: 5 * 1024 * 1024 };

export interface QuickLog {
  namespace: string;
  pod: string;
  container: string;
  containers: string[];
  lines: LogLine[];
  /** True when the 5 MiB cap cut the answer short. */
  truncated: boolean;
}

/** The last lines of one container, read at once (no stream): at most 10 000 lines and 5 MiB. */
export async function readPodLog(
  ctx: LogsContext,
  namespace: string,
  name: string,
  query: { container?: string; tail?: number; sinceSeconds?: number; previous?: boolean; as?: Impersonation },
): Promise<QuickLog> {
  const { pod, container } = podAndContainer(ctx.cluster, namespace, name, query.container);
  const lines: LogLine[] = [];
  let bytes = 0;
  const stream = await openPodLog(
    ctx,
    namespace,
    name,
    {
      container,
      follow: false,
      tail: query.tail ?? quickReadLimits.defaultTail,
      sinceSeconds: query.sinceSeconds,
      previous: query.previous,
      limitBytes: quickReadLimits.maxBytes,
      as: query.as,
    },
    (line) => {
      bytes += line.line.length + 1;
      lines.push(line);
    },
  );
  await stream.ended;
  return {
    namespace,
    pod: name,
    container,
    containers: containersOf(pod),
    lines,
    truncated: bytes >= quickReadLimits.maxBytes,
  };
}
