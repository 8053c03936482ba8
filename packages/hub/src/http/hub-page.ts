import { webPage } from '@binnacle/common/server';

/**
 * The hub's own pages (sign-in, organisation, clusters) at its root: index.html with `<base href="/">` in hub mode,
 * for every page path no route serves, and for a browser opening a cluster the hub cannot reach (ADR 0070).
 */
export const hubPage = webPage(() => '/', 'hub');
