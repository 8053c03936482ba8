import type { KubeObject } from '@binnacle/common';
import { describe, expect, it } from 'vitest';
import { evaluateConnection } from './evaluate.ts';
import type { ConnectionQuery } from './model.ts';
import { cluster, connect, failure, namespace, pod, policy } from './test-fixtures.ts';

const http = { name: 'http', containerPort: 8080 };
const dns = { name: 'dns', containerPort: 53, protocol: 'UDP' as const };

/** x (team=blue) and y (team=red), each with a web and a db pod; x/web also serves named ports. */
const world = (...policies: KubeObject[]) =>
  cluster({
    namespaces: [namespace('x', { team: 'blue' }), namespace('y', { team: 'red' })],
    pods: [
      pod('x/web', { app: 'web' }, { ip: '10.0.1.1', ports: [http, dns] }),
      pod('x/db', { app: 'db' }, { ip: '10.0.1.2' }),
      pod('y/web', { app: 'web' }, { ip: '10.0.2.1', ports: [http] }),
      pod('y/db', { app: 'db' }, { ip: '10.0.2.2' }),
    ],
    policies,
  });

const denyIngress = (ns: string) =>
  policy(`${ns}/deny-ingress`, { podSelector: {}, policyTypes: ['Ingress'] });
const denyEgress = (ns: string) => policy(`${ns}/deny-egress`, { podSelector: {}, policyTypes: ['Egress'] });
const ingressTo = (ref: string, podSelector: object, ingress: unknown[]) =>
  policy(ref, { podSelector, policyTypes: ['Ingress'], ingress });
const egressFrom = (ref: string, podSelector: object, egress: unknown[]) =>
  policy(ref, { podSelector, policyTypes: ['Egress'], egress });
const web = { matchLabels: { app: 'web' } };

describe('isolation', () => {
  it('allows everything when no policy selects either pod', () => {
    const result = connect(world(), 'x/db', 'y/web', 80);
    expect(result.allowed).toBe(true);
    expect(result.ingress).toMatchObject({ isolated: false, allowed: true, policies: [], decidedBy: [] });
    expect(result.ingress.reason).toContain('no NetworkPolicy selects y/web for ingress');
  });

  it('isolates a pod selected by a policy of its namespace, and only that pod', () => {
    const snapshot = world(ingressTo('x/web-only', web, []));
    expect(connect(snapshot, 'x/db', 'x/web', 80).ingress).toMatchObject({
      isolated: true,
      allowed: false,
      policies: ['x/web-only'],
    });
    expect(connect(snapshot, 'x/web', 'x/db', 80).allowed).toBe(true);
  });

  it('ignores policies of other namespaces when deciding isolation', () => {
    const snapshot = world(denyIngress('y'));
    expect(connect(snapshot, 'y/db', 'x/web', 80).ingress.isolated).toBe(false);
    expect(connect(snapshot, 'x/db', 'y/web', 80).ingress.isolated).toBe(true);
  });

  it('treats an empty or missing podSelector as all pods of the namespace', () => {
    expect(connect(world(denyIngress('x')), 'y/web', 'x/db', 80).allowed).toBe(false);
    const noSelector = policy('x/no-selector', { policyTypes: ['Ingress'] });
    expect(connect(world(noSelector), 'y/web', 'x/db', 80).allowed).toBe(false);
  });

  it('isolates each direction on its own', () => {
    const snapshot = world(denyEgress('x'));
    const out = connect(snapshot, 'x/web', 'y/web', 80);
    expect(out.egress).toMatchObject({ isolated: true, allowed: false });
    expect(out.ingress.isolated).toBe(false);
    const into = connect(snapshot, 'y/web', 'x/web', 80);
    expect(into).toMatchObject({ allowed: true, ingress: { isolated: false }, egress: { isolated: false } });
  });
});

