import type { Impersonation } from '../../kube/client.ts';
import { starAs } from './github.ts';
import type { RepohostContext } from './module.ts';
import type { Decision, StarPromptState } from './state.ts';

/** The project the prompt asks people to star. */
export const projectRepository = 'binnacle-dev/binnacle';

export interface StarPrompt {
  repository: string;
  url: string;
  starred: boolean;
  dismissed: boolean;
  /** Whether the UI should still ask: neither starred nor dismissed. */
  prompt: boolean;
}

/** Whose answer it is: the signed-in or tunneled person, or the one person of a laptop agent. */
const personOf = (caller: Impersonation | undefined) => caller?.user ?? 'local';

const view = (decision: Decision): StarPrompt => ({
  repository: projectRepository,
  url: `https://github.com/${projectRepository}`,
  starred: Boolean(decision.starredAt),
  dismissed: Boolean(decision.dismissedAt),
  prompt: !decision.starredAt && !decision.dismissedAt,
});

export const starPrompt = async (state: StarPromptState, caller: Impersonation | undefined) =>
  view(await state.of(personOf(caller)));

export async function star(
  ctx: RepohostContext,
  state: StarPromptState,
  caller: Impersonation | undefined,
  token: string,
): Promise<StarPrompt> {
  await starAs(ctx.config.repohostApiUrl, projectRepository, token);
  return view(await state.record(personOf(caller), { starredAt: new Date().toISOString() }));
}

export const dismiss = async (state: StarPromptState, caller: Impersonation | undefined) =>
  view(await state.record(personOf(caller), { dismissedAt: new Date().toISOString() }));
