export { type ApiServerProxy, startApiServerProxy } from './api-server-proxy.ts';
export { type BinnacleRun, killBinnacles, runBinnacle } from './binnacle-process.ts';
export {
  type AxeViolation,
  chromiumPath,
  docsScreenshot,
  launchBrowser,
  openPage,
  seriousA11yViolations,
} from './browser.ts';
export { artifactHubOpenApi, OpenApiDocument } from './catalog-openapi.ts';
export {
  type CatalogRequest,
  type CatalogServer,
  catalogOperations,
  startCatalogServer,
} from './catalog-server.ts';
export {
  type ChartSources,
  chartRepositoryNames,
  publishedCharts,
} from './cluster/chart-sources.ts';
export { fluxWatchLabel } from './cluster/components.ts';
export {
  clusterDown,
  clusterUp,
  isRunning,
  nodeCountFromEnv,
  restartApiServer,
} from './cluster/control-plane.ts';
export { type FluxObject, fluxDemo, fluxGroups, fluxReady, installFluxDemo } from './cluster/flux.ts';
export { simulatedNode } from './cluster/nodes.ts';
export { clusterBinaries, defaultStateDir, helmBinary, repoRoot } from './cluster/paths.ts';
export { identities } from './cluster/pki.ts';
export { freePort, isListening } from './cluster/ports.ts';
export { groupAlive, isAlive } from './cluster/processes.ts';
export { seedCluster, seeded } from './cluster/seed.ts';
export type { ClusterState } from './cluster/state.ts';
export { readState } from './cluster/state.ts';
export { waitUntil } from './cluster/wait.ts';
export { argoApplication, deploymentBody } from './fixtures.ts';
export {
  createCluster,
  type HubOwner,
  type HubProcess,
  type HubProcessOptions,
  hubProcessBreakGlass,
  signInOwner,
  spawnHub,
} from './hub-process.ts';
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
export { openSse, type SseClient, type SseEvent } from './sse-client.ts';
export { openTerminal, type TerminalClient, type TerminalFrame } from './terminal-client.ts';
export {
  type ClusterIdentity,
  clusterNodesLock,
  hubRoleBindingsLock,
  type TestCluster,
  testCluster,
} from './test-cluster.ts';
