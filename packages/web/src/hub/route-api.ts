import { type RouteIds, useParams, useSearch } from '@tanstack/react-router';
import type { hubRouter } from './router.tsx';

type HubRouter = typeof hubRouter;
type HubRouteId = RouteIds<HubRouter['routeTree']>;

// The app registers the agent's router with TanStack Router, so the hub's pages name their own router's types
// here: the search and path parameters of a hub route, as its validateSearch and path declare them.

/** The search parameters of the hub route `from`, which the calling page is. */
export const useHubSearch = <const Id extends HubRouteId>(from: Id) => useSearch<HubRouter, Id>({ from });

/** The path parameters of the hub route `from`, which the calling page is. */
export const useHubParams = <const Id extends HubRouteId>(from: Id) => useParams<HubRouter, Id>({ from });
