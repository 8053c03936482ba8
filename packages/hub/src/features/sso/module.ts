import { hubModule } from '../../context.ts';
import { ssoRoutes } from './routes.ts';

export const ssoModule = hubModule({
  name: 'sso',
  needs: ['audit', 'breakGlass', 'config', 'database', 'log', 'outbound'],
  register: ssoRoutes,
});
