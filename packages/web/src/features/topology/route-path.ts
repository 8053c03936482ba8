import type { Point } from './layout.ts';

/** Corners of a routed edge are rounded off this far (less where a segment is shorter). */
const radius = 10;

const toward = (from: Point, to: Point, distance: number): Point => {
  const length = Math.hypot(to.x - from.x, to.y - from.y) || 1;
  return {
    x: from.x + ((to.x - from.x) * distance) / length,
    y: from.y + ((to.y - from.y) * distance) / length,
  };
};

/** An SVG path through the points, its corners rounded: the way ELK routed an edge around the boxes. */
export function roundedPath(points: readonly Point[]): string {
  const [first, ...rest] = points;
  if (!first) return '';
  let path = `M ${first.x} ${first.y}`;
  for (let i = 0; i < rest.length; i += 1) {
    const corner = rest[i] as Point;
    const before = (i === 0 ? first : rest[i - 1]) as Point;
    const after = rest[i + 1];
    if (!after) {
      path += ` L ${corner.x} ${corner.y}`;
      continue;
    }
    const r = Math.min(
      radius,
      Math.hypot(corner.x - before.x, corner.y - before.y) / 2,
      Math.hypot(after.x - corner.x, after.y - corner.y) / 2,
    );
    const into = toward(corner, before, r);
    const out = toward(corner, after, r);
    path += ` L ${into.x} ${into.y} Q ${corner.x} ${corner.y} ${out.x} ${out.y}`;
  }
  return path;
}

/** Halfway along the route: where a label goes when the layout kept no room for one. */
export function midpoint(points: readonly Point[]): Point {
  const lengths = points
    .slice(1)
    .map((p, i) => Math.hypot(p.x - (points[i] as Point).x, p.y - (points[i] as Point).y));
  let left = lengths.reduce((a, b) => a + b, 0) / 2;
  for (const [i, length] of lengths.entries()) {
    if (left <= length) return toward(points[i] as Point, points[i + 1] as Point, left);
    left -= length;
  }
  return points[0] ?? { x: 0, y: 0 };
}
