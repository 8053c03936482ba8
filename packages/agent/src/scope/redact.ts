import type { KubeObject } from '@binnacle/common';
import { parseYamlDocuments, yamlLimits } from '@binnacle/common/server';
import { stringify } from 'yaml';

/** What replaces a value that must not reach a model. */
export const redacted = '[REDACTED]';

/** Names that say their value is a credential: env vars, ConfigMap keys, flags, `key=value` pairs. */
const sensitiveName =
  /(pass(word|wd|phrase)?|pwd|secret|token|api[-_]?key|access[-_]?key|private[-_]?key|credential|auth|session[-_]?key|signing[-_]?key|dsn|connection[-_]?string)/i;

export const isSensitiveName = (name: string) => sensitiveName.test(name);

/**
 * Credentials recognisable by their shape, wherever they appear in a text. Each keeps what says what it was (the
 * key, the scheme) and drops the value.
 */
const shapes: [RegExp, string][] = [
  // PEM private keys, whole blocks.
  [
    /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g,
    `${redacted} private key`,
  ],
  // `Authorization: Bearer …`, `Basic …`.
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${redacted}`],
  // Credentials in URLs: scheme://user:password@host.
  [/([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+@/gi, `$1${redacted}@`],
  // JSON Web Tokens.
  [/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, redacted],
  // Cloud and forge tokens with a known prefix.
  [/\b(AKIA|ASIA)[0-9A-Z]{16}\b/g, redacted],
  [/\bgh[pousr]_[A-Za-z0-9]{30,}\b/g, redacted],
  [/\bgithub_pat_[A-Za-z0-9_]{30,}\b/g, redacted],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g, redacted],
  [/\bsk_(live|test)_[A-Za-z0-9]{16,}\b/g, redacted],
  [/\bglpat-[A-Za-z0-9_-]{20,}\b/g, redacted],
  // `password=…`, `"token": "…"`, `--api-key=…`, `secret: …`: the name stays, the value goes.
  [
    new RegExp(
      `(["']?[A-Za-z0-9_.-]*${sensitiveName.source}[A-Za-z0-9_.-]*["']?\\s*[:=]\\s*)(?!\\[REDACTED\\])("[^"]*"|'[^']*'|[^\\s,;&"'}]+)`,
      'gi',
    ),
    `$1${redacted}`,
  ],
];

/** Long base64 runs (keys, tokens, encoded secrets) that are not a digest written in hex. */
const base64Run = /(?<![A-Za-z0-9+/:])[A-Za-z0-9+/]{40,}={0,2}(?![A-Za-z0-9+/=])/g;
const looksEncoded = (run: string) => /[A-Z]/.test(run) && /[a-z]/.test(run) && /[0-9]/.test(run);

/** A text with every credential-shaped part replaced by {@link redacted}. */
export function redactText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of shapes) out = out.replace(pattern, replacement);
  return out.replace(base64Run, (run) => (looksEncoded(run) ? redacted : run));
}