describe('policyTypes defaulting', () => {
  it('makes a policy without policyTypes an ingress policy', () => {
    const snapshot = world(policy('x/p', { podSelector: {} }));
    expect(connect(snapshot, 'y/web', 'x/web', 80).ingress.isolated).toBe(true);
    expect(connect(snapshot, 'x/web', 'y/web', 80).egress.isolated).toBe(false);
  });

  it('adds Egress when the egress list has rules', () => {
    const snapshot = world(policy('x/p', { podSelector: {}, egress: [{ ports: [{ port: 53 }] }] }));
    expect(connect(snapshot, 'x/web', 'y/web', 80).egress).toMatchObject({ isolated: true, allowed: false });
    expect(connect(snapshot, 'y/web', 'x/web', 80).ingress).toMatchObject({ isolated: true, allowed: false });
  });

  it('does not add Egress for an empty egress list', () => {
    const snapshot = world(policy('x/p', { podSelector: {}, egress: [] }));
    expect(connect(snapshot, 'x/web', 'y/web', 80).egress.isolated).toBe(false);
    expect(connect(snapshot, 'y/web', 'x/web', 80).ingress.isolated).toBe(true);
  });

  it('takes explicit policyTypes as they are, even against the rules present', () => {
    const egressOnly = policy('x/p', { podSelector: {}, policyTypes: ['Egress'], ingress: [{}] });
    expect(connect(world(egressOnly), 'y/web', 'x/web', 80).ingress.isolated).toBe(false);
    expect(connect(world(egressOnly), 'x/web', 'y/web', 80).egress).toMatchObject({
      isolated: true,
      allowed: false,
    });
  });

  it('treats an empty policyTypes list like a missing one', () => {
    const snapshot = world(policy('x/p', { podSelector: {}, policyTypes: [], egress: [{}] }));
    expect(connect(snapshot, 'y/web', 'x/web', 80).ingress.isolated).toBe(true);
    expect(connect(snapshot, 'x/web', 'y/web', 80).egress).toMatchObject({ isolated: true, allowed: true });
  });
});

describe('rules', () => {
  it('ingress [{}] allows all, ingress [] and a missing ingress deny all', () => {
    expect(connect(world(ingressTo('x/all', {}, [{}])), 'y/db', 'x/web', 80).allowed).toBe(true);
    expect(connect(world(ingressTo('x/none', {}, [])), 'y/db', 'x/web', 80).allowed).toBe(false);
    expect(connect(world(denyIngress('x')), 'y/db', 'x/web', 80).allowed).toBe(false);
  });

  it('a rule with an empty from list matches every peer', () => {
    const snapshot = world(ingressTo('x/p', {}, [{ from: [], ports: [{ port: 80 }] }]));
    expect(connect(snapshot, 'y/db', 'x/web', 80).allowed).toBe(true);
    expect(connect(snapshot, 'y/db', 'x/web', 81).allowed).toBe(false);
  });

  it('a rule without ports (or with an empty list) matches every port', () => {
    const from = [{ podSelector: {} }];
    expect(connect(world(ingressTo('x/p', {}, [{ from }])), 'x/db', 'x/web', 12345).allowed).toBe(true);
    expect(connect(world(ingressTo('x/p', {}, [{ from, ports: [] }])), 'x/db', 'x/web', 1).allowed).toBe(
      true,
    );
  });

  it('unions rules and policies: one allowing rule is enough, none can deny', () => {
    const snapshot = world(
      denyIngress('x'),
      ingressTo('x/allow-db', web, [{ from: [{ podSelector: { matchLabels: { app: 'db' } } }] }]),
    );
    const result = connect(snapshot, 'x/db', 'x/web', 80);
    expect(result.allowed).toBe(true);
    expect(result.ingress.policies).toEqual(['x/deny-ingress', 'x/allow-db']);
    expect(result.ingress.decidedBy).toEqual([{ policy: 'x/allow-db', ruleIndex: 0, peerIndex: 0 }]);
    expect(connect(snapshot, 'y/db', 'x/web', 80).allowed).toBe(false);
  });

  it('names the rule, peer and port entry that allowed the connection, and none when denied', () => {
    const snapshot = world(
      ingressTo('x/p', web, [
        { from: [{ podSelector: { matchLabels: { app: 'nobody' } } }] },
        {
          from: [{ ipBlock: { cidr: '192.0.2.0/24' } }, { namespaceSelector: {} }],
          ports: [{ port: 81 }, { port: 80 }],
        },
      ]),
    );
    const allowed = connect(snapshot, 'y/db', 'x/web', 80);
    expect(allowed.ingress.decidedBy).toEqual([{ policy: 'x/p', ruleIndex: 1, peerIndex: 1, portIndex: 1 }]);
    expect(allowed.ingress.reason).toContain('allowed by x/p (rule 1)');
    const denied = connect(snapshot, 'y/db', 'x/web', 82);
    expect(denied.ingress.decidedBy).toEqual([]);
    expect(denied.ingress.reason).toContain('none of their ingress rules allows TCP port 82 from y/db');
  });

  it('needs both the source egress and the destination ingress to allow', () => {
    const allowIn = ingressTo('y/in', {}, [{}]);
    expect(connect(world(denyEgress('x'), allowIn), 'x/web', 'y/web', 80)).toMatchObject({
      allowed: false,
      egress: { allowed: false },
      ingress: { allowed: true },
    });
    const allowOut = egressFrom('x/out', {}, [{}]);
    expect(connect(world(allowOut, denyIngress('y')), 'x/web', 'y/web', 80)).toMatchObject({
      allowed: false,
      egress: { allowed: true },
      ingress: { allowed: false },
    });
  });
});

