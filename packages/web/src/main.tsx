import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError } from './api/client.ts';
import { uiMode } from './app/mode.ts';
import { router } from './app/router.tsx';
import { applyTheme, storedTheme } from './features/shell/theme.ts';
import { toastError } from './ui/toasts.tsx';
import './styles.css';

applyTheme(storedTheme());

const queryClient = new QueryClient({
  // Every failed change is a toast with the agent's words, besides whatever its own card says. A failed read is
  // shown in place by its page; a toast only when a refresh fails while the page still shows older data.
  mutationCache: new MutationCache({
    onError: (error) => toastError('The change did not go through', error),
  }),
  queryCache: new QueryCache({
    onError: (error, query) => {
      // A page that says so itself when its object is gone (a deleted object's page) needs no toast for it.
      const gone = error instanceof ApiError && error.code === 'not_found' && query.meta?.showsNotFound;
      if (query.state.data !== undefined && !gone) toastError('Could not refresh what is shown', error);
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 5_000,
      // A 4xx will not change by asking again; a 503 (still loading, cluster unreachable) may.
      retry: (count, error) => count < 3 && !(error instanceof ApiError && error.status < 500),
    },
  },
});

// The hub's own pages load only in hub mode: an agent's first page does not carry them (ADR 0058).
const HubRouter = lazy(() =>
  import('./hub/router.tsx').then((m) => ({ default: () => <RouterProvider router={m.hubRouter} /> })),
);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        {uiMode === 'hub' ? (
          <Suspense fallback={null}>
            <HubRouter />
          </Suspense>
        ) : (
          <RouterProvider router={router} />
        )}
      </QueryClientProvider>
    </StrictMode>,
  );
}
