import { hubModule } from '../../context.ts';
import { oidcRoutes } from './oidc-routes.ts';
import { authRoutes } from './routes.ts';

export const authModule = hubModule({
  name: 'auth',
  needs: [
    'audit',
    'breakGlass',
    'clock',
    'config',
    'database',
    'log',
    'metrics',
    'oidc',
    'sessions',
    'warnOnce',
  ],
  register(app, deps) {
    authRoutes(app, deps);
    oidcRoutes(app, deps);
  },
});
