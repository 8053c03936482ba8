import { hubModule } from '../../context.ts';
import { healthRoutes } from './routes.ts';

export const healthModule = hubModule({
  name: 'health',
  needs: ['breakGlass', 'database', 'hosted', 'oidc', 'version'],
  register: healthRoutes,
});
