import semver from 'semver';
import type { ReleaseSummary } from '../../scope/helm-releases.ts';
import type { ChartSources } from './chart-sources.ts';

export interface UpgradeInfo {
  currentVersion: string;
  latestVersion?: string;
  updateAvailable: boolean;
  /** The source that has the latest version. */
  repositoryName?: string;
  /** Why no answer could be given (no source has the chart, or a source failed). */
  error?: string;
}

/**
 * Whether a newer version of a release's chart is in a configured source. A release does not record where its
 * chart came from, so every source with a chart of that name is asked; one that also has the installed version
 * is preferred (it is the chart's own source), then the highest version. Pre-releases count only when the
 * installed version is one.
 */
export async function upgradeInfo(
  sources: ChartSources,
  release: Pick<ReleaseSummary, 'chart' | 'chartVersion'>,
): Promise<UpgradeInfo> {
  const current = release.chartVersion;
  const candidates: { repository: string; latest: string; hasCurrent: boolean }[] = [];
  const failures: string[] = [];
  const includePrerelease = semver.prerelease(current) !== null;
  for (const { name } of sources.repositories) {
    let versions: { version: string }[] | undefined;
    try {
      versions = (await sources.index(name)).charts.get(release.chart);
    } catch (error) {
      failures.push((error as Error).message);
      continue;
    }
    const latest = versions?.find(
      (v) => semver.valid(v.version) && (includePrerelease || !semver.prerelease(v.version)),
    );
    if (latest)
      candidates.push({
        repository: name,
        latest: latest.version,
        hasCurrent: versions?.some((v) => v.version === current) ?? false,
      });
  }
  candidates.sort(
    (a, b) => Number(b.hasCurrent) - Number(a.hasCurrent) || semver.rcompare(a.latest, b.latest),
  );
  const best = candidates[0];
  if (!best)
    return {
      currentVersion: current,
      updateAvailable: false,
      error:
        failures.length > 0
          ? failures.join('; ')
          : sources.repositories.length === 0
            ? 'no chart repositories are configured (--helm-repositories)'
            : `no configured repository has a chart ${release.chart}`,
    };
  return {
    currentVersion: current,
    latestVersion: best.latest,
    updateAvailable: semver.valid(current) !== null && semver.gt(best.latest, current),
    repositoryName: best.repository,
  };
}
