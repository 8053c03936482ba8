import { StringDecoder } from 'node:string_decoder';
import type WebSocket from 'ws';
import type { SessionKind } from '../../http/sessions.ts';
import type { StreamLimit } from '../../http/sse.ts';
import type { ExecContext } from './module.ts';

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
  const bridge = new TerminalBridge(socket, onEnd);
  socket.on('close', () => bridge.finish());
  socket.on('error', () => bridge.finish());
  socket.on('message', (data: Buffer, isBinary: boolean) => bridge.fromBrowser(data, isBinary));
  try {
    bridge.started(await start(bridge.sink));
  } catch (error) {
    bridge.end({ errorType: 'exec_error', message: (error as Error).message });
  }
}

type TerminalResult = { exitCode?: number; message?: string; errorType?: string };

/** One terminal session between a browser socket and its backend: frames both ways, flow control, time limits. */
class TerminalBridge {
  readonly #socket: WebSocket;
  readonly #onEnd: () => void;
  readonly #decoder = new StringDecoder('utf8');
  #backend: TerminalBackend | undefined;
  /** Input that arrives while the backend is still starting, replayed once it is up. */
  readonly #early: (() => void)[] = [];
  #ended = false;
  #ending = false;
  #paused = false;
  #idle: NodeJS.Timeout;
  readonly #total: NodeJS.Timeout;
  readonly sink: TerminalSink = {
    output: (data) => this.#output(data),
    exit: (result) => this.end(result),
  };

  constructor(socket: WebSocket, onEnd: () => void) {
    this.#socket = socket;
    this.#onEnd = onEnd;
    this.#idle = this.#idleTimer();
    this.#total = setTimeout(
      () =>
        this.end({
          errorType: 'session_limit',
          message: `terminals close after ${terminalLimits.maxMs / 3_600_000} hours`,
        }),
      terminalLimits.maxMs,
    );
    this.#total.unref();
  }

  started(backend: TerminalBackend): void {
    this.#backend = backend;
    if (this.#ended) backend.close();
    else for (const replay of this.#early.splice(0)) replay();
  }

  fromBrowser(data: Buffer, isBinary: boolean): void {
    this.#touch();
    if (isBinary) {
      this.#toBackend((b) => b.write(data));
      return;
    }
    const frame = parseFrame(data.toString());
    if (!frame) {
      this.#send({
        type: 'error',
        errorType: 'bad_frame',
        message: 'frames are {"type":"input","data":"…"} or {"type":"resize","cols":N,"rows":N} (1–1000)',
      });
      return;
    }
    if (frame.type === 'input') this.#toBackend((b) => b.write(frame.data));
    else this.#toBackend((b) => b.resize(frame.cols, frame.rows));
  }

  end(result: TerminalResult): void {
    if (this.#ended || this.#ending) return;
    // With a TTY the exit status can overtake the last output; give it a moment to arrive first.
    this.#ending = true;
    setTimeout(() => this.#report(result), exitGraceMs).unref();
  }

  finish(): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#idle);
    clearTimeout(this.#total);
    this.#backend?.close();
    this.#onEnd();
    // Let the last frame reach the browser before closing.
    setTimeout(() => this.#socket.close(1000), 200).unref();
  }

  #report(result: TerminalResult): void {
    if (this.#ended) return;
    const rest = this.#decoder.end();
    if (rest) this.#send({ type: 'output', data: rest });
    if (result.errorType || (result.exitCode === undefined && result.message))
      this.#send({ type: 'error', errorType: result.errorType ?? 'exec_error', message: result.message });
    else this.#send({ type: 'exit', code: result.exitCode ?? 0 });
    this.finish();
  }

  #output(data: Buffer | string): void {
    this.#touch();
    const text = typeof data === 'string' ? data : this.#decoder.write(data);
    if (text) this.#send({ type: 'output', data: text });
    if (this.#paused || this.#socket.bufferedAmount <= terminalLimits.pauseAtBytes) return;
    this.#paused = true;
    this.#backend?.pause();
    const check = setInterval(() => {
      if (this.#socket.readyState !== 1 || this.#socket.bufferedAmount < terminalLimits.resumeAtBytes) {
        clearInterval(check);
        this.#paused = false;
        this.#backend?.resume();
      }
    }, 50);
  }

  #toBackend(act: (b: TerminalBackend) => void): void {
    if (this.#backend) act(this.#backend);
    else this.#early.push(() => this.#backend && act(this.#backend));
  }

  #send(frame: object): void {
    if (this.#socket.readyState === 1) this.#socket.send(JSON.stringify(frame));
  }

  #idleTimer(): NodeJS.Timeout {
    const timer = setTimeout(
      () =>
        this.end({
          errorType: 'idle_timeout',
          message: `closed after ${terminalLimits.idleMs / 60_000} minutes without input or output`,
        }),
      terminalLimits.idleMs,
    );
    timer.unref();
    return timer;
  }

  #touch(): void {
    clearTimeout(this.#idle);
    this.#idle = this.#idleTimer();
  }
}

/**
 * Serves one terminal WebSocket: takes a slot of `limit` (or answers with an error frame), registers the
 * session, bridges the socket to what `start` launches, and frees both when it ends.
 */
export function serveTerminal(
  ctx: ExecContext,
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
  // 1001 "going away", with the reason (a close reason holds at most 123 bytes).
  const handle = ctx.sessions.open(session.kind, session.target, (reason) =>
    socket.close(1001, Buffer.from(reason).subarray(0, 123).toString()),
  );
  void bridgeTerminal(socket, start, () => {
    handle.end();
    release();
  });
}
