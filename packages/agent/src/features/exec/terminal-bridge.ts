import { StringDecoder } from 'node:string_decoder';
import type WebSocket from 'ws';
import type { AgentContext } from '../../context.ts';
import type { SessionKind } from '../../http/sessions.ts';
import type { StreamLimit } from '../../http/sse.ts';

export const terminalLimits = {
  /** A terminal with no input and no output for this long is closed. */
  idleMs: 30 * 60_000,
  /** And any terminal after this long. */
  maxMs: 12 * 3_600_000,
  /** Output waiting for the browser before the process is paused. */
  pauseAtBytes: 1024 * 1024,
  resumeAtBytes: 256 * 1024,
};

const exitGraceMs = 150;

export interface TerminalBackend {
  write(data: Buffer | string): void;
  resize(cols: number, rows: number): void;
  close(): void;
  pause(): void;
  resume(): void;
}

export interface TerminalSink {
  output(data: Buffer | string): void;
  exit(result: { exitCode?: number; message?: string; errorType?: string }): void;
}

type ClientFrame = { type: 'input'; data: string } | { type: 'resize'; cols: number; rows: number };

function parseFrame(text: string): ClientFrame | undefined {
  try {
    const frame = JSON.parse(text) as Record<string, unknown>;
    if (frame.type === 'input' && typeof frame.data === 'string') return { type: 'input', data: frame.data };
    const size = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n > 0 && n <= 1000;
    if (frame.type === 'resize' && size(frame.cols) && size(frame.rows))
      return { type: 'resize', cols: frame.cols as number, rows: frame.rows as number };
  } catch {
    // Not JSON: answered below.
  }
  return undefined;
}

/**
 * Connects a browser WebSocket to a terminal backend (an exec in a container, a shell on the agent's host).
 * Browser frames: `{"type":"input","data":"ls\r"}` or raw binary input, `{"type":"resize","cols":120,"rows":40}`.
 * Agent frames: `{"type":"output","data":…}`, `{"type":"exit","code":0}`, `{"type":"error","errorType":…,"message":…}`.
 * Output is paused while the browser lags; idle and total time limits close the terminal.
 */
export async function bridgeTerminal(
  socket: WebSocket,
  start: (sink: TerminalSink) => Promise<TerminalBackend>,
  onEnd: () => void,
): Promise<void> {
  const decoder = new StringDecoder('utf8');
  let backend: TerminalBackend | undefined;
  // Input that arrives while the backend is still starting, replayed once it is up.
  const early: (() => void)[] = [];
  const toBackend = (act: (b: TerminalBackend) => void) => {
    if (backend) act(backend);
    else early.push(() => backend && act(backend));
  };
  let ended = false;
  let paused = false;
  const send = (frame: object) => {
    if (socket.readyState === 1) socket.send(JSON.stringify(frame));
  };
  const finish = () => {
    if (ended) return;
    ended = true;
    clearTimeout(idle);
    clearTimeout(total);
    backend?.close();
    onEnd();
    // Let the last frame reach the browser before closing.
    setTimeout(() => socket.close(1000), 200).unref();
  };
  let idle = setTimeout(
    () =>
      end({
        errorType: 'idle_timeout',
        message: `closed after ${terminalLimits.idleMs / 60_000} minutes without input or output`,
      }),
    terminalLimits.idleMs,
  );
  const total = setTimeout(
    () =>
      end({
        errorType: 'session_limit',
        message: `terminals close after ${terminalLimits.maxMs / 3_600_000} hours`,
      }),
    terminalLimits.maxMs,
  );
  total.unref();
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(
      () =>
        end({
          errorType: 'idle_timeout',
          message: `closed after ${terminalLimits.idleMs / 60_000} minutes without input or output`,
        }),
      terminalLimits.idleMs,
    );
    idle.unref();
  };
  idle.unref();
  let ending = false;
  function end(result: { exitCode?: number; message?: string; errorType?: string }): void {
    if (ended || ending) return;
    // With a TTY the exit status can overtake the last output; give it a moment to arrive first.
    ending = true;
    setTimeout(() => report(result), exitGraceMs).unref();
  }
  function report(result: { exitCode?: number; message?: string; errorType?: string }): void {
    if (ended) return;
    const rest = decoder.end();
    if (rest) send({ type: 'output', data: rest });
    if (result.errorType || (result.exitCode === undefined && result.message))
      send({ type: 'error', errorType: result.errorType ?? 'exec_error', message: result.message });
    else send({ type: 'exit', code: result.exitCode ?? 0 });
    finish();
  }
  const sink: TerminalSink = {
    output(data) {
      touch();
      const text = typeof data === 'string' ? data : decoder.write(data);
      if (text) send({ type: 'output', data: text });
      if (!paused && socket.bufferedAmount > terminalLimits.pauseAtBytes) {
        paused = true;
        backend?.pause();
        const check = setInterval(() => {
          if (socket.readyState !== 1 || socket.bufferedAmount < terminalLimits.resumeAtBytes) {
            clearInterval(check);
            paused = false;
            backend?.resume();
          }
        }, 50);
      }
    },
    exit: end,
  };
  socket.on('close', finish);
  socket.on('error', finish);
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    touch();
    if (isBinary) return toBackend((b) => b.write(data));
    const frame = parseFrame(data.toString());
    if (!frame)
      return send({
        type: 'error',
        errorType: 'bad_frame',
        message: 'frames are {"type":"input","data":"…"} or {"type":"resize","cols":N,"rows":N} (1–1000)',
      });
    if (frame.type === 'input') toBackend((b) => b.write(frame.data));
    else toBackend((b) => b.resize(frame.cols, frame.rows));
  });
  try {
    backend = await start(sink);
    if (ended) backend.close();
    else for (const replay of early.splice(0)) replay();
  } catch (error) {
    end({ errorType: 'exec_error', message: (error as Error).message });
  }
}

/**
 * Serves one terminal WebSocket: takes a slot of `limit` (or answers with an error frame), registers the
 * session, bridges the socket to what `start` launches, and frees both when it ends.
 */
export function serveTerminal(
  ctx: AgentContext,
  socket: WebSocket,
  limit: StreamLimit,
  session: { kind: SessionKind; target: string },
  start: (sink: TerminalSink) => Promise<TerminalBackend>,
): void {
  let release: () => void;
  try {
    release = limit.acquire();
  } catch (error) {
    socket.send(
      JSON.stringify({ type: 'error', errorType: 'too_many_sessions', message: (error as Error).message }),
    );
    socket.close(1013);
    return;
  }
  const handle = ctx.sessions.open(session.kind, session.target, () => socket.close(1001));
  void bridgeTerminal(socket, start, () => {
    handle.end();
    release();
  });
}
