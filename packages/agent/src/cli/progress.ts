import type { InformerCache } from '../kube/informer-cache.ts';

/** One line, rewritten in place on a TTY: how far each tier of the informer cache has synced. */
export function syncLine(cache: InformerCache, startedAt: number): string {
  const tiers = cache
    .tiers()
    .map((t) => `${t.name} ${t.synced}/${t.kinds}`)
    .join(' · ');
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
  return `syncing cluster: ${tiers} (${seconds}s)`;
}

/**
 * Shows sync progress on stderr until every tier has synced: a live line on a TTY, one line per finished
 * tier otherwise. Returns a function that stops it early.
 */
export function showSyncProgress(
  cache: InformerCache,
  stream: NodeJS.WriteStream = process.stderr,
): () => void {
  const startedAt = Date.now();
  const reported = new Set<string>();
  const tick = () => {
    const tiers = cache.tiers();
    if (stream.isTTY) stream.write(`\r\x1b[K${syncLine(cache, startedAt)}`);
    for (const tier of tiers) {
      if (tier.state === 'synced' && !reported.has(tier.name)) {
        reported.add(tier.name);
        if (!stream.isTTY)
          stream.write(
            `binnacle agent: ${tier.name} tier synced (${tier.kinds} kinds, ${tier.durationMs} ms)\n`,
          );
      }
    }
    if (tiers.every((t) => t.state === 'synced')) {
      stop();
      const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
      if (stream.isTTY)
        stream.write(
          `\r\x1b[Kcluster synced: ${cache.kinds().length} kinds, ${cache.objectCount()} objects in ${seconds}s\n`,
        );
    }
  };
  const timer = setInterval(tick, 200);
  timer.unref();
  const stop = () => clearInterval(timer);
  return stop;
}
