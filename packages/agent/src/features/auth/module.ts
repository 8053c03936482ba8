import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { authRoutes } from './routes.ts';

const needs = ['auth'] as const;
/** What the auth feature reads of the agent. */
export type AuthContext = ContextOf<typeof needs>;

export const authModule = defineAgentModule({
  name: 'auth',
  needs,
  register: routesOnly(authRoutes),
});
