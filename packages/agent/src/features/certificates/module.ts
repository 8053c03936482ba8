import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { certificateRoutes } from './routes.ts';

const needs = ['access', 'cluster'] as const;
/** What the certificates feature reads of the agent. */
export type CertificatesContext = ContextOf<typeof needs>;

export const certificatesModule = defineAgentModule({
  name: 'certificates',
  needs,
  register: routesOnly(certificateRoutes),
});
