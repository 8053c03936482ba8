/** A `WWW-Authenticate` challenge: its scheme (lowercase) and its parameters (`realm`, `service`, `scope`). */
export interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

/** Parses `Bearer realm="https://auth…",service="registry",scope="repository:app:pull"` (or `Basic realm=…`). */
export function parseChallenge(value: string): Challenge {
  const space = value.indexOf(' ');
  const scheme = (space === -1 ? value : value.slice(0, space)).toLowerCase();
  const params: Record<string, string> = {};
  for (const match of value.slice(space + 1).matchAll(/([\w-]+)=(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g)) {
    const name = match[1];
    if (name) params[name.toLowerCase()] = (match[2] ?? match[3] ?? '').replace(/\\(.)/g, '$1');
  }
  return { scheme, params };
}
