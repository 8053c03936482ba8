/**
 * Stands in for what the simulated pods run: kwok forwards pod ports 80/8080 here, and every pod's
 * container log is the CRI-format file this process keeps appending to. Run as its own process by the
 * control plane (`node pod-sim.ts <port> <log-file>`).
 */
import { appendFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';

const messages = [
  'GET /healthz 200 1ms',
  'GET /api/orders 200 14ms',
  'POST /api/orders 201 31ms',
  'cache refreshed entries=128',
  'GET /api/orders/42 404 3ms',
  'worker heartbeat queue_depth=3',
];
const maxLogBytes = 2 * 1024 * 1024;

/** One line in the CRI log format kubelets (and kwok) serve: `<RFC3339Nano> <stream> F <message>`. */
export function criLine(message: string, stream: 'stdout' | 'stderr' = 'stdout', at = new Date()): string {
  return `${at.toISOString().replace('Z', '000000Z')} ${stream} F ${message}\n`;
}

function appendLog(file: string, line: string): void {
  try {
    if (statSync(file).size > maxLogBytes) {
      writeFileSync(`${file}.next`, line);
      renameSync(`${file}.next`, file);
      return;
    }
  } catch {
    // First line: the file does not exist yet.
  }
  appendFileSync(file, line);
}

function main(): void {
  const [portArg, ...logFiles] = process.argv.slice(2);
  const port = Number(portArg);
  if (!Number.isInteger(port) || logFiles.length === 0) {
    process.stderr.write('usage: pod-sim.ts <port> <log-file>…\n');
    process.exit(2);
  }
  // Every log file the simulated containers serve gets the same running lines.
  const append = (line: string) => {
    for (const file of logFiles) appendLog(file, line);
  };
  let tick = 0;
  const timer = setInterval(() => {
    append(criLine(`level=info seq=${tick} msg="${messages[tick % messages.length]}"`));
    tick += 1;
  }, 1000);
  const server = createServer((req, res) => {
    append(criLine(`level=info msg="port-forward request" method=${req.method} path=${req.url}`));
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`hello from the binnacle demo workload: ${req.method} ${req.url}\n`);
  });
  server.listen(port, '127.0.0.1');
  const stop = () => {
    clearInterval(timer);
    server.close(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (import.meta.main) main();
