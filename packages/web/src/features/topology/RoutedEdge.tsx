import { BaseEdge, type Edge, type EdgeProps } from '@xyflow/react';
import type { Route } from './layout.ts';
import { midpoint, roundedPath } from './route-path.ts';

export type RoutedData = { route: Route };

/** An edge drawn along the route the layout found, its label in the room the layout kept for it. */
export function RoutedEdge(props: EdgeProps<Edge<RoutedData>>) {
  const route = props.data?.route;
  const points = route?.points ?? [
    { x: props.sourceX, y: props.sourceY },
    { x: props.targetX, y: props.targetY },
  ];
  const at = route?.label ?? midpoint(points);
  return (
    <BaseEdge
      path={roundedPath(points)}
      markerEnd={props.markerEnd}
      style={props.style}
      label={props.label}
      labelX={at.x}
      labelY={at.y}
      labelStyle={props.labelStyle}
      labelShowBg={props.labelShowBg}
      labelBgStyle={props.labelBgStyle}
      labelBgPadding={props.labelBgPadding}
      labelBgBorderRadius={props.labelBgBorderRadius}
      interactionWidth={props.interactionWidth}
    />
  );
}
