import { mkdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Ports below Linux's ephemeral range (32768–60999 by default): the kernel hands those out as source ports of
 * outgoing connections, so a port picked there can be taken by a client socket (etcd's, the API server's) in
 * the moment between picking it and a component binding it.
 */
const quietPorts = { from: 20_000, to: 32_767 };

/**
 * A port handed out stays reserved this long for every process on the machine: a control plane picks all its
 * ports at once and binds the last of them only after etcd and the API server are up, and
 * parallel test files pick from the same range meanwhile. Once bound, the port is busy anyway.
 */
const reservationMs = 10 * 60_000;
const reservationDir = join(tmpdir(), 'binnacle-ports');

/** Claims `port` for this process unless another claimed it within `reservationMs`; the claim is a file. */
function reserve(port: number): boolean {
  const file = join(reservationDir, String(port));
  mkdirSync(reservationDir, { recursive: true });
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(file).mtimeMs < reservationMs) return false;
        unlinkSync(file);
      } catch (staleError) {
        if ((staleError as NodeJS.ErrnoException).code !== 'ENOENT') throw staleError;
      }
    }
  }
  return false;
}

function bindable(port: number): Promise<number | undefined> {
  return new Promise((resolvePort) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolvePort(undefined));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : undefined;
      server.close(() => resolvePort(bound));
    });
  });
}

/**
 * A free loopback port, outside the range outgoing connections draw from when one is free there, and not
 * handed to any other process of this machine in the last `reservationMs`.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const candidate = quietPorts.from + Math.floor(Math.random() * (quietPorts.to - quietPorts.from + 1));
    if (!reserve(candidate)) continue;
    const port = await bindable(candidate);
    if (port !== undefined) return port;
  }
  const port = await bindable(0);
  if (port === undefined) throw new Error('no free loopback port');
  return port;
}

/** Resolves true when something accepts TCP connections on 127.0.0.1:port. */
/** A check for `waitUntil`: something listens on 127.0.0.1:`port`, else it throws saying nothing does. */
export const listening = (port: number) => async (): Promise<boolean> => {
  if (await isListening(port)) return true;
  throw new Error(`nothing listens on 127.0.0.1:${port}`);
};

export function isListening(port: number): Promise<boolean> {
  return new Promise((resolveListening) => {
    const socket = new Socket();
    const done = (listening: boolean) => {
      socket.destroy();
      resolveListening(listening);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1');
  });
}
