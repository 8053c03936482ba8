import { age } from '../../ui/states.tsx';

/** How long ago a timestamp was, as kubectl prints ages (`45s`, `12m`, `3h`, `5d`). */
export const since = (at: string, now = Date.now()) => age((now - Date.parse(at)) / 1000);
