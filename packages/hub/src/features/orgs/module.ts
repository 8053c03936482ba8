import { hubModule } from '../../context.ts';
import { orgRoutes } from './routes.ts';

export const orgsModule = hubModule({
  name: 'orgs',
  needs: ['audit', 'clock', 'database'],
  register: orgRoutes,
});
