import { type ContextOf, defineAgentModule, routesOnly } from '../../module.ts';
import { imageRoutes } from './routes.ts';

const needs = ['cluster', 'config'] as const;
/** What the images feature reads of the agent. */
export type ImagesContext = ContextOf<typeof needs>;

export const imagesModule = defineAgentModule({
  name: 'images',
  needs,
  register: routesOnly(imageRoutes),
});
