import { describe, expect, it } from 'vitest';
import { jobFromCronJob, manualJobName } from './service.ts';

describe('manual Jobs of a CronJob', () => {
  it('are named <cronjob>-manual-<unix seconds>, shortened to stay a valid label value', () => {
    const at = new Date('2026-11-24T10:00:00Z');
    expect(manualJobName('nightly-report', at)).toBe('nightly-report-manual-1795514400');
    const long = manualJobName(`${'a'.repeat(40)}-${'b'.repeat(30)}`, at);
    expect(long).toHaveLength(63);
    expect(long).toMatch(/^a+-b+-manual-1795514400$/);
    expect(manualJobName(`${'a'.repeat(44)}-x`, at)).toBe(`${'a'.repeat(44)}-manual-1795514400`);
  });

  it('carry the template, the manual annotation and the CronJob as controlling owner', () => {
    const job = jobFromCronJob(
      {
        metadata: { name: 'nightly', namespace: 'ops', uid: 'u-1' },
        spec: {
          jobTemplate: {
            metadata: { labels: { team: 'data' }, annotations: { note: 'x' } },
            spec: { template: { spec: { containers: [{ name: 'r', image: 'r:1' }] } } },
          },
        },
      },
      'nightly-manual-1',
    );
    expect(job).toEqual({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: 'nightly-manual-1',
        namespace: 'ops',
        labels: { team: 'data' },
        annotations: { note: 'x', 'cronjob.kubernetes.io/instantiate': 'manual' },
        ownerReferences: [
          {
            apiVersion: 'batch/v1',
            kind: 'CronJob',
            name: 'nightly',
            uid: 'u-1',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: { template: { spec: { containers: [{ name: 'r', image: 'r:1' }] } } },
    });
  });
});
