import { useCallback, useMemo } from 'react';
import { Checkbox, linkLook, mutedLook, panelLook } from '../../ui/controls.tsx';
import { SelectFilter } from '../../ui/SelectFilter.tsx';
import { TextFilter } from '../../ui/TextFilter.tsx';
import { useSearchPatch } from '../../ui/use-search-patch.ts';
import { FilePreview } from './FilePreview.tsx';
import { FileTree } from './FileTree.tsx';
import type { ImageQuery } from './file-head.ts';
import type { ImagesSearch } from './search.ts';
import { type FileNode, indexByPath } from './tree.ts';

/** The Filesystem tab: the filters over the tree, the tree, and the file chosen beside it. */
export function FilesView(props: {
  root: FileNode;
  image: ImageQuery;
  search: ImagesSearch;
  layerCount: number;
  layerWords: (layer: number) => string;
}) {
  const { root, image, search } = props;
  const patch = useSearchPatch<ImagesSearch>();
  const byPath = useMemo(() => indexByPath(root), [root]);
  const choose = useCallback((node: FileNode) => patch({ path: node.path }), [patch]);
  const clearFilter = useCallback(() => patch({ q: undefined, layer: undefined }), [patch]);
  const sortBy = useCallback(
    (order: 'name' | 'size') => patch({ order: order === 'size' ? 'size' : undefined }),
    [patch],
  );
  const filter = { text: search.q, layer: search.layer };
  const label = `Filesystem of ${image.image}`;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <TextFilter
          key={search.q ?? ''}
          label="Filter by path or name"
          value={search.q}
          placeholder="e.g. os-release"
          onChange={(q) => patch({ q })}
        />
        <SelectFilter
          label="Layer"
          all="Every layer"
          value={search.layer === undefined ? undefined : String(search.layer)}
          options={Array.from(
            { length: props.layerCount },
            (_, i) => [String(i), `Written by layer ${i}`] as const,
          )}
          onChange={(layer) => patch({ layer: layer === undefined ? undefined : Number(layer) })}
        />
        <Checkbox
          className="pb-1"
          label="Largest first"
          checked={search.order === 'size'}
          onChange={(on) => sortBy(on ? 'size' : 'name')}
        />
        {(search.q !== undefined || search.layer !== undefined) && (
          <button type="button" className={`pb-1 text-sm ${linkLook}`} onClick={clearFilter}>
            Show the whole tree
          </button>
        )}
      </div>
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <FileTree
          root={root}
          label={label}
          filter={filter}
          order={search.order ?? 'name'}
          selected={search.path}
          choose={choose}
          sortBy={sortBy}
          clearFilter={clearFilter}
          layerWords={props.layerWords}
        />
        {search.path ? (
          <FilePreview query={image} path={search.path} node={byPath.get(search.path)} />
        ) : (
          <p className={`${panelLook} pb-3 text-sm ${mutedLook}`}>
            Choose a file to read it here (text, up to 256 KiB) or download it.
          </p>
        )}
      </div>
    </div>
  );
}
