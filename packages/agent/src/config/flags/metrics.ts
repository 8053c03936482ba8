import type { OptionSpec } from '@binnacle/common/server';
import type { AgentConfig } from '../agent-config.ts';
import { settingChecks } from '../setting-checks.ts';

/** Usage history from metrics-server, traffic from Hubble, the Prometheus-compatible store. */
export const metricsFlags: OptionSpec<AgentConfig>[] = [
  {
    flag: 'metrics-poll-interval',
    key: 'metricsPollMs',
    fileKey: 'metricsPollInterval',
    env: 'BINNACLE_METRICS_POLL_INTERVAL',
    type: 'duration',
    range: [1000, 3_600_000],
    placeholder: 'DURATION',
    help: 'how often the CPU and memory history polls metrics.k8s.io, 1s to 1h',
  },
  {
    flag: 'metrics-history',
    key: 'metricsHistory',
    env: 'BINNACLE_METRICS_HISTORY',
    type: 'integer',
    range: [2, 10_000],
    placeholder: 'N',
    help: 'samples of CPU and memory kept per pod container and node',
  },
  {
    flag: 'hubble-address',
    key: 'hubbleAddress',
    env: 'BINNACLE_HUBBLE_ADDRESS',
    type: 'string',
    placeholder: 'HOST:PORT',
    help: 'Hubble relay for traffic flows',
    defaultText: 'the hubble-relay Service, by in-cluster DNS or a port-forward',
    check: settingChecks.hostPort,
  },
  {
    flag: 'metricsdb-url',
    key: 'metricsdbUrl',
    env: 'BINNACLE_METRICSDB_URL',
    type: 'url',
    placeholder: 'URL',
    help: 'Prometheus-compatible metrics store to read',
    defaultText: "found among the cluster's Services",
  },
  {
    flag: 'metricsdb-headers',
    key: 'metricsdbHeaders',
    env: 'BINNACLE_METRICSDB_HEADERS',
    type: 'string',
    placeholder: 'NAME=VALUE,…',
    help: 'headers sent to the metrics store of --metricsdb-url, e.g. Authorization=Bearer …; prefer the variable',
    secret: true,
    check: settingChecks.headerList,
  },
  {
    flag: 'metricsdb-timeout',
    key: 'metricsdbTimeoutMs',
    fileKey: 'metricsdbTimeout',
    env: 'BINNACLE_METRICSDB_TIMEOUT',
    type: 'duration',
    range: [1000, 300_000],
    placeholder: 'DURATION',
    help: 'longest wait for one metrics store query, 1s to 5m',
  },
];
