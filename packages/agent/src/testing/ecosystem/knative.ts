import { ago, condition, metadata, type StateFixture } from './fixture.ts';

/**
 * Knative Serving objects in each state, statuses as Knative Serving v0.47.0 writes them (knative.dev/pkg's
 * ConditionSet: True conditions carry no reason, Ready copies the reason of the dependent that set it last). A
 * Service's ConfigurationsReady and RoutesReady (pkg/apis/serving/v1/service_lifecycle.go, pkg/reconciler/service/
 * service.go propagates the Configuration, then the Route): a first Revision not ready yet leaves the
 * Configuration's Ready Unknown with no reason (configuration_lifecycle.go SetLatestCreatedRevisionName) and the
 * Route's `RevisionMissing` "Configuration … is waiting for a Revision to become ready." (route_lifecycle.go
 * MarkConfigurationNotReady); a failed one gives the Configuration `RevisionFailed` (MarkLatestCreatedFailed) and
 * the Route `RevisionMissing` "Configuration … does not have any ready Revision." (MarkConfigurationFailed). A
 * Revision's ResourcesAvailable and ContainerHealthy, Active `NoTraffic` (severity Info) when scaled to zero
 * (pkg/reconciler/autoscaling/kpa/kpa.go); a crashing container `ExitCode1` "Container failed with: <its
 * termination message>" on ContainerHealthy while its Deployment still progresses (pkg/reconciler/revision/
 * reconcile_resources.go, revision_lifecycle.go).
 */
const api = 'serving.knative.dev/v1';
const containers = [{ image: 'registry.example/hello:1' }];
/** A condition as knative.dev/pkg's MarkTrue writes it: no reason, no message. */
const happy = (type: string) => ({ type, status: 'True', lastTransitionTime: ago(5) });

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
  const waiting = `Configuration "${prefix}-rolling" is waiting for a Revision to become ready.`;
  const noReadyRevision = `Configuration "${prefix}-broken" does not have any ready Revision.`;
  return [
    {
      state: 'healthy',
      object: service(prefix, [happy('ConfigurationsReady'), happy('Ready'), happy('RoutesReady')]),
      expected: { health: 'healthy', from: 'Ready' },
    },
    {
      state: 'progressing',
      object: service(`${prefix}-rolling`, [
        { type: 'ConfigurationsReady', status: 'Unknown', lastTransitionTime: ago(5) },
        condition('Ready', 'Unknown', 'RevisionMissing', waiting),
        condition('RoutesReady', 'Unknown', 'RevisionMissing', waiting),
      ]),
      expected: { health: 'degraded', from: 'RoutesReady', reason: 'RevisionMissing' },
    },
    {
      state: 'failed',
      object: service(`${prefix}-broken`, [
        condition('ConfigurationsReady', 'False', 'RevisionFailed', failedMessage),
        condition('Ready', 'False', 'RevisionMissing', noReadyRevision),
        condition('RoutesReady', 'False', 'RevisionMissing', noReadyRevision),
      ]),
      expected: { health: 'unhealthy', from: 'ConfigurationsReady', reason: 'RevisionFailed' },
    },
    {
      state: 'healthy',
      object: revision(`${prefix}-00001`, [
        condition('Active', 'False', 'NoTraffic', 'The target is not receiving traffic.', {
          severity: 'Info',
        }),
        happy('ContainerHealthy'),
        happy('Ready'),
        happy('ResourcesAvailable'),
      ]),
      expected: { health: 'healthy', from: 'Ready' },
    },
    {
      state: 'failed',
      object: revision(`${prefix}-broken-00001`, [
        condition('ContainerHealthy', 'False', 'ExitCode1', 'Container failed with: exit status 1'),
        condition('Ready', 'False', 'ExitCode1', 'Container failed with: exit status 1'),
        happy('ResourcesAvailable'),
      ]),
      expected: { health: 'unhealthy', from: 'ContainerHealthy', reason: 'ExitCode1' },
    },
  ];
}
