import { hubModule } from '../../context.ts';
import { auditRoutes } from './routes.ts';

export const auditModule = hubModule({
  name: 'audit',
  needs: ['audit'],
  register: auditRoutes,
});
