import { useQueryClient } from '@tanstack/react-query';
import { type ErrorComponentProps, Link, useRouter } from '@tanstack/react-router';

/**
 * A page that failed to render (or to load its route): the error in place of the page, the shell and its
 * navigation around it untouched. Retry drops the data of the pages no longer shown — the failed page's, which may
 * be what broke it — and renders the page again, so it asks the agent afresh (ADR 0075).
 */
export function PageError({ error, reset }: ErrorComponentProps) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const retry = () => {
    void queryClient.resetQueries({ type: 'inactive' });
    reset();
    void router.invalidate();
  };
  return (
    <div
      role="alert"
      className="mx-auto max-w-xl rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      <h1 className="font-medium">This page failed to show</h1>
      <p className="mt-1 break-words">{error instanceof Error ? error.message : String(error)}</p>
      <div className="mt-3 flex items-center gap-4">
        <button
          type="button"
          onClick={retry}
          className="rounded-md bg-red-800 px-3 py-1 font-medium text-white hover:bg-red-900 dark:bg-red-700"
        >
          Retry
        </button>
        <Link to="/" className="font-medium text-red-900 underline dark:text-red-100">
          Go home
        </Link>
      </div>
    </div>
  );
}
