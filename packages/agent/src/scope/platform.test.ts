import { describe, expect, it } from 'vitest';
import { detectPlatform } from './platform.ts';

const node = (
  extra: {
    name?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    providerID?: string;
  } = {},
) => ({
  metadata: { name: extra.name ?? 'n1', labels: extra.labels ?? {}, annotations: extra.annotations ?? {} },
  spec: extra.providerID ? { providerID: extra.providerID } : {},
});
const base = { serverUrl: 'https://10.0.0.1', groups: [] as string[] };

describe('detectPlatform', () => {
  it.each([
    ['gke', { ...base, gitVersion: 'v1.30.5-gke.1014001', nodes: [node()] }],
    [
      'gke-autopilot',
      {
        ...base,
        gitVersion: 'v1.30.5-gke.1',
        nodes: [node({ labels: { 'cloud.google.com/gke-provisioning': 'standard' } })],
      },
    ],
    ['eks', { ...base, gitVersion: 'v1.31.2-eks-7f9249a', nodes: [node()] }],
    ['eks', { ...base, nodes: [node({ providerID: 'aws:///eu-west-1a/i-0abc' })] }],
    ['aks', { ...base, nodes: [node({ labels: { 'kubernetes.azure.com/cluster': 'mc_rg' } })] }],
    ['openshift', { ...base, groups: ['route.openshift.io'], nodes: [node()] }],
    ['k3s', { ...base, gitVersion: 'v1.31.1+k3s1', nodes: [node()] }],
    ['rke2', { ...base, gitVersion: 'v1.31.1+rke2r1', nodes: [node()] }],
    ['kind', { ...base, nodes: [node({ providerID: 'kind://docker/kind/kind-control-plane' })] }],
    ['minikube', { ...base, nodes: [node({ labels: { 'minikube.k8s.io/name': 'minikube' } })] }],
    ['docker-desktop', { ...base, nodes: [node({ name: 'docker-desktop' })] }],
    [
      'kwok',
      { ...base, gitVersion: 'v1.36.3', nodes: [node({ annotations: { 'kwok.x-k8s.io/node': 'fake' } })] },
    ],
    ['generic', { ...base, gitVersion: 'v1.36.3', nodes: [node()] }],
    ['generic', { ...base, nodes: [] }],
  ])('recognizes %s', (expected, inputs) => {
    expect(detectPlatform(inputs)).toBe(expected);
  });
});
