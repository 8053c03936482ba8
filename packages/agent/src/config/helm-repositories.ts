import { UsageError } from '@binnacle/common/server';

/** A chart source the agent knows by name: a classic repository (index.yaml) or an OCI registry namespace. */
export interface ChartRepository {
  name: string;
  /** http(s)://… of the repository, or oci://host[:port]/path of the registry namespace. */
  url: string;
  type: 'http' | 'oci';
}

const namePattern = /^[a-z0-9]([-a-z0-9._]{0,61}[a-z0-9])?$/;

/**
 * `--helm-repositories NAME=URL,…` → the repositories, refusing (with a message naming the setting and the
 * entry) a malformed entry, a URL that is neither http(s):// nor oci://host/…, and a name given twice.
 */
export function parseHelmRepositories(
  text: string | undefined,
  setting = '--helm-repositories',
): ChartRepository[] {
  const repositories: ChartRepository[] = [];
  for (const entry of (text ?? '').split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const at = entry.indexOf('=');
    const name = entry.slice(0, at);
    const url = entry.slice(at + 1).replace(/\/+$/, '');
    const where = `${setting}: "${entry}"`;
    if (at < 1 || !namePattern.test(name))
      throw new UsageError(`${where} needs NAME=URL with a lowercase name (letters, digits, - . _)`);
    if (repositories.some((repository) => repository.name === name))
      throw new UsageError(`${where}: the name ${name} is given twice`);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new UsageError(`${where}: ${url} is not a URL`);
    }
    if (parsed.protocol === 'oci:') {
      if (!parsed.host || parsed.pathname.length < 2)
        throw new UsageError(
          `${where}: an OCI source is oci://host[:port]/path (the namespace of its charts)`,
        );
      repositories.push({ name, url, type: 'oci' });
    } else if (parsed.protocol === 'http:' || parsed.protocol === 'https:') {
      repositories.push({ name, url, type: 'http' });
    } else {
      throw new UsageError(`${where}: the URL must start with http://, https:// or oci://`);
    }
  }
  return repositories;
}
