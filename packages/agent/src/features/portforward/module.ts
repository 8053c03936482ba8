import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { portForwardRoutes } from './routes.ts';

const needs = ['cluster', 'connection', 'log', 'mode', 'sessions'] as const;
/** What the portforward feature reads of the agent. */
export type PortforwardContext = ContextOf<typeof needs>;

export const portforwardModule = defineAgentModule({
  name: 'portforward',
  needs,
  register: routesOnly(portForwardRoutes),
});
