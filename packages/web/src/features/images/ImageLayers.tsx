import { linkLook, mutedLook } from '../../ui/controls.tsx';
import { Table } from '../../ui/Table.tsx';
import { formatBytes } from '../../ui/units.ts';

export interface LayerRow {
  digest: string;
  size: number;
  /** The build step that made it, from the config's history, when it says. */
  command?: string;
  /** Entries of the merged tree this layer wrote last; undefined until the tree is read. */
  entries?: number;
}

/**
 * The layers bottom up, as `docker history` lists them upside down: size, the step that made each, and how
 * many entries of the final filesystem each wrote last (a link that narrows the tree to them).
 */
export function ImageLayers({ layers, show }: { layers: LayerRow[]; show: (layer: number) => void }) {
  return (
    <Table
      label="Layers"
      columns={['#', { label: 'Size', right: true }, { label: 'Entries', right: true }, 'Made by', 'Digest']}
    >
      {layers.map((layer, index) => (
        <tr key={layer.digest} className="align-top">
          <td className="py-1.5 pr-4 tabular-nums">{index}</td>
          <td className="py-1.5 pr-4 text-right tabular-nums whitespace-nowrap">{formatBytes(layer.size)}</td>
          <td className="py-1.5 pr-4 text-right tabular-nums">
            {layer.entries === undefined ? (
              <span className={mutedLook}>…</span>
            ) : (
              <button
                type="button"
                className={linkLook}
                title={`Show the entries layer ${index} wrote last`}
                onClick={() => show(index)}
              >
                {layer.entries.toLocaleString('en-US')}
              </button>
            )}
          </td>
          <td className="max-w-xl py-1.5 pr-4 font-mono text-xs break-words">
            {layer.command ?? <span className={`font-sans ${mutedLook}`}>not recorded</span>}
          </td>
          <td className={`py-1.5 font-mono text-xs ${mutedLook}`} title={layer.digest}>
            {layer.digest.replace(/^sha256:/, '').slice(0, 12)}
          </td>
        </tr>
      ))}
    </Table>
  );
}
