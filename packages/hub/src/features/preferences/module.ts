import { hubModule } from '../../context.ts';
import { preferenceRoutes } from './routes.ts';

export const preferencesModule = hubModule({
  name: 'preferences',
  needs: ['clock', 'database'],
  register: preferenceRoutes,
});
