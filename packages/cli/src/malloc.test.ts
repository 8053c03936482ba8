import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mallocSettings, missingSettings, restartArguments } from './malloc.ts';

interface Restarted {
  /** The pid the parent spawned, and the one that answered. */
  spawnedPid: number | undefined;
  pid: number;
  arena: string | null;
  argv: string[];
  execArgv: string[];
  stderr: string;
}

/** A node process that applies the malloc settings of `command`, started with `env`: what it ends up as. */
function restart(command: string, env: NodeJS.ProcessEnv): Promise<Restarted> {
  const malloc = resolve(import.meta.dirname, 'malloc.ts');
  const script = `
    const { restartWithMallocSettings } = await import(${JSON.stringify(malloc)});
    restartWithMallocSettings(process.argv[1]);
    process.stdout.write(JSON.stringify({
      pid: process.pid, arena: process.env.MALLOC_ARENA_MAX ?? null, argv: process.argv.slice(1), execArgv: process.execArgv,
    }));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, command, '--port', '9999'], {
    env: { PATH: process.env.PATH, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) =>
      code === 0
        ? done({ spawnedPid: child.pid, ...JSON.parse(stdout), stderr })
        : fail(new Error(`exit ${code}: ${stderr}`)),
    );
  });
}

describe('restartWithMallocSettings', () => {
  it('restarts an agent in place with two malloc arenas, its flags and arguments kept, nothing printed', async () => {
    const agent = await restart('agent', {});
    expect(agent.arena).toBe('2');
    // execve: the same process, not a child of it.
    expect(agent.pid).toBe(agent.spawnedPid);
    expect(agent.argv).toEqual(['agent', '--port', '9999']);
    expect(agent.execArgv.slice(0, 2)).toEqual(['--input-type=module', '-e']);
    expect(agent.stderr).toBe('');
    expect((await restart('desktop', {})).arena).toBe('2');
  });

  it("keeps the user's own choice, and leaves the hub and other commands to glibc's defaults", async () => {
    expect((await restart('agent', { MALLOC_ARENA_MAX: '8' })).arena).toBe('8');
    const tuned = await restart('agent', { GLIBC_TUNABLES: 'glibc.malloc.arena_max=4' });
    expect(tuned.arena).toBeNull();
    expect((await restart('hub', {})).arena).toBeNull();
    expect((await restart('help', {})).arena).toBeNull();
  });
});

describe('malloc settings', () => {
  it('apply to the agent and the desktop on Linux only', () => {
    expect(mallocSettings('agent', 'linux')).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(mallocSettings('desktop', 'linux')).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(mallocSettings('hub', 'linux')).toEqual({});
    expect(mallocSettings('agent', 'darwin')).toEqual({});
  });

  it('count as given when set or spelled as a glibc tunable', () => {
    const settings = { MALLOC_ARENA_MAX: '2' };
    expect(missingSettings(settings, {})).toEqual(settings);
    expect(missingSettings(settings, { MALLOC_ARENA_MAX: '' })).toEqual({});
    expect(missingSettings(settings, { GLIBC_TUNABLES: 'glibc.malloc.tcache_count=0' })).toEqual(settings);
    expect(missingSettings(settings, { GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' })).toEqual({});
  });

  it('restart a script with its node flags first, a single executable with its arguments only', () => {
    const argv = ['/usr/bin/node', '/opt/binnacle.js', 'agent', '--port', '1'];
    expect(restartArguments(argv, ['--max-semi-space-size=4'], false)).toEqual([
      '--max-semi-space-size=4',
      '/opt/binnacle.js',
      'agent',
      '--port',
      '1',
    ]);
    const sea = ['/usr/local/bin/binnacle', '/usr/local/bin/binnacle', 'agent', '--port', '1'];
    expect(restartArguments(sea, [], true)).toEqual(['agent', '--port', '1']);
  });
});
