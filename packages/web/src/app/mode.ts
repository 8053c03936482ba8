/**
 * Which face of the app this page shows. The server names it in index.html (`<meta name="binnacle-ui">`): an
 * agent's cluster pages (also through the hub at `/c/<cluster_id>/`), or the hub's own organisation pages.
 */
export const uiMode: 'agent' | 'hub' =
  document.querySelector('meta[name="binnacle-ui"]')?.getAttribute('content') === 'hub' ? 'hub' : 'agent';
