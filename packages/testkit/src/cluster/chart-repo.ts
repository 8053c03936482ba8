/**
 * A classic Helm chart repository: serves `index.yaml` and the packaged charts of one directory over plain
 * HTTP on loopback, read-only, the way a static web server or object store serves one. Run as its own process
 * by the control plane (`node chart-repo.ts <port> <dir>`).
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { basename, join } from 'node:path';

const contentTypes: Record<string, string> = {
  '.yaml': 'application/x-yaml',
  '.tgz': 'application/gzip',
  '.prov': 'text/plain',
};

function main(): void {
  const [portArg, dir] = process.argv.slice(2);
  const port = Number(portArg);
  if (!Number.isInteger(port) || !dir) {
    process.stderr.write('usage: chart-repo.ts <port> <dir>\n');
    process.exit(2);
  }
  const server = createServer((req, res) => {
    const name = basename(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const type = contentTypes[name.slice(name.lastIndexOf('.'))];
    const path = join(dir, name);
    let size: number | undefined;
    try {
      size = statSync(path).isFile() ? statSync(path).size : undefined;
    } catch {
      size = undefined;
    }
    if (req.url === '/healthz') {
      res.writeHead(200).end('ok\n');
    } else if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
    } else if (!type || size === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`${name} not found\n`);
    } else {
      res.writeHead(200, { 'content-type': type, 'content-length': size });
      if (req.method === 'HEAD') res.end();
      else createReadStream(path).pipe(res);
    }
  });
  server.listen(port, '127.0.0.1');
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (import.meta.main) main();
