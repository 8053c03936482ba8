import { hubModule } from '../../context.ts';
import { compareRoutes } from './routes.ts';

/** Two objects of a kind across the organisation's clusters (docs/compare.md). */
export const compareModule = hubModule({
  name: 'compare',
  needs: ['accessCache', 'clock', 'database', 'log', 'replicas', 'tunnels'],
  register: compareRoutes,
});
