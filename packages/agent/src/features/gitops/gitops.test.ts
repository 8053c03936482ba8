import { AppError } from '@binnacle/common/server';
import { describe, expect, it } from 'vitest';
import { checkSyncOptions, syncOperation } from './argocd.ts';
import { fluxKind } from './flux.ts';

describe('syncOperation', () => {
  const app = { spec: { source: { targetRevision: 'main' } } };

  it('defaults to the hook strategy at the target revision, with nothing else set', () => {
    expect(syncOperation(app, {}, 'ada')).toEqual({
      initiatedBy: { username: 'ada' },
      sync: { revision: 'main', syncStrategy: { hook: {} } },
    });
  });

  it('carries every option the way Argo CD writes it', () => {
    expect(
      syncOperation(
        app,
        {
          revision: 'v2',
          prune: true,
          dryRun: true,
          applyOnly: true,
          force: true,
          replace: true,
          resources: [{ kind: 'Service', name: 'web' }],
        },
        'ada',
      ).sync,
    ).toEqual({
      revision: 'v2',
      prune: true,
      dryRun: true,
      syncStrategy: { apply: { force: true } },
      syncOptions: ['Replace=true'],
      resources: [{ group: '', kind: 'Service', name: 'web' }],
    });
  });

  it('gives a multi-source application one revision per source', () => {
    const multi = { spec: { sources: [{ targetRevision: 'main' }, { targetRevision: '1.2.0' }, {}] } };
    expect(syncOperation(multi, {}, 'ada').sync).toMatchObject({ revisions: ['main', '1.2.0', 'HEAD'] });
  });

  it('refuses contradicting options', () => {
    expect(() => checkSyncOptions({ force: true, serverSideApply: true })).toThrow(AppError);
    expect(() => checkSyncOptions({ replace: true, serverSideApply: true })).toThrow(
      /replace and serverSideApply/,
    );
    expect(() => checkSyncOptions({ force: true, replace: true, prune: true })).not.toThrow();
  });
});

describe('fluxKind', () => {
  it('takes a kind in any case, singular or plural', () => {
    expect(fluxKind('helmreleases')).toBe('HelmRelease');
    expect(fluxKind('GitRepository')).toBe('GitRepository');
    expect(fluxKind('ocirepository')).toBe('OCIRepository');
    expect(fluxKind('helmrepositories')).toBe('HelmRepository');
    expect(fluxKind('buckets')).toBe('Bucket');
  });

  it('refuses another kind listing the allowed ones', () => {
    expect(() => fluxKind('Alert')).toThrow(
      /one of GitRepository, OCIRepository, HelmRepository, Bucket, Kustomization, HelmRelease/,
    );
  });
});
