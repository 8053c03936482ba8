import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { goToolBinary } from './cluster/go-tool.ts';
import { freePort } from './cluster/ports.ts';
import { signalGroup, startProcess, stopProcesses } from './cluster/processes.ts';
import { waitUntil } from './cluster/wait.ts';

/** stripe-mock (Stripe's API mock server) on loopback: any `sk_test_…` key is accepted. */
export interface StripeMock {
  /** http://127.0.0.1:<port>, the Stripe API base URL to configure. */
  url: string;
  /** A secret key it accepts. */
  secretKey: string;
  stop(): Promise<void>;
}

/** Builds stripe-mock once from the Go module proxy (cached by go.sum) and returns its path. */
export const stripeMockBinary = () => goToolBinary('stripe-mock', 'stripe-mock');

/**
 * stripe-mock on free 127.0.0.1 ports (its HTTPS listener too, which would otherwise take the fixed default
 * 12112 on every address), ready once it answers an authenticated API call.
 */
export async function startStripeMock(): Promise<StripeMock> {
  const binary = await stripeMockBinary();
  const dir = await mkdtemp(join(tmpdir(), 'binnacle-stripe-mock-'));
  const [port, tlsPort] = [await freePort(), await freePort()];
  const proc = startProcess(
    'stripe-mock',
    binary,
    ['-http-addr', `127.0.0.1:${port}`, '-https-addr', `127.0.0.1:${tlsPort}`],
    join(dir, 'stripe-mock.log'),
  );
  const url = `http://127.0.0.1:${port}`;
  const secretKey = 'sk_test_binnacle';
  // A test run that dies without stopping it leaves no server behind.
  const killOnExit = () => signalGroup(proc.pid, 'SIGKILL');
  process.on('exit', killOnExit);
  const stop = async () => {
    process.off('exit', killOnExit);
    await stopProcesses([proc], 5000);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitUntil(
      `stripe-mock on ${url}`,
      async () =>
        (
          await fetch(`${url}/v1/customers`, {
            headers: { authorization: `Bearer ${secretKey}` },
            signal: AbortSignal.timeout(2000),
          })
        ).ok,
      { timeoutMs: 30_000, process: proc },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, secretKey, stop };
}
