import { describe, expect, it } from 'vitest';
import { parseExitStatus } from './channel.ts';

describe('parseExitStatus', () => {
  it('reads success, a kubelet exit code cause, an exit code in the message, and a failure to start', () => {
    expect(parseExitStatus(Buffer.from('{"status":"Success"}'))).toEqual({ success: true, exitCode: 0 });
    const kubelet = {
      status: 'Failure',
      reason: 'NonZeroExitCode',
      message: 'command terminated with non-zero exit code',
      details: { causes: [{ reason: 'ExitCode', message: '3' }] },
    };
    expect(parseExitStatus(Buffer.from(JSON.stringify(kubelet)))).toMatchObject({
      success: false,
      exitCode: 3,
    });
    expect(
      parseExitStatus(Buffer.from('{"status":"Failure","message":"cmd wait: sh -c x: exit status 7"}')),
    ).toMatchObject({ exitCode: 7 });
    expect(
      parseExitStatus(
        Buffer.from('{"status":"Failure","message":"exec: \\"zsh\\": executable file not found in $PATH"}'),
      ),
    ).toEqual({
      success: false,
      exitCode: undefined,
      message: 'exec: "zsh": executable file not found in $PATH',
    });
  });
});
