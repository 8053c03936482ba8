import { type KeyboardEvent, type PointerEvent, useState } from 'react';

const minHeight = 160;
const step = 40;
const maxHeight = () => Math.round(window.innerHeight * 0.8);
const clamp = (height: number) => Math.min(maxHeight(), Math.max(minHeight, Math.round(height)));

/** The dock's height in pixels, a third of the window to start with. */
export function useDockHeight() {
  return useState(() => clamp(window.innerHeight / 3));
}

/**
 * The dock's top edge: dragged with the pointer, or focused and moved with the arrow keys (Home and End for the
 * smallest and largest), as a window splitter is.
 */
export function DockResizer({ height, onHeight }: { height: number; onHeight: (height: number) => void }) {
  const drag = (start: PointerEvent<HTMLDivElement>) => {
    const from = start.clientY;
    const was = height;
    const target = start.currentTarget;
    target.setPointerCapture(start.pointerId);
    const move = (event: globalThis.PointerEvent) => onHeight(clamp(was + from - event.clientY));
    const stop = () => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', stop);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', stop);
  };
  const keys = (event: KeyboardEvent) => {
    const next = {
      ArrowUp: height + step,
      ArrowDown: height - step,
      Home: minHeight,
      End: maxHeight(),
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    onHeight(clamp(next));
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: an <hr> cannot take focus and be dragged; a splitter is a separator.
    <div
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize the dock"
      aria-valuenow={height}
      aria-valuemin={minHeight}
      aria-valuemax={maxHeight()}
      tabIndex={0}
      onPointerDown={drag}
      onKeyDown={keys}
      className="h-1.5 cursor-row-resize bg-slate-200 hover:bg-teal-600 focus:bg-teal-600 focus:outline-none dark:bg-slate-800"
    />
  );
}
