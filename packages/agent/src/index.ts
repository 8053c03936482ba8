export { type Agent, agentVersion, createAgent } from './agent.ts';
export { agentFindsCluster, runAgent, runDesktop } from './cli/agent-command.ts';
export { type AgentConfig, configDefaults } from './config/agent-config.ts';
export type { AgentContext, App } from './context.ts';
export { type ClusterTarget, resolveTarget } from './kube/kubeconfig.ts';
export { buildServer } from './server.ts';
