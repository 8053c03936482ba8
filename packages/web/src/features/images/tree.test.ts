import { describe, expect, it } from 'vitest';
import { entriesPerLayer, type FileNode, matchingRows, modeWords, visibleRows } from './tree.ts';

const file = (path: string, size: number, layer = 0): FileNode => ({
  name: path.slice(path.lastIndexOf('/') + 1),
  path,
  type: 'file',
  size,
  mode: 0o644,
  layer,
});
const dir = (path: string, children: FileNode[], layer = 0): FileNode => ({
  ...file(
    path,
    children.reduce((sum, c) => sum + c.size, 0),
    layer,
  ),
  type: 'directory',
  mode: 0o755,
  children,
});

const root = dir('/', [
  dir('/etc', [file('/etc/os-release', 22, 2), file('/etc/hosts', 5)]),
  file('/big.bin', 900, 1),
  dir('/app', [file('/app/main.js', 40, 2)], 2),
]);
const paths = (rows: { node: FileNode; depth: number }[]) => rows.map((r) => `${r.depth}:${r.node.path}`);

describe('visibleRows', () => {
  it('walks open directories only, directories first then by name, or the largest first', () => {
    expect(paths(visibleRows(root, new Set(), 'name'))).toEqual(['0:/app', '0:/etc', '0:/big.bin']);
    expect(paths(visibleRows(root, new Set(['/etc']), 'name'))).toEqual([
      '0:/app',
      '0:/etc',
      '1:/etc/hosts',
      '1:/etc/os-release',
      '0:/big.bin',
    ]);
    expect(paths(visibleRows(root, new Set(['/etc']), 'size'))).toEqual([
      '0:/big.bin',
      '0:/app',
      '0:/etc',
      '1:/etc/os-release',
      '1:/etc/hosts',
    ]);
  });
});

describe('matchingRows', () => {
  it('shows each match under its directories, opened, and nothing that does not lead to one', () => {
    const rows = matchingRows(root, { text: 'OS-rel' }, 'name');
    expect(paths(rows)).toEqual(['0:/etc', '1:/etc/os-release']);
    expect(rows[0]?.open).toBe(true);
    expect(paths(matchingRows(root, { text: 'nothing' }, 'name'))).toEqual([]);
  });

  it('narrows to the entries a layer last wrote, with the text or alone', () => {
    expect(paths(matchingRows(root, { layer: 2 }, 'name'))).toEqual([
      '0:/app',
      '1:/app/main.js',
      '0:/etc',
      '1:/etc/os-release',
    ]);
    expect(paths(matchingRows(root, { layer: 2, text: 'main' }, 'name'))).toEqual([
      '0:/app',
      '1:/app/main.js',
    ]);
  });
});

describe('entriesPerLayer and modeWords', () => {
  it('counts the entries each layer last wrote and prints permission bits as ls does', () => {
    expect(Object.fromEntries(entriesPerLayer(root))).toEqual({ 0: 2, 1: 1, 2: 3 });
    expect(modeWords(0o755)).toBe('rwxr-xr-x');
    expect(modeWords(0o600)).toBe('rw-------');
  });
});
