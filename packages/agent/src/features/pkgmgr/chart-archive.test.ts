import { gzipSync } from 'node:zlib';
import { tarArchive } from '@binnacle/testkit';
import { describe, expect, it } from 'vitest';
import { readChartArchive } from './chart-archive.ts';

/** A packaged chart as `helm package` lays it out: everything under the chart's own directory. */
const chart = (extra: Parameters<typeof tarArchive>[0] = []) =>
  gzipSync(
    tarArchive([
      { path: 'billing/Chart.yaml', content: 'name: billing\nversion: 1.3.0\n' },
      { path: 'billing/values.yaml', content: '# the chart\nreplicas: 1\n' },
      { path: 'billing/values.schema.json', content: '{"type":"object"}' },
      { path: 'billing/charts/db/values.yaml', content: 'replicas: 9\n' },
      { path: 'billing/charts/db/README.md', content: '# db' },
      ...extra,
    ]),
  );

describe('readChartArchive', () => {
  it("reads the chart's own top-level files, never a subchart's", async () => {
    expect(await readChartArchive(chart(), 'demo/billing 1.3.0')).toEqual({
      metadata: { name: 'billing', version: '1.3.0' },
      values: '# the chart\nreplicas: 1\n',
      readme: undefined,
      schema: { type: 'object' },
    });
  });

  it('refuses a file above 5 MiB, bytes that are no gzip, and an archive without Chart.yaml', async () => {
    const big = chart([{ path: 'billing/README.md', content: Buffer.alloc((5 << 20) + 1, 0x61) }]);
    await expect(readChartArchive(big, 'demo/billing')).rejects.toMatchObject({
      code: 'chart_source_error',
      message: 'demo/billing: billing/README.md is larger than 5 MiB',
    });
    await expect(readChartArchive(Buffer.from('not gzip'), 'demo/billing')).rejects.toMatchObject({
      code: 'chart_source_error',
      message: expect.stringContaining('demo/billing cannot be read'),
    });
    const empty = gzipSync(tarArchive([{ path: 'billing/values.yaml', content: '' }]));
    await expect(readChartArchive(empty, 'demo/billing')).rejects.toThrow('holds no Chart.yaml');
  });

  it('stops unpacking past 100 MiB, however small the archive', async () => {
    // gzip members one after the other unpack as one stream: the chart, then 101 files of 1 MiB of zeros.
    const withoutEnd = (entries: Parameters<typeof tarArchive>[0]) => {
      const tar = tarArchive(entries);
      return gzipSync(tar.subarray(0, tar.length - 1024));
    };
    const mib = withoutEnd([{ path: 'billing/padding.bin', content: Buffer.alloc(1 << 20) }]);
    const bomb = Buffer.concat([
      withoutEnd([{ path: 'billing/Chart.yaml', content: 'name: billing\n' }]),
      ...Array.from({ length: 101 }, () => mib),
      gzipSync(Buffer.alloc(1024)),
    ]);
    expect(bomb.length).toBeLessThan(1 << 20);
    await expect(readChartArchive(bomb, 'demo/billing')).rejects.toThrow('larger than 100 MiB');
  });
});
