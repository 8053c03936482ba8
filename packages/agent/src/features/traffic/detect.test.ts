import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { detectCni, detectSources, recommend } from './detect.ts';

const object = (namespace: string, name: string, labels?: Record<string, string>): KubeObject => ({
  metadata: { namespace, name, ...(labels ? { labels } : {}) },
});

describe('traffic source detection', () => {
  it('lists the sources in the order hubble, istio, caretta, beyla; the metric-based ones wait for the metrics store', () => {
    const found = detectSources({
      services: [object('kube-system', 'hubble-relay')],
      deployments: [object('istio-system', 'istiod')],
      daemonSets: [
        object('caretta', 'caretta'),
        object('obs', 'ebpf-agent', { 'app.kubernetes.io/name': 'beyla' }),
      ],
      metrics: { reason: 'no metrics store: none configured' },
    });
    expect(found.map((s) => [s.name, s.status, s.found])).toEqual([
      ['hubble', 'available', 'kube-system/hubble-relay'],
      ['istio', 'needs_metrics_store', 'istio-system/istiod'],
      ['caretta', 'needs_metrics_store', 'caretta/caretta'],
      ['beyla', 'needs_metrics_store', 'obs/ebpf-agent'],
    ]);
    expect(found[1]?.message).toBe('istiod Deployment found, but no metrics store: none configured');
  });

  it('counts a metric-based source as present when the store holds its series, with or without its objects', () => {
    const found = detectSources({
      services: [],
      deployments: [object('istio-system', 'istiod')],
      daemonSets: [object('caretta', 'caretta')],
      metrics: { present: new Set(['istio', 'beyla'] as const) },
    });
    expect(found.map((s) => [s.name, s.status, s.message])).toEqual([
      ['hubble', 'not_found', 'no hubble-relay Service in the cluster'],
      ['istio', 'available', 'istiod Deployment found; its series are in the metrics store'],
      [
        'caretta',
        'needs_metrics_store',
        'Caretta DaemonSet found, but the metrics store holds no Caretta series',
      ],
      ['beyla', 'available', 'Beyla series in the metrics store'],
    ]);
  });

  it('takes an explicit relay address for Hubble, and finds nothing in an empty cluster', () => {
    const none = detectSources({
      services: [],
      deployments: [],
      daemonSets: [],
      metrics: { present: new Set() },
    });
    expect(none.every((s) => s.status === 'not_found')).toBe(true);
    const given = detectSources({
      services: [],
      deployments: [],
      daemonSets: [],
      hubbleAddress: '10.0.0.1:4245',
      metrics: { present: new Set() },
    });
    expect(given[0]).toMatchObject({ name: 'hubble', status: 'available' });
  });

  it('recommends Hubble relay on Cilium, Caretta elsewhere', () => {
    expect(detectCni([object('kube-system', 'cilium')])).toBe('cilium');
    expect(recommend('cilium')).toMatchObject({
      name: 'hubble',
      reason: expect.stringContaining('Hubble relay'),
    });
    expect(recommend(detectCni([object('kube-system', 'kube-flannel-ds')]))).toMatchObject({
      name: 'caretta',
      reason: expect.stringContaining('flannel'),
    });
  });
});
