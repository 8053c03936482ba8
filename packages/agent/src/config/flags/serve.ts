import type { OptionSpec } from '@binnacle/common/server';
import type { AgentConfig } from '../agent-config.ts';
import { settingChecks } from '../setting-checks.ts';

/** Where the agent listens, which cluster it serves, where it keeps its state. */
export const serveFlags: OptionSpec<AgentConfig>[] = [
  {
    flag: 'port',
    key: 'port',
    env: 'BINNACLE_PORT',
    type: 'port',
    placeholder: 'N',
    help: 'port of the API and UI',
  },
  {
    flag: 'listen-address',
    key: 'listenAddress',
    env: 'BINNACLE_LISTEN_ADDRESS',
    type: 'string',
    placeholder: 'ADDR',
    help: 'address to listen on; 0.0.0.0 serves other hosts',
    check: settingChecks.listenAddress,
  },
  {
    flag: 'kubeconfig',
    key: 'kubeconfig',
    env: 'BINNACLE_KUBECONFIG',
    type: 'string',
    placeholder: 'PATH',
    help: 'kubeconfig file(s), colon-separated',
    defaultText: 'KUBECONFIG, ~/.kube/config, then the in-cluster service account',
  },
  {
    flag: 'context',
    key: 'context',
    env: 'BINNACLE_CONTEXT',
    type: 'string',
    placeholder: 'NAME',
    help: 'kubeconfig context',
    defaultText: 'the current context',
  },
  {
    flag: 'namespace',
    key: 'namespace',
    env: 'BINNACLE_NAMESPACE',
    type: 'string',
    placeholder: 'NAME,…',
    help: 'watch only these namespaces (for identities without cluster-wide list rights; at most 50)',
    defaultText: 'all namespaces, or those the identity may read when it may not list pods cluster-wide',
    check: settingChecks.namespaces,
  },
  {
    flag: 'no-browser',
    key: 'noBrowser',
    env: 'BINNACLE_NO_BROWSER',
    type: 'boolean',
    help: 'do not open a browser at start (never opened without a TTY)',
  },
  {
    flag: 'debug-events',
    key: 'debugEvents',
    env: 'BINNACLE_DEBUG_EVENTS',
    type: 'boolean',
    help: 'log every request with its status and duration',
  },
  {
    flag: 'data-dir',
    key: 'dataDir',
    env: 'BINNACLE_DATA_DIR',
    type: 'path',
    placeholder: 'DIR',
    help: 'where config.json and settings.json live',
  },
  {
    flag: 'release-feed-url',
    key: 'releaseFeedUrl',
    env: 'BINNACLE_RELEASE_FEED_URL',
    type: 'url',
    placeholder: 'URL',
    help: 'release feed for /api/version-check',
  },
];
