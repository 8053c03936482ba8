/** The parts of an OCI image config a person reads (the image-spec's field names; Docker writes the same). */
export interface ImageConfig {
  created?: string;
  author?: string;
  entrypoint?: string[];
  cmd?: string[];
  env: string[];
  user?: string;
  workingDir?: string;
  labels: [string, string][];
  exposedPorts: string[];
  stopSignal?: string;
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
const texts = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** The config document the agent answers, read defensively: a registry may hold any JSON there. */
export function imageConfig(document: Record<string, unknown>): ImageConfig {
  const config = record(document.config);
  return {
    created: text(document.created),
    author: text(document.author),
    entrypoint: texts(config.Entrypoint),
    cmd: texts(config.Cmd),
    env: texts(config.Env) ?? [],
    user: text(config.User),
    workingDir: text(config.WorkingDir),
    labels: Object.entries(record(config.Labels))
      .map(([k, v]): [string, string] => [k, String(v)])
      .sort(([a], [b]) => a.localeCompare(b)),
    exposedPorts: Object.keys(record(config.ExposedPorts)).sort(),
    stopSignal: text(config.StopSignal),
  };
}

/**
 * The command that made each layer, by layer index: the config's history has an entry per build step, and
 * those marked `empty_layer` (ENV, LABEL…) made none, so the others line up with the layers in order.
 * Undefined where the history is missing or shorter than the layers.
 */
export function layerCommands(document: Record<string, unknown>, layers: number): (string | undefined)[] {
  const history = Array.isArray(document.history) ? document.history.map(record) : [];
  const made = history.filter((step) => step.empty_layer !== true);
  return Array.from({ length: layers }, (_, i) => {
    const step = made[i];
    const command = text(step?.created_by) ?? text(step?.comment);
    // Docker's legacy builder prefixes every step with the shell it ran in; the step is what people wrote.
    return command?.replace(/^\/bin\/sh -c (#\(nop\)\s*)?/, '').trim();
  });
}

/** A command line as a shell would need it typed: words with spaces or quotes quoted. */
export function commandWords(words: string[]): string {
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`)).join(' ');
}
