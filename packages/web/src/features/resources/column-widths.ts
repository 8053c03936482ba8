import { useState } from 'react';

const storageKey = (kind: string) => `binnacle.table-widths.${kind}`;

function read(kind: string): Record<string, number> {
  try {
    const parsed = JSON.parse(localStorage.getItem(storageKey(kind)) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, number>) : {};
  } catch {
    return {};
  }
}

/** Column widths a person dragged, remembered per kind in localStorage (a broken entry is forgotten). */
export function useColumnWidths(
  kind: string,
): [Record<string, number>, (column: string, width: number) => void] {
  const [state, setState] = useState(() => ({ kind, widths: read(kind) }));
  const widths = state.kind === kind ? state.widths : read(kind);
  const set = (column: string, width: number) => {
    const next = { ...widths, [column]: width };
    setState({ kind, widths: next });
    try {
      localStorage.setItem(storageKey(kind), JSON.stringify(next));
    } catch {
      // Storage full or refused (private mode): the width holds for this page only.
    }
  };
  return [widths, set];
}
