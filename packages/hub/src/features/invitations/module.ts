import { hubModule } from '../../context.ts';
import { invitationRoutes } from './routes.ts';

export const invitationsModule = hubModule({
  name: 'invitations',
  needs: ['audit', 'billing', 'clock', 'database', 'hosted', 'oidc', 'sessions'],
  register: invitationRoutes,
});
