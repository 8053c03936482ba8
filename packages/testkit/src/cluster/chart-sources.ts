import { execFile } from 'node:child_process';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { helmBinary, repoRoot } from './paths.ts';

const run = promisify(execFile);

/** Where the control plane serves its charts, and the agent setting that names both sources. */
export interface ChartSources {
  /** The classic repository: http://127.0.0.1:<port> (index.yaml and the .tgz files). */
  http: string;
  /** The OCI registry namespace: oci://127.0.0.1:<port>/charts; none in the demo profile, which has no registry. */
  oci?: string;
  /** `--helm-repositories` for an agent: `demo=<http>,demo-oci=<oci>`, or `demo=<http>` alone. */
  repositories: string;
}

/**
 * The charts of test/cluster/charts, each published at two versions so upgrade-info has something newer to
 * find than the seeded release (installed from the chart directory at its Chart.yaml version, the first).
 */
export const publishedCharts = [
  {
    name: 'billing',
    versions: [
      { version: '1.2.0', appVersion: '3.1.0' },
      { version: '1.3.0', appVersion: '3.2.0' },
    ],
  },
] as const;

export const chartRepositoryNames = { http: 'demo', oci: 'demo-oci' } as const;

/** The configuration of the CNCF distribution registry: loopback only, plain HTTP, files in the state dir. */
export function registryConfig(port: number, dataDir: string): string {
  return [
    'version: 0.1',
    'log:',
    '  level: warn',
    'storage:',
    '  filesystem:',
    `    rootdirectory: ${dataDir}`,
    '  delete:',
    '    enabled: true',
    'http:',
    `  addr: 127.0.0.1:${port}`,
    'catalog:',
    '  maxentries: 1000',
    '',
  ].join('\n');
}

export function chartSources(httpPort: number, registryPort?: number): ChartSources {
  const http = `http://127.0.0.1:${httpPort}`;
  const repositories = `${chartRepositoryNames.http}=${http}`;
  if (registryPort === undefined) return { http, repositories };
  const oci = `oci://127.0.0.1:${registryPort}/charts`;
  return { http, oci, repositories: `${repositories},${chartRepositoryNames.oci}=${oci}` };
}

/**
 * Packages every published chart version with the real helm, writes the classic repository's index.yaml into
 * `httpDir` and pushes the same packages to the registry, if there is one. helm's own files stay under `helmHome`.
 */
export async function publishCharts(sources: ChartSources, httpDir: string, helmHome: string): Promise<void> {
  const helm = await helmBinary();
  const env = {
    ...process.env,
    HELM_CACHE_HOME: join(helmHome, 'cache'),
    HELM_CONFIG_HOME: join(helmHome, 'config'),
    HELM_DATA_HOME: join(helmHome, 'data'),
  };
  await rm(httpDir, { recursive: true, force: true });
  await mkdir(httpDir, { recursive: true });
  for (const chart of publishedCharts) {
    const dir = join(repoRoot, 'test/cluster/charts', chart.name);
    for (const { version, appVersion } of chart.versions) {
      await run(helm, ['package', dir, '--version', version, '--app-version', appVersion, '-d', httpDir], {
        env,
      });
    }
  }
  await run(helm, ['repo', 'index', httpDir, '--url', sources.http], { env });
  const { oci } = sources;
  if (!oci) return;
  for (const file of (await readdir(httpDir)).filter((name) => name.endsWith('.tgz'))) {
    await run(helm, ['push', join(httpDir, file), oci, '--plain-http'], { env });
  }
}
