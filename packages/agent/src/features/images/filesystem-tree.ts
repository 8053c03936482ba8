import type { EntryType, TarEntry } from '../../oci/tar-reader.ts';

/** One path of the merged image filesystem; `layer` is the index (in the manifest) of the layer it came from. */
export interface FileNode {
  name: string;
  path: string;
  type: EntryType;
  /** Bytes of a file; of a directory, the sum of everything below it. */
  size: number;
  mode: number;
  linkTarget?: string;
  layer: number;
  children?: FileNode[];
}

interface MutableNode {
  name: string;
  type: EntryType;
  size: number;
  mode: number;
  linkTarget?: string;
  layer: number;
  children?: Map<string, MutableNode>;
}

const whiteoutPrefix = '.wh.';
const opaqueMarker = '.wh..wh..opq';

const directory = (name: string, layer: number, mode = 0o755): MutableNode => ({
  name,
  type: 'directory',
  size: 0,
  mode,
  layer,
  children: new Map(),
});

/**
 * The filesystem of an image as its layers stack up (OCI image spec, "Applying changesets"): each layer's
 * entries replace lower ones, `.wh.<name>` deletes `<name>` of lower layers, `.wh..wh..opq` hides everything
 * lower layers put in its directory. Only headers are kept, never contents.
 */
export class FilesystemTree {
  readonly #root = directory('', -1);
  #layer = -1;

  /** Starts the next layer; entries added from now on belong to it. */
  beginLayer(index: number): void {
    this.#layer = index;
  }

  add(entry: TarEntry): void {
    const parts = entry.path.split('/').filter(Boolean);
    const name = parts.pop();
    if (name === undefined) {
      if (entry.type === 'directory') this.#root.mode = entry.mode;
      return;
    }
    const parent = this.#directory(parts);
    const children = parent.children ?? new Map<string, MutableNode>();
    parent.children = children;
    if (name === opaqueMarker) {
      this.#hideLower(parent);
      return;
    }
    if (name.startsWith(whiteoutPrefix)) {
      const hidden = children.get(name.slice(whiteoutPrefix.length));
      if (hidden && hidden.layer < this.#layer) children.delete(hidden.name);
      return;
    }
    const existing = children.get(name);
    if (entry.type === 'directory' && existing?.type === 'directory') {
      // A directory entry over a directory changes its metadata; what lies below stays.
      existing.mode = entry.mode;
      existing.layer = this.#layer;
      return;
    }
    children.set(name, {
      name,
      type: entry.type,
      size: entry.type === 'file' ? entry.size : 0,
      mode: entry.mode,
      layer: this.#layer,
      ...(entry.linkTarget !== undefined ? { linkTarget: entry.linkTarget } : {}),
      ...(entry.type === 'directory' ? { children: new Map() } : {}),
    });
  }

  /** The directory at `parts`, made (belonging to this layer) where missing or where a non-directory stood. */
  #directory(parts: string[]): MutableNode {
    let node = this.#root;
    for (const part of parts) {
      const children = node.children ?? new Map<string, MutableNode>();
      node.children = children;
      let next = children.get(part);
      if (next?.type !== 'directory') {
        next = directory(part, this.#layer);
        children.set(part, next);
      }
      node = next;
    }
    return node;
  }

  /** Removes what lower layers put below `dir`, keeping what this layer added (and the directories leading to it). */
  #hideLower(dir: MutableNode): void {
    for (const child of dir.children?.values() ?? []) {
      if (child.type === 'directory') this.#hideLower(child);
      const keep = child.layer === this.#layer || (child.children?.size ?? 0) > 0;
      if (!keep) dir.children?.delete(child.name);
    }
  }

  /** The merged tree, children by name, directory sizes summed; with the count of files and their bytes. */
  result(): { root: FileNode; totalFiles: number; totalSize: number } {
    let totalFiles = 0;
    const build = (node: MutableNode, path: string): FileNode => {
      const out: FileNode = {
        name: node.name,
        path: path || '/',
        type: node.type,
        size: node.size,
        mode: node.mode,
        layer: node.layer,
        ...(node.linkTarget !== undefined ? { linkTarget: node.linkTarget } : {}),
      };
      if (node.type !== 'directory') {
        totalFiles += 1;
        return out;
      }
      const names = [...(node.children?.keys() ?? [])].sort();
      out.children = names.map((name) => build(node.children?.get(name) as MutableNode, `${path}/${name}`));
      out.size = out.children.reduce((sum, child) => sum + child.size, 0);
      return out;
    };
    const root = build(this.#root, '');
    return { root, totalFiles, totalSize: root.size };
  }

  /**
   * The file a path names, following symbolic links (in any component, at most 40, within the image) as the
   * container would: its cleaned path and node, or undefined when nothing is there.
   */
  resolve(path: string): { path: string; node: FileInfo } | undefined {
    let pending = path.split('/');
    const resolved: MutableNode[] = [];
    const names: string[] = [];
    let hops = 0;
    while (pending.length) {
      const part = pending.shift() as string;
      if (part === '' || part === '.') continue;
      if (part === '..') {
        resolved.pop();
        names.pop();
        continue;
      }
      const node = (resolved.at(-1) ?? this.#root).children?.get(part);
      if (!node) return undefined;
      if (node.type === 'symlink' && node.linkTarget !== undefined) {
        if (++hops > 40) return undefined;
        if (node.linkTarget.startsWith('/')) {
          resolved.length = 0;
          names.length = 0;
        }
        pending = [...node.linkTarget.split('/'), ...pending];
        continue;
      }
      resolved.push(node);
      names.push(part);
    }
    const node = resolved.at(-1) ?? this.#root;
    return {
      path: names.join('/'),
      node: { type: node.type, size: node.size, layer: node.layer, linkTarget: node.linkTarget },
    };
  }
}

/** What the file route needs of a node. */
export type FileInfo = Pick<FileNode, 'type' | 'size' | 'layer' | 'linkTarget'>;
