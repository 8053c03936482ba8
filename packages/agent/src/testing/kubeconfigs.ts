import { readFile, writeFile } from 'node:fs/promises';
import { parse, stringify } from 'yaml';

type Entry = Record<string, unknown> & { name: string };
interface KubeconfigDoc {
  clusters: Entry[];
  users: Entry[];
  contexts: (Entry & { context: { cluster: string; user: string } })[];
  'current-context': string;
}

/**
 * One kubeconfig file with a context per given file (each file's current context, its cluster and user renamed
 * after the new context, so files whose entries share names combine), `current` as the current context.
 */
export async function kubeconfigWithContexts(
  path: string,
  contexts: Record<string, string>,
  current: string,
  mode = 0o600,
): Promise<void> {
  const merged: KubeconfigDoc = { clusters: [], users: [], contexts: [], 'current-context': current };
  for (const [name, file] of Object.entries(contexts)) {
    const doc = parse(await readFile(file, 'utf8')) as KubeconfigDoc;
    const context = doc.contexts.find((c) => c.name === doc['current-context']);
    const cluster = doc.clusters.find((c) => c.name === context?.context.cluster);
    const user = doc.users.find((u) => u.name === context?.context.user);
    if (!cluster || !user) throw new Error(`${file} has no complete current context`);
    merged.clusters.push({ ...cluster, name });
    merged.users.push({ ...user, name });
    merged.contexts.push({ name, context: { cluster: name, user: name } });
  }
  await writeFile(path, stringify({ apiVersion: 'v1', kind: 'Config', ...merged }), { mode });
}
