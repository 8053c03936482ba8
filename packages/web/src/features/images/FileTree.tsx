import { type KeyboardEvent, useCallback, useMemo, useState } from 'react';
import { mutedLook } from '../../ui/controls.tsx';
import { formatBytes } from '../../ui/units.ts';
import { type Column, VirtualTable } from '../../ui/VirtualTable.tsx';
import { FileIcon } from './FileIcon.tsx';
import {
  type FileNode,
  matchingRows,
  modeWords,
  type TreeFilter,
  type TreeOrder,
  type TreeRow,
  visibleRows,
} from './tree.ts';

const typeLetter: Record<FileNode['type'], string> = {
  directory: 'd',
  file: '-',
  symlink: 'l',
  hardlink: 'h',
  other: '?',
};

/** The tree fills the window below the page's summary and filters (it scrolls inside), never shorter than 360 px. */
const treeHeight = () => Math.max(360, window.innerHeight - 420);

/** The directories above a path (`/a/b/c` → `/a`, `/a/b`): open at first, so a file named in the URL shows. */
export const ancestorsOf = (path: string) =>
  path
    .split('/')
    .slice(1, -1)
    .map((_, i, parts) => `/${parts.slice(0, i + 1).join('/')}`);

/**
 * The merged filesystem as a table of rows with expand buttons: only open directories are walked and only the
 * rows in view are drawn, so an image of fifty thousand entries opens and scrolls at once. ←/→ on a directory
 * close and open it; Enter on a file shows it. A filter shows the matches under their directories, opened.
 */
export function FileTree(props: {
  root: FileNode;
  label: string;
  filter: TreeFilter;
  order: TreeOrder;
  /** The file shown in place. */
  selected?: string;
  choose: (node: FileNode) => void;
  sortBy: (order: TreeOrder) => void;
  clearFilter: () => void;
  layerWords: (layer: number) => string;
}) {
  const { root, filter, order, selected, choose, layerWords, clearFilter } = props;
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set(ancestorsOf(selected ?? '')));
  const { text, layer } = filter;
  const filtered = text !== undefined || layer !== undefined;
  const rows = useMemo(
    () => (filtered ? matchingRows(root, { text, layer }, order) : visibleRows(root, open, order)),
    [root, filtered, text, layer, order, open],
  );
  const toggle = useCallback(
    (path: string, to: boolean) =>
      setOpen((prev) => {
        const next = new Set(prev);
        if (to) next.add(path);
        else next.delete(path);
        return next;
      }),
    [],
  );
  // A directory among the matches opens in the whole tree, the filter dropped: where it sits, what is beside it.
  const reveal = useCallback(
    (path: string) => {
      setOpen((prev) => new Set([...prev, ...ancestorsOf(path), path]));
      clearFilter();
    },
    [clearFilter],
  );

  const columns = useMemo((): Column<TreeRow>[] => {
    const onKey = (row: TreeRow) => (event: KeyboardEvent) => {
      if (filtered || row.node.type !== 'directory') return;
      if (event.key === 'ArrowRight' && !row.open) toggle(row.node.path, true);
      else if (event.key === 'ArrowLeft' && row.open) toggle(row.node.path, false);
    };
    return [
      {
        id: 'name',
        header: 'Name',
        minWidth: 280,
        sortable: true,
        sorted: order === 'name' ? 'asc' : undefined,
        cell: (row) => (
          <NameCell
            row={row}
            selected={row.node.path === selected}
            onKey={onKey(row)}
            toggle={filtered ? reveal : (path) => toggle(path, !row.open)}
            choose={choose}
          />
        ),
      },
      {
        id: 'size',
        header: 'Size',
        width: 110,
        minWidth: 80,
        right: true,
        sortable: true,
        sorted: order === 'size' ? 'desc' : undefined,
        cell: (row) => <span className="tabular-nums">{formatBytes(row.node.size)}</span>,
      },
      {
        id: 'mode',
        header: 'Mode',
        width: 120,
        minWidth: 100,
        cell: (row) => (
          <span className={`font-mono text-xs ${mutedLook}`}>
            {typeLetter[row.node.type]}
            {modeWords(row.node.mode)}
          </span>
        ),
      },
      {
        id: 'layer',
        header: 'Layer',
        width: 80,
        minWidth: 64,
        right: true,
        cell: (row) => (
          <span className="tabular-nums" title={layerWords(row.node.layer)}>
            {row.node.layer}
          </span>
        ),
      },
    ];
  }, [order, selected, filtered, choose, layerWords, toggle, reveal]);

  if (filtered && rows.length === 0)
    return (
      <p
        className={`rounded-lg border border-slate-200 bg-white py-6 text-center text-sm dark:border-slate-800 dark:bg-slate-900 ${mutedLook}`}
      >
        No entry matches.
      </p>
    );
  return (
    <VirtualTable
      label={props.label}
      columns={columns}
      count={rows.length}
      rowAt={(i) => rows[i]}
      rowKey={(row) => row.node.path}
      onSort={(column) => props.sortBy(column === 'size' ? 'size' : 'name')}
      height={treeHeight()}
    />
  );
}

function NameCell({
  row,
  selected,
  onKey,
  toggle,
  choose,
}: {
  row: TreeRow;
  selected: boolean;
  onKey: (event: KeyboardEvent) => void;
  /** Opens or closes a directory (in the filtered tree: shows it in the whole one). */
  toggle: (path: string) => void;
  choose: (node: FileNode) => void;
}) {
  const { node, depth } = row;
  const directory = node.type === 'directory';
  const readable = node.type === 'file' || node.type === 'symlink' || node.type === 'hardlink';
  const name = (
    <>
      <span aria-hidden="true" className={`w-3 shrink-0 text-xs ${mutedLook}`}>
        {directory ? (row.open ? '▾' : '▸') : ''}
      </span>
      <FileIcon type={node.type} />
      <span className={`truncate ${selected ? 'font-semibold' : ''}`}>{node.name}</span>
    </>
  );
  const look =
    'flex min-w-0 items-center gap-1.5 rounded text-left focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-600';
  return (
    <span className="flex min-w-0 items-center gap-2" style={{ paddingLeft: depth * 18 }}>
      {directory ? (
        <button
          type="button"
          className={look}
          aria-expanded={row.open}
          aria-label={`${node.name}, directory`}
          onKeyDown={onKey}
          onClick={() => toggle(node.path)}
        >
          {name}
        </button>
      ) : readable ? (
        <button
          type="button"
          className={`${look} hover:underline`}
          aria-current={selected ? 'true' : undefined}
          aria-label={`${node.name}, ${node.type === 'file' ? 'file' : node.type === 'symlink' ? 'symbolic link' : 'hard link'}: show`}
          onClick={() => choose(node)}
        >
          {name}
        </button>
      ) : (
        <span className={look}>
          {name}
          <span className={`text-xs ${mutedLook}`}>(special file)</span>
        </span>
      )}
      {node.linkTarget && (
        <span className={`truncate font-mono text-xs ${mutedLook}`} title={node.linkTarget}>
          → {node.linkTarget}
        </span>
      )}
    </span>
  );
}
