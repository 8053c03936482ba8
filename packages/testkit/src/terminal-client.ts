import WebSocket from 'ws';
import { Received } from './recorder.ts';

export interface TerminalFrame {
  type: string;
  data?: string;
  code?: number;
  errorType?: string;
  message?: string;
}

export interface TerminalClient {
  frames: TerminalFrame[];
  /** All output so far, concatenated. */
  output(): string;
  input(data: string): void;
  resize(cols: number, rows: number): void;
  next(match: (frame: TerminalFrame) => boolean, timeoutMs?: number): Promise<TerminalFrame>;
  /** Resolves with the close code once the agent closes the socket. */
  closed: Promise<number>;
  close(): void;
}

/**
 * A client of the agent's terminal WebSockets (exec, local terminal) speaking their JSON frames. A refused
 * upgrade rejects with the HTTP status and the `{error, code}` body.
 */
export function openTerminal(url: string, headers: Record<string, string> = {}): Promise<TerminalClient> {
  const ws = new WebSocket(url.replace(/^http/, 'ws'), { headers });
  const received = new Received<TerminalFrame>((frames) => JSON.stringify(frames.slice(-5)));
  const frames = received.items;
  const closed = new Promise<number>((resolveClosed) => ws.on('close', (code) => resolveClosed(code)));
  ws.on('message', (data) => received.push(JSON.parse(data.toString()) as TerminalFrame));
  return new Promise((resolveOpen, reject) => {
    ws.once('open', () =>
      resolveOpen({
        frames,
        output: () =>
          frames
            .filter((f) => f.type === 'output')
            .map((f) => f.data)
            .join(''),
        input: (data) => ws.send(JSON.stringify({ type: 'input', data })),
        resize: (cols, rows) => ws.send(JSON.stringify({ type: 'resize', cols, rows })),
        next: (match, timeoutMs = 15_000) => received.next(match, timeoutMs),
        closed,
        close: () => ws.close(),
      }),
    );
    ws.once('unexpected-response', (req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => {
        // A refused upgrade leaves a keep-alive connection behind; the test is done with it.
        req.destroy();
        reject(
          Object.assign(new Error(`upgrade refused: ${res.statusCode} ${body}`), {
            status: res.statusCode,
            body: JSON.parse(body || '{}'),
          }),
        );
      });
    });
    ws.once('error', reject);
  });
}