describe('peers', () => {
  const from = (peer: object) => world(ingressTo('x/p', web, [{ from: [peer] }]));

  it('a podSelector alone picks pods of the policy namespace only', () => {
    const snapshot = from({ podSelector: { matchLabels: { app: 'db' } } });
    expect(connect(snapshot, 'x/db', 'x/web', 80).allowed).toBe(true);
    expect(connect(snapshot, 'y/db', 'x/web', 80).allowed).toBe(false);
  });

  it('a namespaceSelector alone picks every pod of the matching namespaces', () => {
    const snapshot = from({ namespaceSelector: { matchLabels: { team: 'red' } } });
    expect(connect(snapshot, 'y/web', 'x/web', 80).allowed).toBe(true);
    expect(connect(snapshot, 'y/db', 'x/web', 80).allowed).toBe(true);
    expect(connect(snapshot, 'x/db', 'x/web', 80).allowed).toBe(false);
  });

  it('both selectors in one peer must both match', () => {
    const snapshot = from({
      namespaceSelector: { matchLabels: { team: 'red' } },
      podSelector: { matchLabels: { app: 'db' } },
    });
    expect(connect(snapshot, 'y/db', 'x/web', 80).allowed).toBe(true);
    expect(connect(snapshot, 'y/web', 'x/web', 80).allowed).toBe(false);
    expect(connect(snapshot, 'x/db', 'x/web', 80).allowed).toBe(false);
  });

  it('separate peers are alternatives', () => {
    const snapshot = world(
      ingressTo('x/p', web, [
        {
          from: [
            { namespaceSelector: { matchLabels: { team: 'red' } } },
            { podSelector: { matchLabels: { app: 'db' } } },
          ],
        },
      ]),
    );
    expect(connect(snapshot, 'y/web', 'x/web', 80).allowed).toBe(true);
    expect(connect(snapshot, 'x/db', 'x/web', 80).allowed).toBe(true);
    expect(connect(snapshot, 'x/web', 'x/web', 80).allowed).toBe(false);
  });

  it('an empty namespaceSelector matches every namespace, even one without a Namespace object', () => {
    const snapshot = world(ingressTo('x/p', web, [{ from: [{ namespaceSelector: {} }] }]));
    snapshot.pods.push(pod('ghost/a', {}, { ip: '10.0.9.1' }));
    expect(connect(snapshot, 'ghost/a', 'x/web', 80).allowed).toBe(true);
  });

  it('matches namespaces by the automatic kubernetes.io/metadata.name label', () => {
    const byName = { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'y' } } };
    expect(connect(from(byName), 'y/db', 'x/web', 80).allowed).toBe(true);
    expect(connect(from(byName), 'x/db', 'x/web', 80).allowed).toBe(false);
    const snapshot = from({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ghost' } } });
    snapshot.pods.push(pod('ghost/a', {}, { ip: '10.0.9.1' }));
    expect(connect(snapshot, 'ghost/a', 'x/web', 80).allowed).toBe(true);
  });

  it('evaluates matchExpressions', () => {
    const snapshot = from({
      namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'NotIn', values: ['blue'] }] },
    });
    expect(connect(snapshot, 'y/db', 'x/web', 80).allowed).toBe(true);
    expect(connect(snapshot, 'x/db', 'x/web', 80).allowed).toBe(false);
  });
});

