import { randomBytes } from 'node:crypto';
import { chmod, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { checkedYamlDocuments, yamlLimits } from '@binnacle/common/server';
import { type Document, isMap, isSeq, type YAMLMap } from 'yaml';

/** One context with its own cluster and user entries, as kubeconfig YAML maps (`cluster:` / `user:` bodies). */
export interface KubeconfigEntry {
  name: string;
  cluster: Record<string, unknown>;
  user: Record<string, unknown>;
}

type Section = 'clusters' | 'users' | 'contexts';

/** Puts `{ name, [field]: body }` into the section, replacing an entry of that name (first one wins in reads). */
function upsert(doc: Document, section: Section, name: string, field: string, body: unknown) {
  const node = doc.createNode({ name, [field]: body });
  const seq = doc.get(section);
  if (!isSeq(seq)) {
    doc.set(section, doc.createNode([node]));
    return;
  }
  const index = seq.items.findIndex((item) => isMap(item) && (item as YAMLMap).get('name') === name);
  if (index >= 0) seq.items[index] = node;
  else seq.items.push(node);
}

/**
 * Adds (or replaces) a context, cluster and user — all named `entry.name` — in a kubeconfig file, keeping its
 * other entries, comments and current-context. Written as kubectl's readers expect to find it at every moment:
 * a temporary file beside it, with the file's own mode (a kubeconfig holds credentials), renamed over it.
 */
export async function mergeKubeconfigEntry(path: string, entry: KubeconfigEntry): Promise<void> {
  const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
  const docs = checkedYamlDocuments(text, yamlLimits.stored, () => path);
  if (docs.length > 1) throw new Error(`${path} holds ${docs.length} YAML documents, a kubeconfig one`);
  // An empty file (or one of comments only) becomes a kubeconfig of its own.
  const [doc] =
    docs[0]?.contents == null
      ? checkedYamlDocuments(`${text}\napiVersion: v1\nkind: Config\n`, yamlLimits.stored, () => path)
      : docs;
  if (!isMap(doc?.contents)) throw new Error(`${path} is not a kubeconfig (a YAML mapping)`);
  upsert(doc, 'clusters', entry.name, 'cluster', entry.cluster);
  upsert(doc, 'users', entry.name, 'user', entry.user);
  upsert(doc, 'contexts', entry.name, 'context', { cluster: entry.name, user: entry.name });
  const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  const mode = info.mode & 0o777;
  try {
    await writeFile(temporary, doc.toString(), { mode, flag: 'wx' });
    // writeFile's mode is masked by the umask; the file must end up exactly as the original was.
    await chmod(temporary, mode);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
