import type { KubeObject } from '@binnacle/common';
import { type Case, check } from './cases.ts';
import { container, deployment, ingress, labels, namespace, object, pod, service } from './fixtures.ts';

const backend = (name: string) => ({ service: { name, port: { number: 80 } } });
const path = (name: string) => ({ path: `/${name}`, pathType: 'Prefix', backend: backend(name) });
const routes = (...names: string[]) => ingress({ rules: [{ http: { paths: names.map(path) } }] });
const withObjects = (...cluster: KubeObject[]) => ({ cluster });
const configMap = (name = 'settings', metadata = {}) =>
  object('v1', 'ConfigMap', name, { data: { a: 'b' }, metadata: { name, namespace, ...metadata } });
const secret = (type: string, name = 'creds') => object('v1', 'Secret', name, { type, data: { a: 'Yg==' } });
const readsSettings = deployment({
  containers: [container({ envFrom: [{ configMapRef: { name: 'settings' } }] })],
});
const pullSecrets = object('v1', 'ServiceAccount', 'web', { imagePullSecrets: [{ name: 'registry' }] });
const ownedByLease = { ownerReferences: [{ apiVersion: 'v1', kind: 'Lease', name: 'l', uid: 'u1' }] };

export const referenceCases: Case[] = [
  ...check('serviceNoMatchingPods', (flags, passes) => [
    flags(
      'no pod matches',
      service('web'),
      ['warning', 'selector app=web matches no pods'],
      withObjects(pod({}, { labels: { app: 'api' } })),
    ),
    passes('a pod matches', service('web'), withObjects(pod({}, { labels }))),
    passes('an ExternalName Service', service('db', undefined, 'ExternalName')),
    passes('no selector (endpoints managed by hand)', service('legacy', {})),
  ]),
  ...check('ingressNoMatchingService', (flags, passes) => [
    flags(
      'one of two Services missing',
      routes('web', 'api'),
      ['warning', 'routes to missing Service web'],
      withObjects(service('api')),
    ),
    flags('a v1beta1-style backend', ingress({ backend: { serviceName: 'legacy', servicePort: 80 } }), [
      'warning',
      'Service legacy',
    ]),
    passes('every Service exists', routes('web', 'api'), withObjects(service('web'), service('api'))),
  ]),
  ...check('orphanConfigMapSecret', (flags, passes) => [
    flags('an unused ConfigMap', configMap(), ['warning', 'refers to ConfigMap settings']),
    flags('an unused Secret', secret('Opaque'), ['warning', 'refers to Secret creds']),
    passes('a ConfigMap a workload reads', configMap(), withObjects(readsSettings)),
    passes(
      'an Ingress TLS Secret',
      secret('kubernetes.io/tls', 'tls'),
      withObjects(ingress({ tls: [{ secretName: 'tls' }] })),
    ),
    passes(
      'a pull Secret of a ServiceAccount',
      secret('kubernetes.io/dockerconfigjson', 'registry'),
      withObjects(pullSecrets),
    ),
    passes('a Helm release', secret('helm.sh/release.v1', 'sh.helm.release.v1.web.v3')),
    passes('a service account token', secret('kubernetes.io/service-account-token')),
    passes('kube-root-ca.crt', configMap('kube-root-ca.crt')),
    passes('an owned ConfigMap', configMap('leader', ownedByLease)),
  ]),
];
