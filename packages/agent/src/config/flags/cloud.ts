import type { OptionSpec } from '@binnacle/common/server';
import type { AgentConfig } from '../agent-config.ts';
import { settingChecks } from '../setting-checks.ts';

/** Cloud mode (the hub this agent dials) and the self-upgrade the chart allows. */
export const cloudFlags: OptionSpec<AgentConfig>[] = [
  {
    flag: 'cloud-url',
    key: 'cloudUrl',
    env: 'BINNACLE_CLOUD_URL',
    type: 'url',
    placeholder: 'URL',
    help: 'cloud mode: dial this hub and serve through its tunnel (needs --cluster-token)',
  },
  {
    flag: 'cluster-token',
    key: 'clusterToken',
    env: 'BINNACLE_CLUSTER_TOKEN',
    type: 'string',
    placeholder: 'TOKEN',
    help: "cloud mode: this cluster's token (bnc_…) from the hub; prefer the variable",
    secret: true,
  },
  // The chart's rbac.selfUpgrade sets these variables; their names are what the chart's downward API gives.
  {
    flag: 'self-upgrade-namespace',
    key: 'selfUpgradeNamespace',
    env: 'MY_POD_NAMESPACE',
    type: 'string',
    placeholder: 'NAME',
    help: "in-cluster: the namespace of the agent's own Deployment, for POST /api/agent/self-upgrade",
    check: settingChecks.namespace,
  },
  {
    flag: 'self-upgrade-deployment',
    key: 'selfUpgradeDeployment',
    env: 'MY_DEPLOYMENT_NAME',
    type: 'string',
    placeholder: 'NAME',
    help: "in-cluster: the agent's own Deployment (from charts/binnacle-agent), for POST /api/agent/self-upgrade",
    check: settingChecks.objectName,
  },
];
