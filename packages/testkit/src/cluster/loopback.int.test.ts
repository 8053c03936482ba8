import { readdir, readFile, readlink } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { testCluster } from '../test-cluster.ts';

const loopback = new Map([
  ['0100007F', '127.0.0.1'],
  ['00000000000000000000000001000000', '::1'],
  ['0000000000000000FFFF00000100007F', '::ffff:127.0.0.1'],
]);

/** The listening TCP sockets of this network namespace, by inode, as `address:port` (hex when not loopback). */
async function listeningSockets(): Promise<Map<string, string>> {
  const sockets = new Map<string, string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of (await readFile(file, 'utf8')).split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [local, state, inode] = [fields[1], fields[3], fields[9]];
      if (!local || state !== '0A' || !inode) continue;
      const [address = '', port = ''] = local.split(':');
      sockets.set(inode, `${loopback.get(address) ?? address}:${Number.parseInt(port, 16)}`);
    }
  }
  return sockets;
}

async function socketInodes(pid: number): Promise<string[]> {
  const dir = `/proc/${pid}/fd`;
  const targets = await Promise.all(
    (await readdir(dir)).map((fd) => readlink(`${dir}/${fd}`).catch(() => '')),
  );
  return targets.flatMap((target) => /^socket:\[(\d+)\]$/.exec(target)?.[1] ?? []);
}

// Every server of the test control plane is on 127.0.0.1 (docs/development.md): loopback only, so a test run opens nothing to the
// machine's network. Karpenter's operator takes ports only; the build binds it to loopback (ADR 0127).
describe('the test control plane', () => {
  it('listens on loopback only, in every process it runs', async () => {
    const cluster = testCluster();
    const sockets = await listeningSockets();
    const listening: string[] = [];
    for (const proc of cluster.state.processes)
      for (const inode of await socketInodes(proc.pid)) {
        const address = sockets.get(inode);
        if (address) listening.push(`${proc.name} ${address}`);
      }
    const names = new Set(listening.map((line) => line.split(' ')[0]));
    expect([...names]).toEqual(expect.arrayContaining(['etcd', 'kube-apiserver', 'kwok', 'karpenter']));
    expect(listening.filter((line) => !/ (127\.0\.0\.1|::1|::ffff:127\.0\.0\.1):\d+$/.test(line))).toEqual(
      [],
    );
  });
});
