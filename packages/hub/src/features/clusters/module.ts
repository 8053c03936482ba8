import { hubModule } from '../../context.ts';
import { clusterRoutes } from './routes.ts';

export const clustersModule = hubModule({
  name: 'clusters',
  needs: ['accessCache', 'audit', 'billing', 'clock', 'config', 'database', 'log', 'replicas', 'tunnels'],
  register: clusterRoutes,
});
