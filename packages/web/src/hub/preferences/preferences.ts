import { useQuery } from '@tanstack/react-query';
import { hub } from '../api.ts';

export const preferencesQuery = {
  queryKey: ['preferences'],
  queryFn: ({ signal }: { signal: AbortSignal }) => hub.get('/api/preferences', { signal }),
};

/** Your preferences as the hub keeps them (the same in every browser you sign in from). */
export const usePreferences = ({ enabled = true } = {}) => useQuery({ ...preferencesQuery, enabled });

/** A timestamp as you asked to read them: in your browser's time zone, or in UTC (`2026-11-25 12:02:32`). */
export function formatTime(at: string, timeZone: 'local' | 'utc' = 'local'): string {
  const date = new Date(at);
  if (timeZone === 'utc') return `${date.toISOString().replace('T', ' ').slice(0, 19)} UTC`;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
