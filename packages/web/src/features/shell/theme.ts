export type Theme = 'light' | 'dark' | 'system';
const key = 'binnacle.theme';

export function storedTheme(): Theme {
  const value = localStorage.getItem(key);
  return value === 'light' || value === 'dark' ? value : 'system';
}

/** Sets the `dark` class the styles key on; `system` follows the OS setting. */
export function applyTheme(theme: Theme): void {
  const dark = theme === 'dark' || (theme === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.classList.toggle('dark', dark);
  if (theme === 'system') localStorage.removeItem(key);
  else localStorage.setItem(key, theme);
}
