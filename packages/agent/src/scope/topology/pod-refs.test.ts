import { describe, expect, it } from 'vitest';
import { podRefs } from './pod-refs.ts';

const tokenVolume = {
  name: 'kube-api-access-x7k2p',
  projected: {
    sources: [
      { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } }] } },
    ],
  },
};

describe('what a pod spec reads', () => {
  it('collects ConfigMaps, Secrets and claims from env, envFrom, volumes and projected volumes', () => {
    const refs = podRefs({
      containers: [
        {
          env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'env-cm', key: 'a' } } }],
          envFrom: [{ secretRef: { name: 'env-secret' } }],
        },
      ],
      initContainers: [{ envFrom: [{ configMapRef: { name: 'init-cm' } }] }],
      volumes: [
        { name: 'v', configMap: { name: 'vol-cm' } },
        { name: 'd', persistentVolumeClaim: { claimName: 'data' } },
        {
          name: 'p',
          projected: { sources: [{ configMap: { name: 'proj-cm' } }, { secret: { name: 'proj-s' } }] },
        },
      ],
    });
    expect([...refs.configMaps].sort()).toEqual(['env-cm', 'init-cm', 'proj-cm', 'vol-cm']);
    expect([...refs.secrets].sort()).toEqual(['env-secret', 'proj-s']);
    expect([...refs.claims]).toEqual(['data']);
  });

  it('leaves out the kube-root-ca.crt the ServiceAccount admission plugin mounts with the token', () => {
    expect([...podRefs({ containers: [{}], volumes: [tokenVolume] }).configMaps]).toEqual([]);
  });

  it('keeps kube-root-ca.crt when a pod mounts it itself', () => {
    const own = { name: 'ca', configMap: { name: 'kube-root-ca.crt' } };
    const projected = { name: 'ca2', projected: { sources: [{ configMap: { name: 'kube-root-ca.crt' } }] } };
    expect([...podRefs({ volumes: [own] }).configMaps]).toEqual(['kube-root-ca.crt']);
    expect([...podRefs({ volumes: [projected] }).configMaps]).toEqual(['kube-root-ca.crt']);
  });
});
