import { type KeyboardEvent, type PointerEvent, useCallback, useState } from 'react';
import { type ChartLine, colors } from './chart-colors.ts';
import { formatMoment, timeTicks, valueTicks } from './chart-scale.ts';
import { Empty } from './states.tsx';
import { formatValue, type Unit } from './units.ts';

type Point = [x: number, y: number];

/** SVG path data for the runs of points, broken where a value is missing or samples are more than a step apart. */
function runs(points: ChartLine['points'], stepSeconds: number, at: (t: number, v: number) => Point) {
  const out: Point[][] = [];
  let run: Point[] = [];
  let previous = Number.NEGATIVE_INFINITY;
  for (const [t, v] of points) {
    if (v === null || t - previous > stepSeconds * 1.5) {
      if (run.length) out.push(run);
      run = [];
    }
    if (v !== null) run.push(at(t, v));
    previous = t;
  }
  if (run.length) out.push(run);
  return out;
}
const line = (run: Point[]) =>
  run.map(([x, y], i) => `${i ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)}`).join('');

/**
 * The chart's width follows its box (the SVG is drawn in pixels, so text never stretches). A callback ref, so the
 * box is watched whenever it appears — a chart that first had no samples has none at the start.
 */
function useWidth() {
  const [width, setWidth] = useState(0);
  const ref = useCallback((element: HTMLDivElement | null) => {
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

const latest = (l: ChartLine) => l.points.findLast(([, v]) => v !== null)?.[1] ?? undefined;
const peak = (l: ChartLine) =>
  l.points.reduce<number | undefined>(
    (m, [, v]) => (v === null || (m !== undefined && m >= v) ? m : v),
    undefined,
  );

/**
 * A time-series line chart in SVG: a value axis with round ticks in the unit, a time axis on the local clock,
 * and a legend giving each line's latest and peak value in words. Hovering — or focusing the chart and using
 * ←/→ — shows every line's value at that moment.
 */
export function TimeSeriesChart(props: {
  /** What the chart shows: its accessible name and its caption. */
  label: string;
  unit: Unit;
  lines: ChartLine[];
  stepSeconds: number;
  /** The window asked for, in Unix seconds; the samples' own span when not given. */
  from?: number;
  to?: number;
  height?: number;
}) {
  const { unit, lines, stepSeconds } = props;
  const [box, width] = useWidth();
  const [cursor, setCursor] = useState<number>();
  const times = [...new Set(lines.flatMap((l) => l.points.map(([t]) => t)))].sort((a, b) => a - b);
  const height = props.height ?? 220;
  if (times.length === 0)
    return (
      <figure aria-label={props.label}>
        <Empty>No samples for {props.label.toLowerCase()} in this window.</Empty>
      </figure>
    );

  const from = props.from ?? (times[0] as number);
  const to = props.to ?? (times.at(-1) as number);
  const max = Math.max(0, ...lines.flatMap((l) => l.points.map(([, v]) => v ?? 0)));
  const yTicks = valueTicks(unit, max);
  const top = yTicks.at(-1)?.value ?? 1;
  // Room for the longest value label at 12px (about 7px a character) on the left.
  const left = 12 + 7 * Math.max(...yTicks.map((t) => t.label.length));
  const [right, above, below] = [16, 10, 26];
  const plotWidth = Math.max(1, width - left - right);
  const plotHeight = height - above - below;
  const x = (t: number) => left + ((t - from) / Math.max(1, to - from)) * plotWidth;
  const y = (v: number) => above + plotHeight - (v / top) * plotHeight;
  const xTicks = timeTicks(from * 1000, to * 1000, plotWidth);

  const at = cursor === undefined ? undefined : times[cursor];
  const valueOfAt = (l: ChartLine, time: number | undefined) =>
    time === undefined ? undefined : l.points.find(([t]) => t === time)?.[1];
  const valueAt = (l: ChartLine) => valueOfAt(l, at);
  const readout = (time: number) =>
    `${formatMoment(time * 1000)}: ${lines
      .map((l) => {
        const v = valueOfAt(l, time);
        return `${l.label} ${v === undefined || v === null ? 'no sample' : formatValue(unit, v)}`;
      })
      .join(', ')}`;
  const nearest = (event: PointerEvent<SVGRectElement>) => {
    const bounds = event.currentTarget.getBoundingClientRect();
    const t = from + ((event.clientX - bounds.left) / bounds.width) * (to - from);
    let best = 0;
    times.forEach((time, i) => {
      if (Math.abs(time - t) < Math.abs((times[best] as number) - t)) best = i;
    });
    setCursor(best);
  };
  const onKey = (event: KeyboardEvent) => {
    const last = times.length - 1;
    const next = {
      ArrowLeft: Math.max(0, (cursor ?? last + 1) - 1),
      ArrowRight: Math.min(last, (cursor ?? -1) + 1),
      Home: 0,
      End: last,
    }[event.key];
    if (event.key === 'Escape') setCursor(undefined);
    if (next === undefined) return;
    event.preventDefault();
    setCursor(next);
  };

  return (
    <figure aria-label={props.label} className="flex flex-col gap-2">
      {/* A slider over the samples: ←/→ move the readout, and a screen reader hears its values at each moment. */}
      <div
        ref={box}
        tabIndex={0}
        role="slider"
        aria-label={`${props.label}, moment to read`}
        aria-valuemin={0}
        aria-valuemax={times.length - 1}
        aria-valuenow={cursor ?? times.length - 1}
        aria-valuetext={readout(times[cursor ?? times.length - 1] as number)}
        aria-orientation="horizontal"
        onKeyDown={onKey}
        onBlur={() => setCursor(undefined)}
        className="relative rounded focus-visible:outline-2 focus-visible:outline-teal-600"
        style={{ height }}
      >
        {width > 0 && (
          <svg width={width} height={height} aria-hidden="true" className="block text-xs">
            {yTicks.map((tick) => (
              <g key={tick.value}>
                <line
                  x1={left}
                  x2={left + plotWidth}
                  y1={y(tick.value)}
                  y2={y(tick.value)}
                  className="stroke-slate-200 dark:stroke-slate-800"
                />
                <text
                  x={left - 8}
                  y={y(tick.value)}
                  dy="0.32em"
                  textAnchor="end"
                  className="fill-slate-600 dark:fill-slate-400"
                >
                  {tick.label}
                </text>
              </g>
            ))}
            {xTicks.map((tick) => (
              <g key={tick.value}>
                <line
                  x1={x(tick.value / 1000)}
                  x2={x(tick.value / 1000)}
                  y1={above + plotHeight}
                  y2={above + plotHeight + 4}
                  className="stroke-slate-400 dark:stroke-slate-600"
                />
                <text
                  x={x(tick.value / 1000)}
                  y={height - 6}
                  textAnchor="middle"
                  className="fill-slate-600 dark:fill-slate-400"
                >
                  {tick.label}
                </text>
              </g>
            ))}
            {lines.map((l) =>
              runs(l.points, stepSeconds, (t, v) => [x(t), y(v)]).map((run) => (
                <g key={`${l.key}-${run[0]?.[0]}`}>
                  {l.area && run.length > 1 && (
                    <path
                      d={`${line(run)}L${run.at(-1)?.[0]},${y(0)}L${run[0]?.[0]},${y(0)}Z`}
                      className={colors[l.color].area}
                    />
                  )}
                  <path
                    d={run.length > 1 ? line(run) : `M${run[0]?.[0]},${run[0]?.[1]}h1`}
                    fill="none"
                    strokeWidth={l.area ? 2 : 1.5}
                    strokeDasharray={l.dashed ? '6 4' : undefined}
                    strokeLinejoin="round"
                    className={colors[l.color].stroke}
                  />
                </g>
              )),
            )}
            {at !== undefined && (
              <g>
                <line
                  x1={x(at)}
                  x2={x(at)}
                  y1={above}
                  y2={above + plotHeight}
                  className="stroke-slate-400 dark:stroke-slate-500"
                />
                {lines.map((l) => {
                  const v = valueAt(l);
                  return v === undefined || v === null ? null : (
                    <circle key={l.key} cx={x(at)} cy={y(v)} r={3} className={colors[l.color].dot} />
                  );
                })}
              </g>
            )}
            <rect
              x={left}
              y={above}
              width={plotWidth}
              height={plotHeight}
              fill="transparent"
              onPointerMove={nearest}
              onPointerLeave={() => setCursor(undefined)}
            />
          </svg>
        )}
        {at !== undefined && (
          <div
            className="pointer-events-none absolute top-2 z-10 min-w-40 rounded-md border border-slate-200 bg-white/95 px-3 py-2 text-xs shadow-md dark:border-slate-700 dark:bg-slate-900/95"
            // In the top corner away from the cursor: it never hides the moment read, nor the value axis.
            style={x(at) > left + plotWidth / 2 ? { left: left + 8 } : { right: right + 8 }}
          >
            <p className="mb-1 font-medium">{formatMoment(at * 1000)}</p>
            <ul aria-label="Values at this moment">
              {lines.map((l) => {
                const v = valueAt(l);
                return (
                  <li key={l.key} className="flex items-center gap-2">
                    <Swatch line={l} />
                    <span className="mr-auto">{l.label}</span>
                    <span className="tabular-nums">
                      {v === undefined || v === null ? '—' : formatValue(unit, v)}
                    </span>
                  </li>
                );
              })}
            </ul>
          </div>
        )}
      </div>
      <figcaption>
        {/* A few lines side by side; more (a workload's pods) one under another, where long names stay readable. */}
        <ul
          aria-label={`${props.label} legend`}
          className={`text-xs ${lines.length > 4 ? 'flex flex-col gap-0.5' : 'flex flex-wrap gap-x-5 gap-y-1'}`}
        >
          {lines.map((l) => {
            const [last, high] = [latest(l), peak(l)].map((v) =>
              v === undefined ? v : formatValue(unit, v),
            );
            return (
              <li key={l.key} className="flex items-center gap-1.5">
                <Swatch line={l} />
                <span className="font-medium">{l.label}</span>
                <span className="text-slate-600 dark:text-slate-400">
                  {last === undefined ? 'no samples' : `latest ${last}`}
                  {high !== undefined && high !== last ? ` · peak ${high}` : ''}
                </span>
              </li>
            );
          })}
        </ul>
      </figcaption>
    </figure>
  );
}

/** A short stroke in the line's colour, dashed like the line. */
function Swatch({ line: l }: { line: ChartLine }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-block w-4 border-t-2 ${l.dashed ? 'border-dashed' : ''} ${colors[l.color].swatch}`}
    />
  );
}