describe('ipBlock', () => {
  const fromBlock = (ipBlock: object) => world(ingressTo('x/p', web, [{ from: [{ ipBlock }] }]));

  it('matches a pod by its pod IP', () => {
    const snapshot = fromBlock({ cidr: '10.0.2.0/24' });
    expect(connect(snapshot, 'y/db', 'x/web', 80).allowed).toBe(true);
    expect(connect(snapshot, 'x/db', 'x/web', 80).allowed).toBe(false);
  });

  it('leaves out the except ranges', () => {
    const snapshot = fromBlock({ cidr: '10.0.0.0/16', except: ['10.0.2.2/32'] });
    expect(connect(snapshot, 'y/web', 'x/web', 80).allowed).toBe(true);
    expect(connect(snapshot, 'y/db', 'x/web', 80).allowed).toBe(false);
  });

  it('matches a dual-stack pod by its IPv6 address', () => {
    const snapshot = fromBlock({ cidr: 'fd00::/64' });
    snapshot.pods.push(pod('y/dual', {}, { ip: ['10.0.2.9', 'fd00::9'] }));
    expect(connect(snapshot, 'y/dual', 'x/web', 80).allowed).toBe(true);
    expect(connect(snapshot, 'y/db', 'x/web', 80).allowed).toBe(false);
  });

  it('matches an outside address, which selectors never match', () => {
    const ask = (snapshot: ReturnType<typeof world>, ip: string) =>
      evaluateConnection(snapshot, {
        source: { ip },
        destination: { pod: { namespace: 'x', name: 'web' } },
        port: 80,
      });
    expect(ask(fromBlock({ cidr: '0.0.0.0/0', except: ['10.0.0.0/8'] }), '203.0.113.7').allowed).toBe(true);
    expect(ask(fromBlock({ cidr: '0.0.0.0/0', except: ['203.0.113.0/24'] }), '203.0.113.7').allowed).toBe(
      false,
    );
    const everyPod = world(ingressTo('x/p', web, [{ from: [{ namespaceSelector: {}, podSelector: {} }] }]));
    expect(ask(everyPod, '203.0.113.7').allowed).toBe(false);
  });

  it('a pod without an address matches no ipBlock', () => {
    const snapshot = fromBlock({ cidr: '0.0.0.0/0' });
    snapshot.pods.push(pod('y/pending', {}));
    expect(connect(snapshot, 'y/pending', 'x/web', 80).allowed).toBe(false);
  });
});

