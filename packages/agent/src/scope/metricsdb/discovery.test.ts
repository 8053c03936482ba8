import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { rankCandidates, scoreService } from './discovery.ts';

const service = (
  namespace: string,
  name: string,
  ports: { port: number; name?: string }[],
  labels: Record<string, string> = {},
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { namespace, name, labels },
  spec: { ports },
});

describe('metrics store discovery', () => {
  it('puts well-known names first in their own order, with the port and API path each chart uses', () => {
    const ranked = rankCandidates([
      service('team', 'my-prom', [{ port: 9090 }], { 'app.kubernetes.io/name': 'prometheus' }),
      service('vm', 'vmselect-main', [{ port: 8481 }]),
      service('monitoring', 'prometheus-server', [{ port: 80 }]),
      service('monitoring', 'prometheus-operated', [{ port: 9090, name: 'web' }]),
    ]);
    expect(ranked.map((c) => [c.service, c.port, c.path])).toEqual([
      ['prometheus-operated', 9090, ''],
      ['prometheus-server', 80, ''],
      ['vmselect-main', 8481, '/select/0/prometheus'],
      ['my-prom', 9090, ''],
    ]);
  });

  it('scores other services by name or labels, port and namespace, and never by a port alone', () => {
    expect(
      scoreService(service('monitoring', 'metrics-db', [{ port: 8428 }], { app: 'victoria-metrics' })),
    ).toMatchObject({
      score: 130,
      why: 'VictoriaMetrics, port 8428, namespace monitoring',
    });
    expect(scoreService(service('apps', 'web', [{ port: 9090 }]))).toBeUndefined();
    expect(scoreService(service('monitoring', 'prometheus-alertmanager', [{ port: 9093 }]))).toBeUndefined();
    expect(
      scoreService(service('monitoring', 'kube-prometheus-stack-grafana', [{ port: 80 }])),
    ).toBeUndefined();
    expect(scoreService(service('obs', 'thanos-store', [{ port: 10902 }]))).toMatchObject({ score: 100 });
  });

  it('keeps at most the best five', () => {
    const many = Array.from({ length: 8 }, (_, i) =>
      service(`ns-${i}`, `prometheus-${i}`, [{ port: 9090 }], { app: 'prometheus' }),
    );
    expect(rankCandidates(many)).toHaveLength(5);
  });
});
