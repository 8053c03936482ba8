import type { OptionSpec } from '@binnacle/common/server';
import type { AgentConfig } from '../agent-config.ts';

/** The image filesystem browser's layer cache. */
export const imageFlags: OptionSpec<AgentConfig>[] = [
  {
    flag: 'image-cache-dir',
    key: 'imageCacheDir',
    env: 'BINNACLE_IMAGE_CACHE_DIR',
    type: 'path',
    placeholder: 'DIR',
    help: 'where image layers read by /api/images/* are cached',
    defaultText: '<data-dir>/image-cache',
  },
  {
    flag: 'image-cache-max-size',
    key: 'imageCacheMaxBytes',
    fileKey: 'imageCacheMaxSize',
    env: 'BINNACLE_IMAGE_CACHE_MAX_SIZE',
    type: 'size',
    placeholder: 'SIZE',
    help: 'size cap of the image layer cache; least recently used layers go first',
  },
  {
    flag: 'image-file-max-size',
    key: 'imageFileMaxBytes',
    fileKey: 'imageFileMaxSize',
    env: 'BINNACLE_IMAGE_FILE_MAX_SIZE',
    type: 'size',
    placeholder: 'SIZE',
    help: 'largest image file /api/images/file serves; larger ones answer 413',
  },
];
