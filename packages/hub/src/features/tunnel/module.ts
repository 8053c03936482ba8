import { hubModule } from '../../context.ts';
import { tunnelRoutes } from './routes.ts';

export const tunnelModule = hubModule({
  name: 'tunnel',
  needs: [
    'accessCache',
    'audit',
    'breakGlass',
    'changes',
    'clock',
    'config',
    'database',
    'hosted',
    'liveStreams',
    'log',
    'metrics',
    'oidc',
    'proxyTrust',
    'refresher',
    'replicas',
    'sessions',
    'tunnels',
  ],
  register: tunnelRoutes,
});
