// Test support: an in-process agent against the test control plane. Not part of the agent's public API.

/** A cost answer's figures, for tests that compare the API's numbers with what they expect or see. */
export type { Figures as CostFigures } from '../features/cost/math.ts';
export { type AgentsAndNamespace, agentsAndNamespace } from './agents.ts';
export { type CertFactory, certFactory, type TestCert, tlsSecret } from './certs.ts';
export { deprecatedWidgets, plantDeprecatedUses, servedCrd } from './deprecated-uses.ts';
export type { StateFixture } from './ecosystem/fixture.ts';
export { unmanagedNodeClassRef } from './ecosystem/karpenter.ts';
export { type PlantedStates, plantEcosystemStates } from './ecosystem/plant.ts';
export {
  certificate,
  ecosystemKinds,
  nodeClaim,
  postgresCluster,
  scaledObject,
  veleroSchedule,
} from './ecosystem-objects.ts';
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
