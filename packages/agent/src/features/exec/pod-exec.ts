import { Channel, openChannelSocket, parseExitStatus } from '../../kube/channel.ts';
import type { Impersonation } from '../../kube/client.ts';
import type { ExecContext } from './module.ts';

export interface ExecOptions {
  tty: boolean;
  stdin: boolean;
  as?: Impersonation;
  onStdout(data: Buffer): void;
  onStderr?(data: Buffer): void;
  /** Called once: the exit code (0 on success) or, when the command could not run at all, a message. */
  onExit(result: { exitCode?: number; message?: string }): void;
}

export interface ExecProcess {
  write(data: Buffer | string): void;
  resize(cols: number, rows: number): void;
  /** End of input (v5 protocol), like closing a pipe. */
  closeStdin(): void;
  /** Ends the stream; the API server stops the process. */
  close(): void;
  /** Stop and restart reading output (backpressure towards the API server). */
  pause(): void;
  resume(): void;
  /** Bytes waiting to be sent to the API server. */
  readonly buffered: number;
}

/** Runs a command in a container through `pods/exec` over WebSocket (the v5/v4 channel protocol). */
export async function execInPod(
  ctx: ExecContext,
  namespace: string,
  pod: string,
  container: string,
  command: string[],
  options: ExecOptions,
): Promise<ExecProcess> {
  const query: [string, string][] = [
    ['container', container],
    ['stdout', 'true'],
    ['stderr', String(!options.tty)],
    ['stdin', String(options.stdin)],
    ['tty', String(options.tty)],
    ...command.map((arg): [string, string] => ['command', arg]),
  ];
  let exited = false;
  const exit = (result: { exitCode?: number; message?: string }) => {
    if (exited) return;
    exited = true;
    options.onExit(result);
  };
  const socket = await openChannelSocket(
    ctx.cluster.client,
    `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}/exec`,
    query,
    {
      as: options.as,
      onFrame(channel, data) {
        if (channel === Channel.stdout) options.onStdout(data);
        else if (channel === Channel.stderr) (options.onStderr ?? options.onStdout)(data);
        else if (channel === Channel.error) {
          const status = parseExitStatus(data);
          exit(
            status.success
              ? { exitCode: 0 }
              : {
                  exitCode: status.exitCode,
                  message: status.exitCode === undefined ? status.message : undefined,
                },
          );
        }
      },
    },
  );
  socket.ws.on('close', () => exit({ message: 'the exec stream closed' }));
  return {
    write: (data) => socket.send(Channel.stdin, data),
    resize: (cols, rows) => socket.send(Channel.resize, JSON.stringify({ Width: cols, Height: rows })),
    closeStdin: () => socket.closeChannel(Channel.stdin),
    close: () => socket.close(),
    pause: () => socket.ws.pause(),
    resume: () => socket.ws.resume(),
    get buffered() {
      return socket.ws.bufferedAmount;
    },
  };
}

/**
 * Runs a command to completion and collects its output (at most `maxBytes` of stdout). Used for short
 * commands such as a directory listing.
 */
export async function runInPod(
  ctx: ExecContext,
  namespace: string,
  pod: string,
  container: string,
  command: string[],
  maxBytes = 4 * 1024 * 1024,
  as?: Impersonation,
): Promise<{ stdout: string; stderr: string; exitCode?: number; message?: string; truncated: boolean }> {
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  let size = 0;
  let truncated = false;
  return new Promise((resolveRun, reject) => {
    let process: ExecProcess | undefined;
    execInPod(ctx, namespace, pod, container, command, {
      tty: false,
      stdin: false,
      as,
      onStdout(data) {
        if (size + data.length > maxBytes) {
          truncated = true;
          process?.close();
          return;
        }
        size += data.length;
        stdout.push(data);
      },
      onStderr: (data) => stderr.push(data),
      onExit: (result) =>
        resolveRun({
          stdout: Buffer.concat(stdout).toString(),
          stderr: Buffer.concat(stderr).toString(),
          ...result,
          truncated,
        }),
    }).then((p) => {
      process = p;
    }, reject);
  });
}
