import { hubModule } from '../../context.ts';
import { billingRoutes } from './routes.ts';

export const billingModule = hubModule({
  name: 'billing',
  needs: ['billing'],
  register: billingRoutes,
});
