import { describe, expect, it } from 'vitest';
import type { TarEntry } from '../../oci/tar-reader.ts';
import { type FileNode, FilesystemTree } from './filesystem-tree.ts';

const file = (path: string, size = 1): TarEntry => ({ path, type: 'file', size, mode: 0o644 });
const dir = (path: string): TarEntry => ({ path, type: 'directory', size: 0, mode: 0o755 });

function build(layers: TarEntry[][]): FilesystemTree {
  const tree = new FilesystemTree();
  layers.forEach((entries, index) => {
    tree.beginLayer(index);
    for (const entry of entries) tree.add(entry);
  });
  return tree;
}

/** Every path of the merged tree with the layer it came from. */
function paths(node: FileNode): string[] {
  return [
    ...(node.path === '/' ? [] : [`${node.path}@${node.layer}`]),
    ...(node.children ?? []).flatMap(paths),
  ];
}

describe('FilesystemTree', () => {
  it('stacks layers: upper entries replace lower ones, directories keep what lies below', () => {
    const tree = build([
      [dir('etc'), file('etc/a', 10), file('etc/b', 20)],
      [dir('etc'), file('etc/b', 5), file('usr/bin/tool', 7)],
    ]);
    const { root, totalFiles, totalSize } = tree.result();
    expect(paths(root)).toEqual([
      '/etc@1',
      '/etc/a@0',
      '/etc/b@1',
      '/usr@1',
      '/usr/bin@1',
      '/usr/bin/tool@1',
    ]);
    expect(totalFiles).toBe(3);
    expect(totalSize).toBe(22);
    expect(root.children?.[0]?.size).toBe(15);
  });

  it('deletes a lower file or directory for a .wh.<name> entry', () => {
    const tree = build([
      [file('etc/keep'), file('etc/gone'), file('var/cache/x'), file('var/cache/y')],
      [file('etc/.wh.gone'), file('var/.wh.cache')],
    ]);
    expect(paths(tree.result().root)).toEqual(['/etc@0', '/etc/keep@0', '/var@0']);
  });

  it('hides what lower layers put in a directory with .wh..wh..opq, keeping what this layer adds', () => {
    const tree = build([
      [file('app/old.js'), file('app/lib/old.js'), file('other/x')],
      [file('app/new.js'), file('app/.wh..wh..opq'), file('app/lib/new.js')],
    ]);
    expect(paths(tree.result().root)).toEqual([
      '/app@0',
      '/app/lib@1',
      '/app/lib/new.js@1',
      '/app/new.js@1',
      '/other@0',
      '/other/x@0',
    ]);
  });

  it('lets a later layer bring back what a whiteout removed, and a file replace a directory', () => {
    const tree = build([[file('a/b')], [file('.wh.a')], [file('a', 3)]]);
    expect(paths(tree.result().root)).toEqual(['/a@2']);
  });

  it('resolves paths through symbolic links, relative and absolute, and refuses loops', () => {
    const tree = build([
      [
        file('usr/lib/libc.so.6', 9),
        { path: 'lib', type: 'symlink', size: 0, mode: 0o777, linkTarget: 'usr/lib' },
        { path: 'usr/lib/libc.so', type: 'symlink', size: 0, mode: 0o777, linkTarget: 'libc.so.6' },
        { path: 'etc/loop', type: 'symlink', size: 0, mode: 0o777, linkTarget: '/etc/loop' },
        { path: 'etc/up', type: 'symlink', size: 0, mode: 0o777, linkTarget: '../../../usr/lib/libc.so.6' },
      ],
    ]);
    expect(tree.resolve('/lib/libc.so')).toMatchObject({ path: 'usr/lib/libc.so.6', node: { size: 9 } });
    expect(tree.resolve('/etc/up')?.path).toBe('usr/lib/libc.so.6');
    expect(tree.resolve('/etc/loop')).toBeUndefined();
    expect(tree.resolve('/etc/none')).toBeUndefined();
  });
});
