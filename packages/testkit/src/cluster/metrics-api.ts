import { ApiregistrationV1Api, CoreV1Api, KubeConfig, type V1APIService } from '@kubernetes/client-node';

export const metricsApiService = 'v1beta1.metrics.k8s.io';

/**
 * Registers the metrics-server on loopback as the `metrics.k8s.io` API, the way its release manifest does in a
 * real cluster, except that the Service is an ExternalName for 127.0.0.1: endpoints may not point at loopback,
 * and the aggregator dials an ExternalName's host directly. Its serving certificate is self-signed, hence
 * insecureSkipTLSVerify.
 */
export async function registerMetricsApi(kubeconfigPath: string, port: number): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  await kc.makeApiClient(CoreV1Api).createNamespacedService({
    namespace: 'kube-system',
    body: {
      metadata: { name: 'metrics-server', labels: { 'k8s-app': 'metrics-server' } },
      spec: { type: 'ExternalName', externalName: '127.0.0.1', ports: [{ name: 'https', port }] },
    },
  });
  const apiService: V1APIService = {
    metadata: { name: metricsApiService, labels: { 'k8s-app': 'metrics-server' } },
    spec: {
      group: 'metrics.k8s.io',
      version: 'v1beta1',
      service: { namespace: 'kube-system', name: 'metrics-server', port },
      insecureSkipTLSVerify: true,
      groupPriorityMinimum: 100,
      versionPriority: 100,
    },
  };
  await kc.makeApiClient(ApiregistrationV1Api).createAPIService({ body: apiService });
}
