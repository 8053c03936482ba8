export interface CountTile {
  id: string;
  label: string;
  /** A count, or a figure already written in its unit (`$1.20`). */
  value: number | string;
  /** The tile's left border colour: `border-l-red-500`. */
  accent: string;
  /** A line under the number: what it counts. */
  hint?: string;
}

// Top-aligned (a button centres its content), so the numbers of a row line up whatever the hints' lengths. The
// dark theme colours the other three edges only, or it would paint over the accent on the left.
const tileLook =
  'flex flex-col justify-start rounded-lg border border-l-4 border-slate-200 bg-white px-4 py-3 text-left shadow-sm dark:border-y-slate-800 dark:border-r-slate-800 dark:bg-slate-900';

/**
 * A row of counts, each a tile with a coloured edge. With `choose`, a tile is a toggle that filters the page to
 * what it counts (pressed while chosen; pressing it again shows everything).
 */
export function CountTiles(props: {
  label: string;
  tiles: CountTile[];
  chosen?: string;
  choose?: (id?: string) => void;
}) {
  const { choose, chosen } = props;
  return (
    <section aria-label={props.label} className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
      {props.tiles.map((tile) => {
        const body = (
          <>
            <span className="block text-sm text-slate-600 dark:text-slate-400">{tile.label}</span>
            <span className="mt-1 block text-2xl font-semibold tabular-nums">{tile.value}</span>
            {tile.hint && (
              <span className="block text-xs text-slate-600 dark:text-slate-400">{tile.hint}</span>
            )}
          </>
        );
        if (!choose) {
          return (
            <div key={tile.id} className={`${tileLook} ${tile.accent}`}>
              {body}
            </div>
          );
        }
        const pressed = chosen === tile.id;
        return (
          <button
            key={tile.id}
            type="button"
            aria-pressed={pressed}
            onClick={() => choose(pressed ? undefined : tile.id)}
            className={`${tileLook} ${tile.accent} hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-teal-600 dark:hover:bg-slate-800 ${
              pressed ? 'ring-2 ring-teal-600 dark:ring-teal-400' : ''
            }`}
          >
            {body}
          </button>
        );
      })}
    </section>
  );
}
