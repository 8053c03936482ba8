import { condition, metadata, type StateFixture } from './fixture.ts';

/**
 * Knative Serving objects in each state, statuses as Knative Serving v0.47.0 writes them: a Service's Ready over
 * ConfigurationsReady and RoutesReady (pkg/apis/serving/v1/service_lifecycle.go: `RevisionFailed` propagated from
 * the Configuration), a Revision's Ready over ResourcesAvailable and ContainerHealthy with Active `NoTraffic` when
 * scaled to zero (revision_lifecycle.go: `ExitCode1`, "Container failed with: …").
 */
const api = 'serving.knative.dev/v1';
const containers = [{ image: 'registry.example/hello:1' }];

export function knativeStates(namespace: string, prefix: string): StateFixture[] {
  const service = (name: string, conditions: object[]) => ({
    apiVersion: api,
    kind: 'Service',
    metadata: metadata(name, namespace),
    spec: { template: { spec: { containers } } },
    status: {
      observedGeneration: 1,
      url: `http://${name}.${namespace}.example.com`,
      latestCreatedRevisionName: `${name}-00001`,
      conditions,
    },
  });
  const revision = (name: string, conditions: object[]) => ({
    apiVersion: api,
    kind: 'Revision',
    metadata: { ...metadata(name, namespace), labels: { 'serving.knative.dev/configuration': prefix } },
    spec: { containers },
    status: { observedGeneration: 1, conditions },
  });
  const failedMessage = `Revision "${prefix}-broken-00001" failed with message: Container failed with: exit status 1.`;
  return [
    {
      state: 'healthy',
      object: service(prefix, [
        condition('ConfigurationsReady', 'True', 'Ready', ''),
        condition('Ready', 'True', 'Ready', ''),
        condition('RoutesReady', 'True', 'Ready', ''),
      ]),
      expected: { health: 'healthy', from: 'Ready' },
    },
    {
      state: 'progressing',
      object: service(`${prefix}-rolling`, [
        condition(
          'ConfigurationsReady',
          'Unknown',
          'RevisionMissing',
          `Configuration "${prefix}-rolling" is waiting for a Revision to become ready.`,
        ),
        condition(
          'Ready',
          'Unknown',
          'RevisionMissing',
          `Configuration "${prefix}-rolling" is waiting for a Revision to become ready.`,
        ),
        condition(
          'RoutesReady',
          'Unknown',
          'RevisionMissing',
          `Configuration "${prefix}-rolling" is waiting for a Revision to become ready.`,
        ),
      ]),
      expected: { health: 'degraded', from: 'ConfigurationsReady', reason: 'RevisionMissing' },
    },
    {
      state: 'failed',
      object: service(`${prefix}-broken`, [
        condition('ConfigurationsReady', 'False', 'RevisionFailed', failedMessage),
        condition('Ready', 'False', 'RevisionFailed', failedMessage),
        condition('RoutesReady', 'False', 'RevisionFailed', failedMessage),
      ]),
      expected: { health: 'unhealthy', from: 'ConfigurationsReady', reason: 'RevisionFailed' },
    },
    {
      state: 'healthy',
      object: revision(`${prefix}-00001`, [
        condition('Active', 'False', 'NoTraffic', 'The target is not receiving traffic.'),
        condition('ContainerHealthy', 'True', 'Ready', ''),
        condition('Ready', 'True', 'Ready', ''),
        condition('ResourcesAvailable', 'True', 'Ready', ''),
      ]),
      expected: { health: 'healthy', from: 'Ready' },
    },
    {
      state: 'failed',
      object: revision(`${prefix}-broken-00001`, [
        condition('ContainerHealthy', 'False', 'ExitCode1', 'Container failed with: exit status 1'),
        condition('Ready', 'False', 'ExitCode1', 'Container failed with: exit status 1'),
        condition('ResourcesAvailable', 'False', 'ExitCode1', 'Container failed with: exit status 1'),
      ]),
      expected: { health: 'unhealthy', from: 'ResourcesAvailable', reason: 'ExitCode1' },
    },
  ];
}
