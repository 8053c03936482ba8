import type { components } from '../../api/generated/agent-api.ts';

export type FileNode = components['schemas']['ImageFileNode'];

/** How a directory's entries are ordered: by name (directories first), or the largest first, as `du` sorts. */
export type TreeOrder = 'name' | 'size';

/** One row of the tree as shown: the entry, how deep it sits, and whether it is open (directories). */
export interface TreeRow {
  node: FileNode;
  depth: number;
  open: boolean;
}

const byName = (a: FileNode, b: FileNode) =>
  Number(b.type === 'directory') - Number(a.type === 'directory') || a.name.localeCompare(b.name);
const bySize = (a: FileNode, b: FileNode) => b.size - a.size || a.name.localeCompare(b.name);

/** The entries of a directory in the order asked for (a new array: the answer's own stays as it came). */
export const sortedChildren = (node: FileNode, order: TreeOrder) =>
  [...(node.children ?? [])].sort(order === 'size' ? bySize : byName);

/**
 * The rows to show: the root's entries, and below each open directory its own, depth first. Only open
 * directories are walked, so an image of tens of thousands of entries costs what is on screen.
 */
export function visibleRows(root: FileNode, open: ReadonlySet<string>, order: TreeOrder): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (dir: FileNode, depth: number) => {
    for (const node of sortedChildren(dir, order)) {
      const isOpen = node.type === 'directory' && open.has(node.path);
      rows.push({ node, depth, open: isOpen });
      if (isOpen) walk(node, depth + 1);
    }
  };
  walk(root, 0);
  return rows;
}

/** What narrows the tree: text in an entry's path (any case), and the layer that last wrote it. */
export interface TreeFilter {
  text?: string;
  layer?: number;
}

/**
 * The rows of the entries that match, each under its directories (shown open, whatever was opened by hand), so
 * a match is seen where it lives. A directory that matches shows without its entries.
 */
export function matchingRows(root: FileNode, filter: TreeFilter, order: TreeOrder): TreeRow[] {
  const text = filter.text?.toLowerCase();
  const matches = (node: FileNode) =>
    (!text || node.path.toLowerCase().includes(text)) &&
    (filter.layer === undefined || node.layer === filter.layer);
  const rows: TreeRow[] = [];
  // Whether anything at or below `dir` matches: an entry's row goes first and is taken back if nothing did.
  const walk = (dir: FileNode, depth: number): boolean => {
    let any = false;
    for (const node of sortedChildren(dir, order)) {
      const row = { node, depth, open: false };
      const at = rows.push(row) - 1;
      row.open = node.type === 'directory' && walk(node, depth + 1);
      if (row.open || matches(node)) any = true;
      else rows.length = at;
    }
    return any;
  };
  walk(root, 0);
  return rows;
}

/** Every entry below `dir`, depth first. */
export function* entriesBelow(dir: FileNode): Generator<FileNode> {
  for (const child of dir.children ?? []) {
    yield child;
    yield* entriesBelow(child);
  }
}

/** How many entries each layer last wrote (by layer index), the root aside. */
export function entriesPerLayer(root: FileNode): Map<number, number> {
  const counts = new Map<number, number>();
  for (const node of entriesBelow(root)) counts.set(node.layer, (counts.get(node.layer) ?? 0) + 1);
  return counts;
}

/** Every entry by its path, to describe the file named in the URL. */
export const indexByPath = (root: FileNode) =>
  new Map([...entriesBelow(root)].map((node) => [node.path, node]));

/** Permission bits as `ls -l` prints them: `rwxr-xr-x`. */
export function modeWords(mode: number): string {
  const letters = 'rwxrwxrwx';
  return [...letters].map((letter, i) => (mode & (1 << (8 - i)) ? letter : '-')).join('');
}
