import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { evaluateConnection } from './evaluate.ts';
import type { Protocol } from './model.ts';
import { cluster, failure, namespace, pod, policy, service } from './test-fixtures.ts';

const http = { name: 'http', containerPort: 8080 };

/** Service shop/api in front of three pods: two serve the named port http on 8080, one on 9090. */
const shop = (services: KubeObject[], ...policies: KubeObject[]) =>
  cluster({
    namespaces: [namespace('shop'), namespace('client')],
    pods: [
      pod('shop/api-1', { app: 'api', zone: 'a' }, { ip: '10.1.0.1', ports: [http] }),
      pod('shop/api-2', { app: 'api', zone: 'b' }, { ip: '10.1.0.2', ports: [http] }),
      pod(
        'shop/api-3',
        { app: 'api', zone: 'c' },
        { ip: '10.1.0.3', ports: [{ name: 'http', containerPort: 9090 }] },
      ),
      pod('shop/other', { app: 'other' }, { ip: '10.1.0.9', ports: [http] }),
      pod('client/api', { app: 'api' }, { ip: '10.2.0.1' }),
      pod('client/app', { app: 'client' }, { ip: '10.2.0.2' }),
    ],
    services,
    policies,
  });

const toApi = (port?: number, protocol?: Protocol) => ({
  source: { pod: { namespace: 'client', name: 'app' } },
  destination: { service: { namespace: 'shop', name: 'api' } },
  ...(port === undefined ? {} : { port }),
  ...(protocol ? { protocol } : {}),
});

const onlyPort = (port: number | string, podSelector: object = {}) =>
  policy('shop/only', { podSelector, policyTypes: ['Ingress'], ingress: [{ ports: [{ port }] }] });

const apiNumeric = service('shop/api', { app: 'api' }, [{ port: 80, targetPort: 8080 }]);
const apiNamed = service('shop/api', { app: 'api' }, [{ port: 80, targetPort: 'http' }]);

describe('a Service destination', () => {
  it('answers per pod its selector picks in its namespace', () => {
    const result = evaluateConnection(shop([apiNumeric]), toApi(80));
    expect(result.perPod?.map((v) => `${v.pod.namespace}/${v.pod.name}`)).toEqual([
      'shop/api-1',
      'shop/api-2',
      'shop/api-3',
    ]);
    expect(result.allowed).toBe(true);
  });

  it('evaluates policies on the targetPort, after the Service address is rewritten', () => {
    const afterDnat = evaluateConnection(shop([apiNumeric], onlyPort(8080)), toApi(80));
    expect(afterDnat.allowed).toBe(true);
    expect(afterDnat.perPod?.[0]).toMatchObject({ allowed: true, targetPort: 8080 });
    expect(evaluateConnection(shop([apiNumeric], onlyPort(80)), toApi(80)).allowed).toBe(false);
  });

  it('uses the Service port when there is no targetPort', () => {
    const plain = service('shop/api', { app: 'api' }, [{ port: 8080 }]);
    expect(evaluateConnection(shop([plain], onlyPort(8080)), toApi(8080)).allowed).toBe(true);
    expect(evaluateConnection(shop([plain], onlyPort(80)), toApi(8080)).allowed).toBe(false);
  });

  it('resolves a named targetPort on each pod', () => {
    const result = evaluateConnection(shop([apiNamed], onlyPort(9090)), toApi(80));
    expect(result.perPod?.map((v) => [v.targetPort, v.allowed])).toEqual([
      [8080, false],
      [8080, false],
      [9090, true],
    ]);
    expect(result.allowed).toBe(true);
  });

  it('reports a pod on which the named targetPort names nothing as unreachable', () => {
    const udp = service('shop/api', { app: 'api' }, [{ port: 53, targetPort: 'http', protocol: 'UDP' }]);
    const result = evaluateConnection(shop([udp]), toApi(53, 'UDP'));
    expect(result.allowed).toBe(false);
    expect(result.perPod?.[0]?.ingress).toMatchObject({ allowed: false, decidedBy: [] });
    expect(result.perPod?.[0]?.ingress.reason).toContain(
      'targetPort http names no UDP container port of shop/api-1',
    );
  });

  it('is reachable when one backend is, and shows that backend', () => {
    const zoneC = policy('shop/zone-c', {
      podSelector: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] },
      policyTypes: ['Ingress'],
    });
    const result = evaluateConnection(shop([apiNumeric], zoneC), toApi(80));
    expect(result.perPod?.map((v) => v.allowed)).toEqual([false, false, true]);
    expect(result.allowed).toBe(true);
    expect(result.ingress.isolated).toBe(false);
  });

  it('is unreachable when no backend is, and shows the first', () => {
    const denyAll = policy('shop/deny', { podSelector: {}, policyTypes: ['Ingress'] });
    const result = evaluateConnection(shop([apiNumeric], denyAll), toApi(80));
    expect(result.allowed).toBe(false);
    expect(result.ingress.reason).toContain('ingress to shop/api-1 is isolated by shop/deny');
  });

  it('applies the source egress policies to each backend', () => {
    const toZoneA = policy('client/out', {
      podSelector: {},
      policyTypes: ['Egress'],
      egress: [{ to: [{ namespaceSelector: {}, podSelector: { matchLabels: { zone: 'a' } } }] }],
    });
    const result = evaluateConnection(shop([apiNumeric], toZoneA), toApi(80));
    expect(result.perPod?.map((v) => v.egress.allowed)).toEqual([true, false, false]);
  });

  it('without a port, asks whether any of its target ports is open', () => {
    const twoPorts = service('shop/api', { app: 'api' }, [
      { port: 80, targetPort: 8080 },
      { port: 443, targetPort: 8443 },
    ]);
    const result = evaluateConnection(shop([twoPorts], onlyPort(8443)), toApi());
    expect(result).toMatchObject({ allowed: true, ports: '8443' });
    expect(result.perPod?.[0]?.targetPort).toBeUndefined();
    expect(evaluateConnection(shop([twoPorts], onlyPort(9999)), toApi()).allowed).toBe(false);
  });

  it('has no backends without a selector, or when the selector picks no pod', () => {
    for (const selector of [undefined, { app: 'gone' }]) {
      const result = evaluateConnection(shop([service('shop/api', selector, [{ port: 80 }])]), toApi(80));
      expect(result).toMatchObject({ allowed: false, perPod: [], ports: 'none' });
      expect(result.ingress.reason).toContain('selects no pods');
    }
  });

  it('refuses a port or protocol the Service does not have, and a Service the snapshot lacks', () => {
    const status = (query: ReturnType<typeof toApi>, services = [apiNumeric]) => {
      const { status, message } = failure(() => evaluateConnection(shop(services), query));
      return [status, message];
    };
    expect(status(toApi(81))).toEqual([400, 'Service shop/api has no port 81/TCP; it has: 80/TCP']);
    expect(status(toApi(80, 'UDP'))).toEqual([400, 'Service shop/api has no port 80/UDP; it has: 80/TCP']);
    expect(status(toApi(80), [])).toEqual([404, 'service shop/api not found']);
  });
});