describe('ports', () => {
  const onPorts = (ports: unknown[]) => world(ingressTo('x/p', web, [{ ports }]));

  it('matches a numeric port on TCP by default', () => {
    const snapshot = onPorts([{ port: 80 }]);
    expect(connect(snapshot, 'y/db', 'x/web', 80).allowed).toBe(true);
    expect(connect(snapshot, 'y/db', 'x/web', 81).allowed).toBe(false);
    expect(connect(snapshot, 'y/db', 'x/web', 80, 'UDP').allowed).toBe(false);
  });

  it('never lets another protocol through', () => {
    const snapshot = onPorts([{ port: 80, protocol: 'SCTP' }]);
    expect(connect(snapshot, 'y/db', 'x/web', 80, 'SCTP').allowed).toBe(true);
    expect(connect(snapshot, 'y/db', 'x/web', 80, 'TCP').allowed).toBe(false);
  });

  it('a protocol without a port matches every port of that protocol', () => {
    const snapshot = onPorts([{ protocol: 'UDP' }]);
    expect(connect(snapshot, 'y/db', 'x/web', 5353, 'UDP').allowed).toBe(true);
    expect(connect(snapshot, 'y/db', 'x/web', 5353, 'TCP').allowed).toBe(false);
  });

  it('endPort opens the inclusive range', () => {
    const snapshot = onPorts([{ port: 8000, endPort: 8080 }]);
    expect(connect(snapshot, 'y/db', 'x/web', 7999).allowed).toBe(false);
    expect(connect(snapshot, 'y/db', 'x/web', 8000).allowed).toBe(true);
    expect(connect(snapshot, 'y/db', 'x/web', 8080).allowed).toBe(true);
    expect(connect(snapshot, 'y/db', 'x/web', 8081).allowed).toBe(false);
  });

  it('resolves a named port against the destination pod, by name and protocol', () => {
    const snapshot = onPorts([{ port: 'http' }, { port: 'dns', protocol: 'UDP' }]);
    expect(connect(snapshot, 'y/db', 'x/web', 8080).allowed).toBe(true);
    expect(connect(snapshot, 'y/db', 'x/web', 80).allowed).toBe(false);
    expect(connect(snapshot, 'y/db', 'x/web', 53, 'UDP').allowed).toBe(true);
    expect(connect(snapshot, 'y/db', 'x/web', 53, 'TCP').allowed).toBe(false);
    expect(
      connect(world(ingressTo('x/p', web, [{ ports: [{ port: 'dns' }] }])), 'y/db', 'x/web', 53, 'UDP')
        .allowed,
    ).toBe(false);
    const udpHttp = world(ingressTo('x/p', web, [{ ports: [{ port: 'http', protocol: 'UDP' }] }]));
    expect(connect(udpHttp, 'y/db', 'x/web', 8080, 'UDP').allowed).toBe(false);
  });

  it('resolves an egress named port against the destination pod, not the source', () => {
    const snapshot = world(egressFrom('y/out', {}, [{ ports: [{ port: 'http' }] }]));
    expect(connect(snapshot, 'y/db', 'x/web', 8080).allowed).toBe(true);
    expect(connect(snapshot, 'y/web', 'x/db', 8080).allowed).toBe(false);
  });

  describe('a query without a port asks whether any port is open end to end', () => {
    it('answers with the open ports', () => {
      const result = connect(onPorts([{ port: 80 }, { port: 443 }]), 'y/db', 'x/web');
      expect(result).toMatchObject({ allowed: true, ports: '80, 443', ingress: { ports: '80, 443' } });
      expect(result.ingress.reason).toContain(
        'any TCP port from y/db is allowed by x/p (rule 0) (open: 80, 443)',
      );
      expect(connect(onPorts([{ port: 80, protocol: 'UDP' }]), 'y/db', 'x/web').allowed).toBe(false);
    });

    it('is denied when the two directions open different ports', () => {
      const snapshot = world(
        egressFrom('y/out', {}, [{ ports: [{ port: 80 }] }]),
        ingressTo('x/in', {}, [{ ports: [{ port: 81 }] }]),
      );
      const result = connect(snapshot, 'y/db', 'x/web');
      expect(result).toMatchObject({
        allowed: false,
        ports: 'none',
        egress: { allowed: true },
        ingress: { allowed: true },
      });
    });

    it('credits only the rules of the ports open end to end', () => {
      const snapshot = world(
        egressFrom('y/out', {}, [{ ports: [{ port: 80 }] }]),
        ingressTo('x/in', {}, [{ ports: [{ port: 81 }] }, { ports: [{ port: 79, endPort: 80 }] }]),
      );
      const result = connect(snapshot, 'y/db', 'x/web');
      expect(result.ports).toBe('80');
      expect(result.ingress.decidedBy).toEqual([{ policy: 'x/in', ruleIndex: 1, portIndex: 0 }]);
      expect(result.ingress.ports).toBe('79-81');
    });
  });
});

