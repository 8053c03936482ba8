import { useState } from 'react';
import { applyTheme, storedTheme, type Theme } from './theme.ts';

const next: Record<Theme, Theme> = { system: 'light', light: 'dark', dark: 'system' };
const label: Record<Theme, string> = { system: 'Theme: system', light: 'Theme: light', dark: 'Theme: dark' };

export function ThemeToggle() {
  const [theme, setTheme] = useState(storedTheme);
  return (
    <button
      type="button"
      className="rounded-md border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
      onClick={() => {
        const chosen = next[theme];
        applyTheme(chosen);
        setTheme(chosen);
      }}
    >
      {label[theme]}
    </button>
  );
}
