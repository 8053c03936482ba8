/** How a chart's lines look, apart from the chart itself so that pages can build lines without drawing. */

/** Stroke, area and legend colours that read on white and on the dark theme's slate. */
export const colors = {
  teal: {
    stroke: 'stroke-teal-600 dark:stroke-teal-400',
    area: 'fill-teal-600/15 dark:fill-teal-400/20',
    swatch: 'border-teal-600 dark:border-teal-400',
    dot: 'fill-teal-600 dark:fill-teal-400',
  },
  sky: {
    stroke: 'stroke-sky-600 dark:stroke-sky-400',
    area: 'fill-sky-600/15 dark:fill-sky-400/20',
    swatch: 'border-sky-600 dark:border-sky-400',
    dot: 'fill-sky-600 dark:fill-sky-400',
  },
  violet: {
    stroke: 'stroke-violet-600 dark:stroke-violet-400',
    area: 'fill-violet-600/15 dark:fill-violet-400/20',
    swatch: 'border-violet-600 dark:border-violet-400',
    dot: 'fill-violet-600 dark:fill-violet-400',
  },
  pink: {
    stroke: 'stroke-pink-600 dark:stroke-pink-400',
    area: 'fill-pink-600/15 dark:fill-pink-400/20',
    swatch: 'border-pink-600 dark:border-pink-400',
    dot: 'fill-pink-600 dark:fill-pink-400',
  },
  lime: {
    stroke: 'stroke-lime-700 dark:stroke-lime-400',
    area: 'fill-lime-700/15 dark:fill-lime-400/20',
    swatch: 'border-lime-700 dark:border-lime-400',
    dot: 'fill-lime-700 dark:fill-lime-400',
  },
  indigo: {
    stroke: 'stroke-indigo-600 dark:stroke-indigo-400',
    area: 'fill-indigo-600/15 dark:fill-indigo-400/20',
    swatch: 'border-indigo-600 dark:border-indigo-400',
    dot: 'fill-indigo-600 dark:fill-indigo-400',
  },
  orange: {
    stroke: 'stroke-orange-600 dark:stroke-orange-400',
    area: 'fill-orange-600/15 dark:fill-orange-400/20',
    swatch: 'border-orange-600 dark:border-orange-400',
    dot: 'fill-orange-600 dark:fill-orange-400',
  },
  amber: {
    stroke: 'stroke-amber-600 dark:stroke-amber-400',
    area: 'fill-amber-600/15 dark:fill-amber-400/20',
    swatch: 'border-amber-600 dark:border-amber-400',
    dot: 'fill-amber-600 dark:fill-amber-400',
  },
  red: {
    stroke: 'stroke-red-600 dark:stroke-red-400',
    area: 'fill-red-600/15 dark:fill-red-400/20',
    swatch: 'border-red-600 dark:border-red-400',
    dot: 'fill-red-600 dark:fill-red-400',
  },
  slate: {
    stroke: 'stroke-slate-500 dark:stroke-slate-400',
    area: 'fill-slate-500/15 dark:fill-slate-400/20',
    swatch: 'border-slate-500 dark:border-slate-400',
    dot: 'fill-slate-500 dark:fill-slate-400',
  },
} as const;
export type ChartColor = keyof typeof colors;
/** Colours for lines of one kind (pods, namespaces), in the order they are handed out. */
export const seriesColors: ChartColor[] = ['teal', 'sky', 'violet', 'pink', 'lime', 'indigo', 'orange'];

export interface ChartLine {
  key: string;
  label: string;
  /** `[Unix seconds, value]`; null where the store had no number. */
  points: readonly (readonly [number, number | null])[];
  color: ChartColor;
  /** Thresholds (requests, limits, capacity) are dashed; measured values solid. */
  dashed?: boolean;
  /** Shade the area under the line (the one line the chart is about). */
  area?: boolean;
}
