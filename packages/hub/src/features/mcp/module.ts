import { hubModule } from '../../context.ts';
import { mcpRoutes } from './routes.ts';

export const mcpModule = hubModule({
  name: 'mcp',
  needs: [
    'accessCache',
    'clock',
    'config',
    'database',
    'fleetLimit',
    'log',
    'oidc',
    'replicas',
    'tunnels',
    'version',
  ],
  register: mcpRoutes,
});
