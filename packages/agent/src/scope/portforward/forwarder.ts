import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import type { KubeObject } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { AgentContext } from '../../context.ts';
import type { SessionHandle } from '../../http/sessions.ts';
import { openChannelSocket } from '../../kube/channel.ts';

export type ForwardStatus = 'running' | 'stopped' | 'error';

export interface ForwardView {
  id: string;
  namespace: string;
  pod: string;
  service?: string;
  /** The port asked for (a number or a name). */
  port: number | string;
  podPort: number;
  localPort: number;
  address: string;
  status: ForwardStatus;
  error?: string;
  startedAt: string;
  connections: number;
  bytesIn: number;
  bytesOut: number;
}

const pauseAtBytes = 1024 * 1024;

/** One local listener whose connections each become a `pods/portforward` stream to the pod. */
export class Forward {
  readonly view: ForwardView;
  readonly #ctx: Pick<AgentContext, 'cluster' | 'log' | 'sessions'>;
  readonly #server: Server;
  readonly #conns = new Set<Socket>();
  #session?: SessionHandle;
  /** For a service forward: picks a ready pod again when the current one goes away. */
  readonly #repick?: () => { pod: KubeObject; podPort: number };

  constructor(
    ctx: Pick<AgentContext, 'cluster' | 'log' | 'sessions'>,
    view: Omit<
      ForwardView,
      'id' | 'status' | 'startedAt' | 'connections' | 'bytesIn' | 'bytesOut' | 'localPort'
    >,
    repick?: () => { pod: KubeObject; podPort: number },
  ) {
    this.#ctx = ctx;
    this.#repick = repick;
    this.view = {
      ...view,
      id: randomUUID(),
      status: 'running',
      startedAt: new Date().toISOString(),
      connections: 0,
      bytesIn: 0,
      bytesOut: 0,
      localPort: 0,
    };
    this.#server = createServer((socket) => this.#connect(socket));
  }

  async listen(localPort: number): Promise<void> {
    await new Promise<void>((resolveListen, reject) => {
      this.#server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'EADDRINUSE'
            ? new AppError(
                'conflict',
                `local port ${localPort} is already in use; pick another or leave localPort out`,
              )
            : error,
        ),
      );
      this.#server.listen(localPort, this.view.address, () => resolveListen());
    });
    const address = this.#server.address();
    this.view.localPort = typeof address === 'object' && address ? address.port : localPort;
    this.#session = this.#ctx.sessions.open(
      'portforward',
      `${this.view.address}:${this.view.localPort} → ${this.view.namespace}/${this.view.pod}:${this.view.podPort}`,
      (reason) => {
        this.view.error = reason;
        this.stop('stopped');
      },
    );
  }

  #connect(socket: Socket): void {
    this.#conns.add(socket);
    this.view.connections = this.#conns.size;
    socket.pause();
    const stripped = new Set<number>();
    let upstream: { pause(): void } | undefined;
    const finish = () => {
      this.#conns.delete(socket);
      this.view.connections = this.#conns.size;
      socket.destroy();
    };
    socket.on('error', finish);
    openChannelSocket(
      this.#ctx.cluster.client,
      `/api/v1/namespaces/${encodeURIComponent(this.view.namespace)}/pods/${encodeURIComponent(this.view.pod)}/portforward`,
      [['ports', String(this.view.podPort)]],
      {
        portForward: true,
        onFrame: (channel, raw) => {
          // The first frame of each channel starts with the port number (2 bytes, little endian).
          const first = !stripped.has(channel);
          stripped.add(channel);
          const data = first ? raw.subarray(2) : raw;
          if (data.length === 0) return;
          if (channel === 0) {
            this.view.bytesOut += data.length;
            if (!socket.write(data)) upstream?.pause();
          } else if (channel === 1) {
            this.#ctx.log.warn(
              { forward: this.view.id },
              `port-forward error: ${data.toString().slice(0, 300)}`,
            );
            finish();
          }
        },
      },
    ).then(
      (stream) => {
        upstream = stream.ws;
        socket.on('drain', () => stream.ws.resume());
        socket.on('data', (chunk: Buffer) => {
          this.view.bytesIn += chunk.length;
          stream.send(0, chunk);
          if (stream.ws.bufferedAmount > pauseAtBytes) {
            socket.pause();
            const check = setInterval(() => {
              if (stream.ws.bufferedAmount < pauseAtBytes / 4 || stream.ws.readyState !== 1) {
                clearInterval(check);
                socket.resume();
              }
            }, 20);
          }
        });
        socket.on('end', () => stream.close());
        socket.on('close', () => {
          stream.close();
          finish();
        });
        stream.ws.on('close', finish);
        socket.resume();
      },
      (error: Error) => {
        this.#ctx.log.warn({ forward: this.view.id }, `port-forward connection failed: ${error.message}`);
        finish();
      },
    );
  }

  /** The pod went away: a service forward moves to another ready pod, a pod forward ends with an error. */
  podGone(reason: string): void {
    if (this.#repick) {
      try {
        const next = this.#repick();
        this.view.pod = next.pod.metadata?.name ?? '';
        this.view.podPort = next.podPort;
        for (const conn of this.#conns) conn.destroy();
        return;
      } catch {
        // No other ready pod: end as for a pod forward.
      }
    }
    this.view.error = reason;
    this.stop('error');
  }

  stop(status: ForwardStatus): void {
    if (this.view.status !== 'running') return;
    this.view.status = status;
    this.#server.close();
    for (const conn of this.#conns) conn.destroy();
    this.#conns.clear();
    this.view.connections = 0;
    this.#session?.end();
  }
}
