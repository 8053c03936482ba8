import { hubModule } from '../../context.ts';
import { fleetRoutes } from './routes.ts';

export const fleetModule = hubModule({
  name: 'fleet',
  needs: ['accessCache', 'clock', 'database', 'fleetLimit', 'log', 'replicas', 'tunnels'],
  register: fleetRoutes,
});
