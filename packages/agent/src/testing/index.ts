// Test support: an in-process agent against the test control plane. Not part of the agent's public API.

/** A cost answer's figures, for tests that compare the API's numbers with what they expect or see. */
export type { Figures as CostFigures } from '../features/cost/math.ts';
export { type AgentsAndNamespace, agentsAndNamespace } from './agents.ts';
export { type CertFactory, certFactory, type TestCert, tlsSecret } from './certs.ts';
export { deprecatedWidgets, plantDeprecatedUses, servedCrd } from './deprecated-uses.ts';
export {
  approved,
  certificate,
  certificateRequest,
  type IssuerRef,
  issuer,
} from './ecosystem/cert-manager.ts';
export { postgresCluster } from './ecosystem/cloudnative-pg.ts';
export { condition as ecosystemCondition, type StateFixture } from './ecosystem/fixture.ts';
export {
  gateway,
  gatewayClass,
  gatewayRoute,
  type RouteBackend,
  routeStatus,
} from './ecosystem/gateway-api.ts';
export { nodeClaim, nodePool as karpenterNodePool } from './ecosystem/karpenter.ts';
export { scaledJob, scaledObject, triggerAuthentication } from './ecosystem/keda.ts';
export { type PlantedStates, plantEcosystemStates } from './ecosystem/plant.ts';
export { ecosystemKinds } from './ecosystem/resources.ts';
export { veleroSchedule } from './ecosystem/velero.ts';
export { releaseWithFailedHook } from './helm-hooks.ts';
export { anonymousRegistry, createPullingPod, createPullSecret, repositoryName } from './images.ts';
export { kubeconfigWithContexts } from './kubeconfigs.ts';
export { mcpClients } from './mcp-client.ts';
export { mergePatch, nodePool } from './node-pool.ts';
export { type HttpSignIn, signInOverHttp } from './oidc.ts';
export { crashLoopingPod, podWithStatus } from './pods.ts';
export { type SentBody, sendFrom } from './proxy-request.ts';
export { bindInNamespace } from './rbac.ts';
export { startTestAgent, type TestAgent, type TestAgentOptions } from './test-agent.ts';