/** Command-line arguments: `--password=x` and `--password x` lose the value, any other argument is scrubbed. */
export function redactArgs(args: unknown[]): unknown[] {
  return args.map((arg, i) => {
    if (typeof arg !== 'string') return arg;
    const previous = args[i - 1];
    if (typeof previous === 'string' && /^--?[A-Za-z0-9_.-]+$/.test(previous) && isSensitiveName(previous))
      return redacted;
    return redactText(arg);
  });
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An env entry: a literal value of a sensitive name goes, any other is scrubbed; references stay. */
function redactEnvVar(entry: unknown): unknown {
  if (!isObj(entry) || typeof entry.value !== 'string') return entry;
  const name = typeof entry.name === 'string' ? entry.name : '';
  return { ...entry, value: isSensitiveName(name) ? redacted : redactText(entry.value) };
}

function redactContainer(container: unknown): unknown {
  if (!isObj(container)) return container;
  return {
    ...container,
    ...(Array.isArray(container.env) ? { env: container.env.map(redactEnvVar) } : {}),
    ...(Array.isArray(container.args) ? { args: redactArgs(container.args) } : {}),
    ...(Array.isArray(container.command) ? { command: redactArgs(container.command) } : {}),
  };
}

/** Every pod spec in an object: a Pod's, a workload template's, a CronJob's job template's. */
function redactPodSpecs(value: unknown, depth = 0): unknown {
  if (depth > 8) return value;
  if (Array.isArray(value)) return value.map((v) => redactPodSpecs(v, depth + 1));
  if (!isObj(value)) return value;
  const out: Obj = {};
  for (const [key, child] of Object.entries(value)) {
    if (
      (key === 'containers' || key === 'initContainers' || key === 'ephemeralContainers') &&
      Array.isArray(child)
    )
      out[key] = child.map(redactContainer);
    else out[key] = redactPodSpecs(child, depth + 1);
  }
  return out;
}

/** String values of a map (ConfigMap data, annotations): sensitive keys lose the value, the rest is scrubbed. */
function redactMap(map: unknown): unknown {
  if (!isObj(map)) return map;
  return Object.fromEntries(
    Object.entries(map).map(([key, value]) => [
      key,
      typeof value !== 'string' ? value : isSensitiveName(key) ? redacted : redactText(value),
    ]),
  );
}

/**
 * Free-form configuration (Helm values): a string or number under a key that says credential goes whole, maps and
 * lists under it are redacted key by key (an `auth:` section keeps its `enabled: true`), every other string is
 * scrubbed.
 */
export function redactValues(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (depth > 32) return redacted;
  if (Array.isArray(value)) return value.map((v) => redactValues(v, depth + 1));
  if (!isObj(value)) return value;
  const secretScalar = (key: string, child: unknown) =>
    isSensitiveName(key) && ((typeof child === 'string' && child !== '') || typeof child === 'number');
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      secretScalar(key, child) ? redacted : redactValues(child, depth + 1),
    ]),
  );
}

/** Annotations whose value copies the object (and so a Secret's data) as written. */
const copyingAnnotations = ['kubectl.kubernetes.io/last-applied-configuration'];

/**
 * An object as a model may see it: a Secret's values never (its keys only, as `dataKeys`), ConfigMap values,
 * env values, arguments and annotations scrubbed of credentials, managedFields and last-applied copies dropped.
 */
export function redactObject(object: KubeObject): KubeObject {
  const metadata = isObj(object.metadata) ? { ...object.metadata } : {};
  delete metadata.managedFields;
  if (isObj(metadata.annotations)) {
    const annotations = { ...metadata.annotations };
    for (const name of copyingAnnotations) delete annotations[name];
    metadata.annotations = redactMap(annotations) as Record<string, string>;
  }
  const out: KubeObject = {
    ...(redactPodSpecs(object) as KubeObject),
    metadata: metadata as KubeObject['metadata'],
  };
  if (object.kind === 'Secret') {
    const keys = new Set([
      ...(Array.isArray(object.dataKeys) ? (object.dataKeys as string[]) : []),
      ...Object.keys(isObj(object.data) ? object.data : {}),
      ...Object.keys(isObj(object.stringData) ? object.stringData : {}),
    ]);
    delete out.data;
    delete out.stringData;
    out.dataKeys = [...keys].sort();
  }
  if (object.kind === 'ConfigMap') {
    if (isObj(object.data)) out.data = redactMap(object.data);
    if (isObj(object.binaryData))
      out.binaryData = Object.fromEntries(Object.keys(object.binaryData).map((k) => [k, redacted]));
  }
  return out;
}

/** A rendered multi-document manifest (a Helm release's) with each object redacted: a Secret keeps its keys only. */
export function redactManifest(manifest: string | undefined): string {
  return parseYamlDocuments(manifest ?? '', yamlLimits.stored)
    .filter((object): object is KubeObject => isObj(object))
    .map((object) => stringify(redactObject(object)))
    .join('---\n');
}
