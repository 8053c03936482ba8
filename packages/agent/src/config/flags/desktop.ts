import type { OptionSpec } from '@binnacle/common/server';
import type { AgentConfig } from '../agent-config.ts';

/** The desktop helpers' own flags, beside the agent's. */
export const desktopFlags: OptionSpec<AgentConfig>[] = [
  {
    flag: 'downloads-dir',
    key: 'downloadsDir',
    env: 'BINNACLE_DOWNLOADS_DIR',
    type: 'path',
    placeholder: 'DIR',
    help: 'where saved files go',
    defaultText: 'XDG_DOWNLOAD_DIR, ~/.config/user-dirs.dirs, else ~/Downloads',
  },
  {
    flag: 'update-url',
    key: 'updateUrl',
    env: 'BINNACLE_UPDATE_URL',
    type: 'url',
    placeholder: 'URL',
    help: 'release manifest the desktop updater reads',
    defaultText: 'none, updates off',
  },
];
