import { hubModule } from '../../context.ts';
import { metricsRoutes } from './routes.ts';

export const metricsModule = hubModule({
  name: 'metrics',
  needs: ['metrics'],
  register: metricsRoutes,
});
