import { describe, expect, it } from 'vitest';
import {
  postgresBackupBody,
  postgresBackupDefaults,
  postgresBackupProblem,
  postgresBackupProblems,
} from './PostgresBackupForm.tsx';

const plugin = 'barman-cloud.cloudnative-pg.io';

describe("the CloudNativePG backup dialog's choices", () => {
  it('send only what was chosen; nothing chosen is an empty body', () => {
    expect(postgresBackupBody(postgresBackupDefaults)).toEqual({});
    expect(
      postgresBackupBody({
        ...postgresBackupDefaults,
        target: 'primary',
        online: 'online',
        waitForArchive: 'no',
      }),
    ).toEqual({ target: 'primary', online: true, waitForArchive: false });
  });

  it('send the plugin and its parameters with method plugin only, parsed as --plugin-parameters', () => {
    const typed = { ...postgresBackupDefaults, plugin: ` ${plugin} `, parameters: ' a=1,b=x=y,,c ' };
    expect(postgresBackupBody({ ...typed, method: 'plugin' })).toEqual({
      method: 'plugin',
      plugin,
      pluginParameters: { a: '1', b: 'x=y', c: '' },
    });
    expect(postgresBackupBody({ ...typed, method: 'volumeSnapshot' })).toEqual({ method: 'volumeSnapshot' });
  });

  it('leave the online configuration out of an offline backup', () => {
    expect(
      postgresBackupBody({ ...postgresBackupDefaults, online: 'offline', immediateCheckpoint: 'yes' }),
    ).toEqual({ online: false });
  });

  it('name what the route would refuse, by field, before anything is sent', () => {
    const byPlugin = { ...postgresBackupDefaults, method: 'plugin' as const };
    expect(postgresBackupProblems(byPlugin)).toEqual({ plugin: 'Name the plugin that takes the backup.' });
    expect(postgresBackupProblems({ ...byPlugin, plugin, parameters: 'object store=minio' })).toEqual({
      parameters: '"object store" is not a parameter name: letters, digits, ".", "_", "-" and "/" only.',
    });
    expect(postgresBackupProblem({ ...byPlugin, plugin, parameters: `a=${'x'.repeat(1025)}` })).toBe(
      'The value of a is over 1024 characters.',
    );
    const many = Array.from({ length: 33 }, (_, i) => `p${i}=v`).join(',');
    expect(postgresBackupProblem({ ...byPlugin, plugin, parameters: many })).toBe('At most 32 parameters.');
    expect(
      postgresBackupProblem({ ...byPlugin, plugin, parameters: 'barmanObjectName=minio-store' }),
    ).toBeUndefined();
    // Another method ignores what was typed for a plugin.
    expect(
      postgresBackupProblems({ ...postgresBackupDefaults, method: 'barmanObjectStore', parameters: 'a b' }),
    ).toEqual({});
  });
});
