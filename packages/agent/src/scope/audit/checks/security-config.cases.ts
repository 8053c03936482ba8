import { type Case, check } from './cases.ts';
import { container, deployment, ingress, labels, networkPolicy, object } from './fixtures.ts';
import type { Obj } from './values.ts';

const configMap = (data: Record<string, string>) => object('v1', 'ConfigMap', 'settings', { data });
const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEow…\n-----END RSA PRIVATE KEY-----';
const withEnv = (...env: Obj[]) => deployment({ containers: [container({ env })] });
const fromSecret = { secretKeyRef: { name: 'db', key: 'password' } };
const mountsToken = (automount: boolean | undefined, serviceAccountName?: string) =>
  deployment({ automountServiceAccountToken: automount, serviceAccountName });
const account = (automount: boolean) => ({
  cluster: [object('v1', 'ServiceAccount', 'web', { automountServiceAccountToken: automount })],
});
const backend = { service: { name: 'web', port: { number: 80 } } };
const rules = [{ host: 'shop.example', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }];
const policies = (...specs: Obj[]) => ({ cluster: specs.map(networkPolicy) });

export const securityConfigCases: Case[] = [
  ...check('secretInConfigMap', (flags, passes) => [
    flags('credential-like keys', configMap({ DB_PASSWORD: 'x', api_key: 'k', color: 'blue' }), [
      'warning',
      'keys look like credentials: DB_PASSWORD, api_key',
    ]),
    flags('a private key value', configMap({ 'tls.key': pem }), ['danger', 'holds a private key in tls.key']),
    passes('plain settings', configMap({ color: 'blue', 'log-level': 'debug' })),
  ]),
  ...check('sensitiveContainerEnvVar', (flags, passes) => [
    flags(
      'a literal password',
      withEnv({ name: 'DB_PASSWORD', value: 'x' }, { name: 'MODE', value: 'prod' }),
      ['danger', 'sets DB_PASSWORD as a literal value', 'app'],
    ),
    passes('a password read from a Secret', withEnv({ name: 'DB_PASSWORD', valueFrom: fromSecret })),
  ]),
  ...check('automountServiceAccountToken', (flags, passes) => [
    flags('left to the default ServiceAccount', mountsToken(undefined), [
      'warning',
      'token of ServiceAccount default',
    ]),
    flags(
      'asked for by the pod',
      mountsToken(true, 'web'),
      ['warning', 'ServiceAccount web'],
      account(false),
    ),
    passes('turned off by the ServiceAccount', mountsToken(undefined, 'web'), account(false)),
    passes('turned off by the pod', mountsToken(false, 'web'), account(true)),
  ]),
  ...check('tlsSettingsMissing', (flags, passes) => [
    flags('no tls', ingress({ rules }), ['warning', 'without TLS']),
    passes('tls', ingress({ rules, tls: [{ hosts: ['shop.example'], secretName: 'shop-tls' }] })),
  ]),
  ...check('missingNetworkPolicy', (flags, passes) => [
    flags('no policy', deployment(), [
      'warning',
      'no NetworkPolicy restricts ingress or egress traffic of web',
    ]),
    flags(
      'a namespace-wide ingress policy',
      deployment(),
      ['warning', 'restricts egress traffic'],
      policies({ podSelector: {} }),
    ),
    passes(
      'both directions',
      deployment(),
      policies({ podSelector: { matchLabels: labels }, policyTypes: ['Ingress', 'Egress'] }),
    ),
    passes('host-network pods', deployment({ hostNetwork: true })),
  ]),
];