describe('parties outside the pod network', () => {
  it('does not police the egress of an outside source, nor the ingress of an outside destination', () => {
    const snapshot = world(denyEgress('x'), denyIngress('x'));
    const inbound = evaluateConnection(snapshot, {
      source: { ip: '198.51.100.1' },
      destination: { pod: { namespace: 'y', name: 'web' } },
    });
    expect(inbound.egress).toMatchObject({ isolated: false, allowed: true });
    expect(inbound.egress.reason).toContain('198.51.100.1 is outside the cluster');
    const outbound = evaluateConnection(snapshot, {
      source: { pod: { namespace: 'y', name: 'web' } },
      destination: { ip: '198.51.100.1' },
    });
    expect(outbound).toMatchObject({ allowed: true, ingress: { isolated: false } });
    const blocked = evaluateConnection(snapshot, {
      source: { pod: { namespace: 'x', name: 'web' } },
      destination: { ip: '198.51.100.1' },
    });
    expect(blocked).toMatchObject({ allowed: false, egress: { isolated: true, allowed: false } });
  });

  it('lets egress reach an outside address through an ipBlock, but not through a named port', () => {
    const snapshot = world(
      egressFrom('x/out', {}, [
        { to: [{ ipBlock: { cidr: '198.51.100.0/24' } }], ports: [{ port: 443 }, { port: 'http' }] },
      ]),
    );
    const to = (ip: string, port: number) =>
      evaluateConnection(snapshot, {
        source: { pod: { namespace: 'x', name: 'db' } },
        destination: { ip },
        port,
      }).allowed;
    expect(to('198.51.100.1', 443)).toBe(true);
    expect(to('198.51.100.1', 8080)).toBe(false);
    expect(to('192.0.2.1', 443)).toBe(false);
  });

  it('leaves host-network pods unselected, unmatched by selectors and matched by ipBlock', () => {
    const snapshot = world(denyIngress('x'), ingressTo('y/in', {}, [{ from: [{ namespaceSelector: {} }] }]));
    snapshot.pods.push(pod('x/node-agent', {}, { ip: '172.18.0.2', hostNetwork: true }));
    const inbound = connect(snapshot, 'y/db', 'x/node-agent', 80);
    expect(inbound).toMatchObject({ allowed: true, ingress: { isolated: false } });
    expect(inbound.ingress.reason).toContain('uses the host network');
    expect(connect(snapshot, 'x/node-agent', 'y/db', 80).ingress).toMatchObject({
      isolated: true,
      allowed: false,
    });
    const byNode = world(ingressTo('y/in', {}, [{ from: [{ ipBlock: { cidr: '172.18.0.0/16' } }] }]));
    byNode.pods.push(pod('x/node-agent', {}, { ip: '172.18.0.2', hostNetwork: true }));
    expect(connect(byNode, 'x/node-agent', 'y/db', 80).allowed).toBe(true);
  });
});

describe('a hypothetical source pod', () => {
  const query = (labels: Record<string, string>, ns = 'y'): ConnectionQuery => ({
    source: { namespace: ns, labels },
    destination: { pod: { namespace: 'x', name: 'web' } },
    port: 80,
  });

  it('is matched by its labels and its namespace labels', () => {
    const snapshot = world(
      ingressTo('x/p', web, [
        {
          from: [
            {
              namespaceSelector: { matchLabels: { team: 'red' } },
              podSelector: { matchLabels: { role: 'client' } },
            },
          ],
        },
      ]),
    );
    expect(evaluateConnection(snapshot, query({ role: 'client' })).allowed).toBe(true);
    expect(evaluateConnection(snapshot, query({ role: 'other' })).allowed).toBe(false);
    expect(evaluateConnection(snapshot, query({ role: 'client' }, 'x')).allowed).toBe(false);
  });

  it('is subject to the egress policies of its namespace', () => {
    const snapshot = world(egressFrom('y/out', { matchLabels: { role: 'locked' } }, []));
    expect(evaluateConnection(snapshot, query({ role: 'locked' })).egress).toMatchObject({
      isolated: true,
      allowed: false,
    });
    expect(evaluateConnection(snapshot, query({ role: 'free' })).egress.isolated).toBe(false);
  });

  it('has no address, so no ipBlock matches it', () => {
    const snapshot = world(ingressTo('x/p', web, [{ from: [{ ipBlock: { cidr: '0.0.0.0/0' } }] }]));
    expect(evaluateConnection(snapshot, query({})).allowed).toBe(false);
  });
});

