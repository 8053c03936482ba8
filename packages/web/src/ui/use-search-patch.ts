import { useNavigate } from '@tanstack/react-router';

/**
 * How a page's filters, tabs and switches change its URL: the search parameters given replace theirs, the others
 * stay. The history entry is replaced, not added to, so Back leaves the page instead of undoing one filter at a time.
 */
export function useSearchPatch<Search extends object>(): (patch: Search) => void {
  const navigate = useNavigate();
  return (patch) => void navigate({ to: '.', search: (prev) => ({ ...prev, ...patch }), replace: true });
}
