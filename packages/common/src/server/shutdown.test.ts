import { execFile } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const module = (name: string) => pathToFileURL(`${import.meta.dirname}/${name}`).href;

/** Runs a script in a fresh Node process with the servers' crash handler installed; resolves how it ended. */
function crashing(failure: string): Promise<{ code: number | null; stderr: string }> {
  const script = `
    import { serverLogger } from '${module('logger.ts')}';
    import { exitOnCrash } from '${module('shutdown.ts')}';
    exitOnCrash('agent', serverLogger('warn'));
    ${failure}
    setTimeout(() => process.stdout.write('still running'), 5_000);
  `;
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--input-type=module', '-e', script],
      { timeout: 30_000 },
      (_error, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
    );
  });
}

describe('exitOnCrash', () => {
  it.each([
    ['unhandledRejection', "void Promise.reject(new Error('lost promise'));", 'lost promise'],
    [
      'uncaughtException',
      "setImmediate(() => { throw new Error('thrown in a callback'); });",
      'thrown in a callback',
    ],
  ])('logs an %s as one fatal structured line, then exits 1', async (event, failure, message) => {
    const { code, stderr } = await crashing(failure);
    expect(code).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      level: 60,
      event,
      msg: `binnacle agent: ${event}, exiting`,
      err: { type: 'Error', message, stack: expect.stringContaining(message) },
    });
  });
});
