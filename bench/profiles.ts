import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { repoRoot } from '@binnacle/testkit';

/** Where a run's heap snapshots and CPU profiles go (git-ignored: they are tens of megabytes). */
export const profileDir = join(repoRoot, 'bench/profiles');

export interface ProfileFiles {
  cpu: string;
  heap: string;
}

/**
 * Takes a CPU profile of the agent's next `seconds` through its own /debug/pprof/profile route, started the
 * moment the agent listens so it covers the initial sync.
 */
export async function saveCpuProfile(url: string, seconds: number, name: string): Promise<string> {
  await mkdir(profileDir, { recursive: true });
  const file = join(profileDir, `${name}.cpuprofile`);
  const res = await fetch(`${url}/debug/pprof/profile?seconds=${seconds}`);
  if (!res.ok) throw new Error(`CPU profile: HTTP ${res.status}`);
  await writeFile(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

/** Streams a heap snapshot from the agent's /debug/pprof/heap to a file. */
export async function saveHeapSnapshot(url: string, name: string): Promise<string> {
  await mkdir(profileDir, { recursive: true });
  const file = join(profileDir, `${name}.heapsnapshot`);
  const res = await fetch(`${url}/debug/pprof/heap`);
  if (!res.ok || !res.body) throw new Error(`heap snapshot: HTTP ${res.status}`);
  await pipeline(Readable.fromWeb(res.body), createWriteStream(file));
  return file;
}

/**
 * `--profile` for a bench that runs the hub as its own process: the hub runs with `--cpu-prof`, which writes
 * its profile (the whole run) into a fresh folder of bench/profiles/ when it exits; `read` gives its top
 * self-time functions. Disabled, it adds no Node option and reads nothing.
 */
export async function hubCpuProfile(enabled: boolean, name: string) {
  if (!enabled) return { nodeArgs: [], read: () => Promise.resolve(undefined) };
  const dir = join(profileDir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  await mkdir(dir, { recursive: true });
  return {
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
    async read() {
      const file = (await readdir(dir)).find((entry) => entry.endsWith('.cpuprofile'));
      if (!file) throw new Error(`the hub wrote no CPU profile into ${dir}`);
      const path = join(dir, file);
      return { file: relative(repoRoot, path), top: await topFunctions(path, 12) };
    },
  };
}

interface CpuProfile {
  nodes: {
    id: number;
    hitCount?: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }[];
  samples: number[];
  startTime: number;
  endTime: number;
}

const share = (part: number, total: number) => `${Math.round((1000 * part) / Math.max(1, total)) / 10}%`;

/** Busy (not idle) time of a .cpuprofile, then the functions with the most self time: `name (file:line) ms share`. */
export async function topFunctions(file: string, count = 15): Promise<string[]> {
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const perSample = (profile.endTime - profile.startTime) / 1000 / Math.max(1, profile.samples.length);
  const selfMs = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    // Time waiting for the API server is not the agent's cost.
    if (functionName === '(idle)') continue;
    const where = url
      ? ` (${relative(repoRoot, url.replace(/^file:\/\//, '')).replace(/^node_modules\//, '')}:${lineNumber + 1})`
      : '';
    const key = `${functionName || '(anonymous)'}${where}`;
    selfMs.set(key, (selfMs.get(key) ?? 0) + (node.hitCount ?? 0) * perSample);
  }
  const busyMs = [...selfMs.values()].reduce((a, b) => a + b, 0);
  return [
    `busy ${Math.round(busyMs)} ms`,
    ...[...selfMs]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, ms]) => `${name} ${Math.round(ms)} ms ${share(ms, busyMs)}`),
  ];
}

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/**
 * Self size in a .heapsnapshot grouped by constructor (objects) or by V8 type (strings, arrays, code...), the
 * largest first: `Object 21.3 MB (40.1%, 250 000)`.
 */
export async function topRetainers(file: string, count = 12): Promise<string[]> {
  const snapshot = JSON.parse(await readFile(file, 'utf8')) as HeapSnapshot;
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const groups = new Map<string, { bytes: number; count: number }>();
  let total = 0;
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + typeAt] as number] as string;
    const size = snapshot.nodes[i + sizeAt] as number;
    const key =
      type === 'object' || type === 'closure'
        ? (snapshot.strings[snapshot.nodes[i + nameAt] as number] ?? type)
        : `(${type})`;
    const group = groups.get(key) ?? { bytes: 0, count: 0 };
    group.bytes += size;
    group.count += 1;
    groups.set(key, group);
    total += size;
  }
  return [...groups]
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .slice(0, count)
    .map(
      ([name, g]) =>
        `${name} ${Math.round(g.bytes / 104857.6) / 10} MB (${share(g.bytes, total)}, ${g.count.toLocaleString('en')})`,
    );
}
