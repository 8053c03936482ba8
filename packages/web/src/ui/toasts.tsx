import { useSyncExternalStore } from 'react';
import { ApiError } from '../api/client.ts';

export interface Toast {
  id: number;
  title: string;
  message: string;
  code?: string;
}

let toasts: Toast[] = [];
let next = 0;
const listeners = new Set<() => void>();
const changed = () => {
  for (const listener of listeners) listener();
};

/** How long a toast stays unless closed; errors stay long enough to be read and copied. */
const shownMs = 10_000;

export function dismissToast(id: number): void {
  toasts = toasts.filter((t) => t.id !== id);
  changed();
}

/** Shows a failure in words: the agent's `{error, code}` message, or what the browser said. */
export function toastError(title: string, error: unknown): void {
  const id = ++next;
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof ApiError ? error.code : undefined;
  // The same failure twice in a row (a refetch every few seconds) is shown once.
  if (toasts.some((t) => t.title === title && t.message === message)) return;
  toasts = [...toasts.slice(-3), { id, title, message, code }];
  changed();
  setTimeout(() => dismissToast(id), shownMs);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The toasts in a corner, announced to screen readers as they come. */
export function Toaster() {
  const shown = useSyncExternalStore(subscribe, () => toasts);
  return (
    <section
      aria-label="Notifications"
      aria-live="assertive"
      className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-96 flex-col gap-2"
    >
      {shown.map((t) => (
        <div
          key={t.id}
          role="alert"
          className="pointer-events-auto rounded-lg border border-red-300 bg-white p-3 text-sm shadow-lg dark:border-red-800 dark:bg-slate-900"
        >
          <div className="flex items-start justify-between gap-2">
            <p className="font-medium text-red-900 dark:text-red-200">{t.title}</p>
            <button
              type="button"
              aria-label="Dismiss"
              className="text-slate-600 hover:text-slate-900 dark:text-slate-400"
              onClick={() => dismissToast(t.id)}
            >
              ×
            </button>
          </div>
          <p className="mt-1 break-words">{t.message}</p>
          {t.code && (
            <p className="mt-1 font-mono text-xs text-slate-600 dark:text-slate-400">code: {t.code}</p>
          )}
        </div>
      ))}
    </section>
  );
}
