import { hubModule } from '../../context.ts';
import { patRoutes } from './routes.ts';

export const patsModule = hubModule({
  name: 'pats',
  needs: ['audit', 'clock', 'database'],
  register: patRoutes,
});
