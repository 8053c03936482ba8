import type { OptionSpec } from '@binnacle/common/server';
import type { AgentConfig } from '../agent-config.ts';

/** The change timeline: its store, how much it keeps and for how long. */
export const timelineFlags: OptionSpec<AgentConfig>[] = [
  {
    flag: 'timeline-storage',
    key: 'timelineStorage',
    env: 'BINNACLE_TIMELINE_STORAGE',
    type: 'enum',
    values: ['memory', 'sqlite'],
    placeholder: 'memory|sqlite',
    help: 'where the change timeline is kept',
  },
  {
    flag: 'timeline-db',
    key: 'timelineDb',
    env: 'BINNACLE_TIMELINE_DB',
    type: 'path',
    placeholder: 'PATH',
    help: 'SQLite file of the timeline',
    defaultText: '<data-dir>/timeline.db',
  },
  {
    flag: 'history-limit',
    key: 'historyLimit',
    env: 'BINNACLE_HISTORY_LIMIT',
    type: 'integer',
    range: [100, 1_000_000],
    placeholder: 'N',
    help: 'entries the in-memory timeline keeps',
  },
  {
    flag: 'timeline-retention',
    key: 'timelineRetentionMs',
    fileKey: 'timelineRetention',
    env: 'BINNACLE_TIMELINE_RETENTION',
    type: 'duration',
    placeholder: 'DURATION',
    help: 'how long the SQLite timeline keeps entries',
  },
  {
    flag: 'timeline-max-size',
    key: 'timelineMaxBytes',
    fileKey: 'timelineMaxSize',
    env: 'BINNACLE_TIMELINE_MAX_SIZE',
    type: 'size',
    placeholder: 'SIZE',
    help: 'size cap of the SQLite timeline, its WAL and shm files included',
  },
];
