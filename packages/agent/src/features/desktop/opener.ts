import { spawn } from 'node:child_process';
import { AppError } from '@binnacle/common/server';

/** The program that hands a URL, file or folder to the desktop's default application, and its arguments. */
export function openerCommand(target: string, platform = process.platform): [string, string[]] {
  if (platform === 'darwin') return ['open', [target]];
  // Not `cmd /c start`: cmd would read &, | and ^ in a URL as its own syntax.
  if (platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', target]];
  return ['xdg-open', [target]];
}

/**
 * Hands a URL, file or folder to the desktop's opener. Resolves once the opener started (it is not waited
 * for: some stay until the application they launched exits); rejects with `opener_unavailable` when it cannot
 * start (ENOENT: a machine without a desktop).
 */
export function openExternal(target: string): Promise<void> {
  const [command, args] = openerCommand(target);
  return new Promise((resolve, reject) => {
    const refuse = (error: NodeJS.ErrnoException) =>
      reject(
        new AppError(
          'opener_unavailable',
          `cannot start ${command} to open it (${error.code ?? error.message}); is this a desktop?`,
          { cause: error },
        ),
      );
    try {
      const child = spawn(command, args, { detached: true, stdio: 'ignore' });
      child.once('error', refuse);
      child.once('spawn', () => {
        child.unref();
        resolve();
      });
    } catch (error) {
      refuse(error as NodeJS.ErrnoException);
    }
  });
}
