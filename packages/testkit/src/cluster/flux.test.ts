import { describe, expect, it } from 'vitest';
import { type ComponentArgs, fluxEnv, helmControllerArgs, sourceControllerArgs } from './components.ts';
import { fluxDemoObjects, fluxReady } from './flux.ts';

describe('the Flux demo objects', () => {
  it('label the HelmRepository, the HelmRelease and its chart template for the controllers', () => {
    const [namespace, repository, release] = fluxDemoObjects('http://127.0.0.1:20001') as {
      kind: string;
      metadata: { labels?: Record<string, string> };
      spec?: { url?: string; chart?: { metadata?: { labels?: Record<string, string> } } };
    }[];
    const label = { 'binnacle.dev/flux': 'reconcile' };
    expect(namespace?.kind).toBe('Namespace');
    expect(repository).toMatchObject({ kind: 'HelmRepository', metadata: { labels: label } });
    expect(repository?.spec?.url).toBe('http://127.0.0.1:20001');
    expect(release).toMatchObject({ kind: 'HelmRelease', metadata: { labels: label } });
    expect(release?.spec?.chart?.metadata?.labels).toEqual(label);
  });
});

describe('fluxReady', () => {
  const object = (status: string, observedGeneration = 2) => ({
    metadata: { generation: 2 },
    status: { observedGeneration, conditions: [{ type: 'Ready', status, reason: 'R', message: 'm' }] },
  });

  it('is true only for Ready=True at the current generation, else says why', () => {
    expect(fluxReady(object('True'))).toBe(true);
    expect(() => fluxReady(object('False'))).toThrow('Ready=False (R: m)');
    expect(() => fluxReady(object('True', 1))).toThrow('generation not observed yet');
    expect(() => fluxReady({ metadata: {} })).toThrow('no Ready condition yet');
  });
});

describe('the Flux controller command lines', () => {
  const args = {
    adminKubeconfig: '/s/admin.kubeconfig',
    fluxStorageDir: '/s/flux-storage',
    ports: {
      sourceControllerMetrics: 1,
      sourceControllerHealth: 2,
      sourceControllerStorage: 3,
      helmControllerMetrics: 4,
      helmControllerHealth: 5,
    },
  } as unknown as ComponentArgs;

  it('bind loopback only, watch labelled objects only and serve artifacts on loopback', () => {
    expect(sourceControllerArgs(args)).toEqual(
      expect.arrayContaining([
        '--metrics-addr=127.0.0.1:1',
        '--health-addr=127.0.0.1:2',
        '--storage-addr=127.0.0.1:3',
        '--storage-adv-addr=127.0.0.1:3',
        '--storage-path=/s/flux-storage',
        '--watch-label-selector=binnacle.dev/flux=reconcile',
      ]),
    );
    expect(helmControllerArgs(args)).toEqual(
      expect.arrayContaining(['--enable-leader-election=false', '--metrics-addr=127.0.0.1:4']),
    );
    expect(fluxEnv(args).KUBECONFIG).toBe('/s/admin.kubeconfig');
  });
});
