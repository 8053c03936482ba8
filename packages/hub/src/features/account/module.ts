import { hubModule } from '../../context.ts';
import { accountRoutes } from './routes.ts';

export const accountModule = hubModule({
  name: 'account',
  needs: ['database', 'sessions'],
  register: accountRoutes,
});