describe('bad input', () => {
  const bad = (spec: Record<string, unknown>) =>
    failure(() => connect(world(policy('x/bad', spec)), 'y/db', 'x/web', 80));

  it.each([
    [
      'a malformed CIDR',
      { ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/33' } }] }] },
      'spec.ingress[0].from[0].ipBlock.cidr "10.0.0.0/33"',
    ],
    [
      'an except outside its cidr',
      { egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/16', except: ['10.1.0.0/24'] } }] }] },
      'spec.egress[0].to[0].ipBlock.except[0]',
    ],
    [
      'an except equal to its cidr',
      { ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/16', except: ['10.0.0.0/16'] } }] }] },
      'is not a strict subset',
    ],
    [
      'a malformed except',
      { ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/16', except: ['nope'] } }] }] },
      'except[0] "nope" is not a valid CIDR',
    ],
    [
      'an unknown selector operator',
      { podSelector: { matchExpressions: [{ key: 'a', operator: 'Near' }] } },
      'spec.podSelector: label selector operator "Near"',
    ],
    [
      'an unknown peer selector operator',
      {
        ingress: [
          {
            from: [
              { namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] } },
            ],
          },
        ],
      },
      'spec.ingress[0].from[0].namespaceSelector',
    ],
    [
      'an unknown protocol',
      { ingress: [{ ports: [{ port: 80, protocol: 'ICMP' }] }] },
      'spec.ingress[0].ports[0].protocol "ICMP"',
    ],
    [
      'a port out of range',
      { ingress: [{ ports: [{ port: 70000 }] }] },
      'spec.ingress[0].ports[0].port 70000',
    ],
    ['an invalid port name', { ingress: [{ ports: [{ port: '80' }] }] }, 'port "80" is neither'],
    [
      'an endPort below its port',
      { ingress: [{ ports: [{ port: 90, endPort: 80 }] }] },
      'endPort 80 is below port 90',
    ],
    [
      'an endPort with a named port',
      { ingress: [{ ports: [{ port: 'http', endPort: 90 }] }] },
      'cannot go with the named port',
    ],
    [
      'an endPort without a port',
      { ingress: [{ ports: [{ endPort: 90 }] }] },
      'endPort needs a numeric port',
    ],
    [
      'an ipBlock beside a selector',
      { ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }] }] },
      'ipBlock cannot be combined',
    ],
    ['an empty peer', { ingress: [{ from: [{}] }] }, 'from[0] names no peer'],
    [
      'a selector that is not an object',
      { podSelector: 'app=web' },
      'spec.podSelector is not a label selector object',
    ],
    [
      'a peer of null selectors',
      { ingress: [{ from: [{ podSelector: null, namespaceSelector: null }] }] },
      'names no peer',
    ],
    ['policyTypes that are not a list', { policyTypes: 'Ingress' }, 'spec.policyTypes is not a list'],
    ['an unknown policy type', { policyTypes: ['Ingress', 'Sideways'] }, 'spec.policyTypes[1] "Sideways"'],
    ['rules that are not a list', { ingress: { from: [] } }, 'spec.ingress is not a list'],
  ])('refuses %s with a 400 naming the field', (_what, spec, message) => {
    const error = bad({ podSelector: {}, ...spec });
    expect(error.status).toBe(400);
    expect(error.message).toContain(message);
    expect(error.message).toContain('NetworkPolicy x/bad');
  });

  it.each([
    ['an unknown protocol', { protocol: 'ICMP' }, 'protocol "ICMP"'],
    ['a port out of range', { port: 0 }, 'port 0 is not a port number'],
    ['a fractional port', { port: 80.5 }, 'port 80.5'],
    ['a malformed source address', { source: { ip: '300.1.1.1' } }, 'source.ip "300.1.1.1"'],
    ['a malformed destination address', { destination: { ip: 'fe80::1%eth0' } }, 'destination.ip'],
    ['a source of no known shape', { source: {} }, 'source must be'],
    ['a destination of no known shape', { destination: { node: 'n1' } }, 'destination must be'],
    [
      'a pod reference without a name',
      { source: { pod: { namespace: 'x' } } },
      'source.pod needs a namespace and a name',
    ],
    ['a label that is not a string', { source: { namespace: 'y', labels: { n: 1 } } }, 'source.labels.n'],
    [
      'two outside addresses',
      { source: { ip: '192.0.2.1' }, destination: { ip: '192.0.2.2' } },
      'both outside',
    ],
  ])('refuses a query with %s', (_what, change, message) => {
    const query = {
      source: { pod: { namespace: 'y', name: 'db' } },
      destination: { pod: { namespace: 'x', name: 'web' } },
      ...change,
    };
    const error = failure(() => evaluateConnection(world(), query as unknown as ConnectionQuery));
    expect(error.status).toBe(400);
    expect(error.message).toContain(message);
  });

  it('answers 404 for a pod the snapshot does not hold', () => {
    const error = failure(() => connect(world(), 'y/db', 'x/nope', 80));
    expect(error.status).toBe(404);
    expect(error.message).toBe('pod x/nope not found');
  });
});

