import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import pty from '@lydell/node-pty';
import type { TerminalBackend, TerminalSink } from './terminal-bridge.ts';

function shell(): string {
  const candidates = [process.env.SHELL, '/bin/bash', '/bin/zsh', '/bin/sh'];
  return candidates.find((path): path is string => Boolean(path) && existsSync(path as string)) ?? '/bin/sh';
}

/** A login shell on the agent's own host, in a pseudo-terminal. */
export function startLocalShell(sink: TerminalSink, cols = 80, rows = 24): TerminalBackend {
  const proc = pty.spawn(shell(), ['-l'], {
    name: 'xterm-256color',
    cols,
    rows,
    cwd: homedir(),
    env: { ...process.env, TERM: 'xterm-256color' } as Record<string, string>,
  });
  proc.onData((data) => sink.output(data));
  proc.onExit(({ exitCode }) => sink.exit({ exitCode }));
  return {
    write: (data) => proc.write(typeof data === 'string' ? data : data.toString()),
    resize: (c, r) => proc.resize(c, r),
    close: () => {
      try {
        proc.kill();
      } catch {
        // Already gone.
      }
    },
    pause: () => proc.pause(),
    resume: () => proc.resume(),
  };
}
