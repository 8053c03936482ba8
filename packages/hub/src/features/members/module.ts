import { hubModule } from '../../context.ts';
import { memberRoutes } from './routes.ts';

export const membersModule = hubModule({
  name: 'members',
  needs: ['audit', 'database', 'sessions'],
  register: memberRoutes,
});