describe('a block of outside addresses as the source', () => {
  const fromBlock = (snapshot: ReturnType<typeof world>, block: string, port?: number) =>
    evaluateConnection(snapshot, {
      source: { ip: block },
      destination: { pod: { namespace: 'x', name: 'web' } },
      ...(port === undefined ? {} : { port }),
    });
  const admits = (ipBlock: object, ports = [{ port: 8080 }]) =>
    world(ingressTo('x/in', web, [{ from: [{ ipBlock }], ports }]));

  it('is allowed when every address of it is: one ipBlock holding it, or several together', () => {
    const one = fromBlock(admits({ cidr: '203.0.113.0/24' }), '203.0.113.128/25', 8080);
    expect(one).toMatchObject({
      allowed: true,
      sourceParts: [{ addresses: '203.0.113.128-203.0.113.255', allowed: true }],
    });
    expect(one.ingress.decidedBy).toEqual([{ policy: 'x/in', ruleIndex: 0, peerIndex: 0, portIndex: 0 }]);
    const halves = world(
      ingressTo('x/in', web, [
        { from: [{ ipBlock: { cidr: '203.0.113.0/25' } }, { ipBlock: { cidr: '203.0.113.128/25' } }] },
      ]),
    );
    expect(fromBlock(halves, '203.0.113.0/24', 8080)).toMatchObject({
      allowed: true,
      sourceParts: [
        { addresses: '203.0.113.0-203.0.113.127', allowed: true },
        { addresses: '203.0.113.128-203.0.113.255', allowed: true },
      ],
    });
  });

  it('is denied when part of it is outside the ipBlock or in its except, naming that part', () => {
    const wider = fromBlock(admits({ cidr: '203.0.113.0/25' }), '203.0.113.0/24', 8080);
    expect(wider).toMatchObject({
      allowed: false,
      sourceParts: [
        { addresses: '203.0.113.0-203.0.113.127', allowed: true },
        { addresses: '203.0.113.128-203.0.113.255', allowed: false },
      ],
      ingress: { isolated: true, allowed: false, policies: ['x/in'] },
    });
    expect(wider.ingress.reason).toContain('203.0.113.128-203.0.113.255 (of 203.0.113.0/24)');
    const carved = fromBlock(
      admits({ cidr: '203.0.113.0/24', except: ['203.0.113.7/32'] }),
      '203.0.113.0/24',
      8080,
    );
    expect(carved.allowed).toBe(false);
    expect(carved.sourceParts?.filter((p) => !p.allowed)).toEqual([
      { addresses: '203.0.113.7', allowed: false },
    ]);
  });

  it('is denied on a port no rule opens, and allowed where nothing isolates the destination', () => {
    expect(fromBlock(admits({ cidr: '0.0.0.0/0' }), '203.0.113.0/24', 9090).allowed).toBe(false);
    expect(fromBlock(world(), '0.0.0.0/0', 9090)).toMatchObject({
      allowed: true,
      sourceParts: [{ addresses: '0.0.0.0-255.255.255.255', allowed: true }],
    });
  });

  it('refuses a malformed block, and a block without a port, with 400 naming the field', () => {
    expect(failure(() => fromBlock(world(), '203.0.113.0/33', 80))).toEqual({
      status: 400,
      message: 'source.ip "203.0.113.0/33" is not a valid CIDR',
    });
    expect(failure(() => fromBlock(world(), '203.0.113.0/24')).message).toMatch(/^port is required/);
  });
});
