import { describe, expect, it } from 'vitest';
import type { StoredRelease } from '../../scope/helm-releases.ts';
import { diagnosedRevision, inferRollbacks } from './hook-diagnostics.ts';

const revision = (version: number, status: string, description: string): StoredRelease => ({
  name: 'shop',
  namespace: 'shop',
  version,
  info: { status, description, last_deployed: `2026-11-29T10:0${version}:00Z` },
});

describe('inferRollbacks', () => {
  it('pairs an automatic rollback with the failed upgrade before it, and a manual one with none', () => {
    const history = [
      revision(1, 'superseded', 'Install complete'),
      revision(2, 'superseded', 'Upgrade complete'),
      revision(
        3,
        'failed',
        'Upgrade "shop" failed: pre-upgrade hooks failed: job failed: BackoffLimitExceeded',
      ),
      revision(4, 'superseded', 'Rollback to 2'),
      revision(5, 'deployed', 'Rollback to 1'),
    ];
    expect(inferRollbacks(history)).toEqual([
      { revision: 5, to: 1, at: '2026-11-29T10:05:00Z' },
      {
        revision: 4,
        to: 2,
        at: '2026-11-29T10:04:00Z',
        failed: { revision: 3, status: 'failed', description: history[2]?.info?.description },
      },
    ]);
  });
});

describe('diagnosedRevision', () => {
  it('is the failed revision a rollback undid, else the newest, else the one asked for', () => {
    const rolledBack = [
      revision(1, 'superseded', 'Install complete'),
      revision(2, 'failed', 'Upgrade "shop" failed'),
      revision(3, 'deployed', 'Rollback to 1'),
    ];
    expect(diagnosedRevision(rolledBack).version).toBe(2);
    expect(diagnosedRevision(rolledBack, 3).version).toBe(3);
    expect(diagnosedRevision(rolledBack.slice(0, 2)).version).toBe(2);
    expect(() => diagnosedRevision(rolledBack, 7)).toThrow('has no revision 7 (it has 1, 2, 3)');
  });
});
