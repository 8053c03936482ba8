import { join } from 'node:path';
import { StringRecord } from '@binnacle/common/server';
import { Type } from 'typebox';
import { JsonFile } from '../../config/json-file.ts';

/** People whose answer is kept; beyond it the oldest decisions go (a shared agent behind a large hub). */
const maxPeople = 10_000;

const Decision = Type.Object(
  {
    starredAt: Type.Optional(Type.String({ format: 'date-time' })),
    dismissedAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);

const StateSchema = Type.Object(
  { people: StringRecord({ minLength: 1, maxLength: 512 }, Decision) },
  { additionalProperties: false },
);

export interface Decision {
  starredAt?: string;
  dismissedAt?: string;
}

interface State {
  people: Record<string, Decision>;
}

/** What each person answered to the "star the project" prompt, in `<data-dir>/repohost.json`. */
export class StarPromptState {
  readonly #file: JsonFile<State>;

  constructor(dataDir: string) {
    this.#file = new JsonFile(join(dataDir, 'repohost.json'), StateSchema, () => ({ people: {} }));
  }

  async of(person: string): Promise<Decision> {
    return (await this.#file.read()).people[person] ?? {};
  }

  async record(person: string, decision: Decision): Promise<Decision> {
    const state = await this.#file.update(({ people }) => {
      const { [person]: previous, ...others } = people;
      // Insertion order is age: the person just answered moves to the end, the oldest go first.
      const kept = Object.entries(others).slice(-(maxPeople - 1));
      return { people: { ...Object.fromEntries(kept), [person]: { ...previous, ...decision } } };
    });
    return state.people[person] ?? {};
  }
}
