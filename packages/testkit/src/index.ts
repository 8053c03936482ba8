export { type ApiServerProxy, startApiServerProxy } from './api-server-proxy.ts';
export {
  type BinnacleRun,
  killBinnacles,
  processMemory,
  runBinnacle,
  runCommand,
} from './binnacle-process.ts';
export {
  type AxeViolation,
  chromiumPath,
  docsScreenshot,
  launchBrowser,
  openPage,
  seriousA11yViolations,
} from './browser.ts';
export { catalogRepositories } from './catalog-data.ts';
export { artifactHubOpenApi, OpenApiDocument } from './catalog-openapi.ts';
export {
  type CatalogRequest,
  type CatalogServer,
  catalogOperations,
  startCatalogServer,
} from './catalog-server.ts';
export { type ApiServerOnly, apiServerOnlyUp } from './cluster/api-server-only.ts';
export { restartApiServer } from './cluster/api-server-restart.ts';
export {
  type ChartSources,
  chartRepositoryNames,
  publishedCharts,
} from './cluster/chart-sources.ts';
export { auditedNamespace, fluxWatchLabel } from './cluster/components.ts';
export {
  clusterDown,
  clusterUp,
  isRunning,
  nodeCountFromEnv,
} from './cluster/control-plane.ts';
export {
  type FluxObject,
  fluxDemo,
  fluxGenerationObserved,
  fluxGroups,
  fluxReady,
  installFluxDemo,
} from './cluster/flux.ts';
export {
  type KarpenterNodePool,
  karpenterGroups,
  karpenterNodePool,
  nodePoolLabel,
} from './cluster/karpenter-node-pool.ts';
export { structuredLogsNamespace } from './cluster/kwok-config.ts';
export { simulatedNode } from './cluster/nodes.ts';
export {
  clusterBinaries,
  defaultStateDir,
  helmBinary,
  repoRoot,
  schemathesisBinary,
} from './cluster/paths.ts';
export { identities } from './cluster/pki.ts';
export { criLine } from './cluster/pod-sim.ts';
export { freePort, isListening } from './cluster/ports.ts';
export { groupAlive, isAlive } from './cluster/processes.ts';
export { seedCluster, seeded } from './cluster/seed.ts';
export type { ClusterState } from './cluster/state.ts';
export { readState } from './cluster/state.ts';
export { waitUntil } from './cluster/wait.ts';
export { evictedPods } from './evicted-pods.ts';
export { argoApplication, deploymentBody } from './fixtures.ts';
export { type EnvOnlySetting, flagTableDisagreements, helpDisagreements } from './flag-table.ts';
export {
  type HaproxyBackend,
  type HaproxyServer,
  haproxyConfig,
  startHaproxy,
} from './haproxy.ts';
export {
  createCluster,
  type HubOwner,
  type HubProcess,
  type HubProcessOptions,
  type HubReplica,
  type HubReplicaSet,
  hubProcessBreakGlass,
  signInOwner,
  spawnHub,
  spawnHubReplicas,
} from './hub-process.ts';
export {
  type FlowOptions,
  type FlowPod,
  type HubbleFlowMessage,
  hubbleFlow,
  sampleFlows,
  world,
} from './hubble/flows.ts';
export { type HubbleServer, type HubbleServerOptions, startHubbleServer } from './hubble/server.ts';
export {
  mcpTestClient,
  signInAtIdp,
  startTestIdp,
  type TestIdp,
  type TestIdpOptions,
  type TokenFault,
} from './idp.ts';
export { type InspectorRun, runInspector } from './mcp-inspector.ts';
export { createDatabase, type PostgresServer, startPostgres } from './postgres.ts';
export { type BearerProxy, startBearerProxy } from './prometheus/bearer-proxy.ts';
export { type GenerateOptions, generateMetrics } from './prometheus/generate.ts';
export { clusterInventory, type Inventory } from './prometheus/inventory.ts';
export type { ContainerTruth, FlowTruth, GeneratedMetrics, NodePrice, Series } from './prometheus/model.ts';
export { startPrometheus } from './prometheus/prometheus-server.ts';
export type { MetricsStoreServer } from './prometheus/store-process.ts';
export { memoryAt, memoryPeakEvery } from './prometheus/usage-series.ts';
export { startVictoriaMetrics } from './prometheus/victoria-server.ts';
export { type RedisServer, redisPing, startRedis } from './redis.ts';
export {
  type Layer,
  largeLayer,
  layer,
  type PushedManifest,
  pushImage,
  pushIndex,
  type RegistryTarget,
} from './registry/oci-image.ts';
export { type LayerEntry, tarArchive } from './registry/tar-writer.ts';
export { registryLogin, startRegistry, type TestRegistry } from './registry/test-registry.ts';
export { selfSignedCert } from './self-signed.ts';
export { openSse, type SseClient, type SseEvent } from './sse-client.ts';
export { type StripeMock, startStripeMock } from './stripe-mock.ts';
export { openTerminal, type TerminalClient, type TerminalFrame } from './terminal-client.ts';
export {
  type ClusterIdentity,
  clusterNodesLock,
  hubRoleBindingsLock,
  metricsStoreServiceLock,
  type TestCluster,
  testCluster,
} from './test-cluster.ts';
