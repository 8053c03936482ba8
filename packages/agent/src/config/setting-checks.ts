import { isIP } from 'node:net';
import { dnsLabelPattern, dnsSubdomainPattern } from '@binnacle/common';
import { echo, UsageError } from '@binnacle/common/server';
import { addressPattern } from '../http/schemas.ts';
import { parseReference } from '../kube/image-reference.ts';
import { parseHeaderList } from './header-list.ts';
import { parseHelmRepositories } from './helm-repositories.ts';
import { proxyAddresses } from './proxy-addresses.ts';

type Check = (value: string, source: string) => void;

/** Each namespace costs a LIST and a WATCH per namespaced kind: past this many, watch the cluster instead. */
export const maxWatchedNamespaces = 50;

/** A comma-separated list of namespaces as its names (blanks dropped, each once, in the order given). */
export const namespaceList = (value: string) => [
  ...new Set(
    value
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  ),
];

const matching =
  (pattern: RegExp, what: string, maxLength = Number.POSITIVE_INFINITY): Check =>
  (value, source) => {
    if (!pattern.test(value) || value.length > maxLength)
      throw new UsageError(`${source}: "${echo(value)}" is not ${what}`);
  };

const hostname =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
/** RFC 9110 §5.6.2: the characters of a header name. */
const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * What the agent's text settings must look like beyond being text, checked when flags, variables and the config
 * file are read, so a bad value stops the start with exit 2 and a message naming where it came from, before
 * anything is built with it.
 */
export const settingChecks = {
  /** An IP address or a host name: `0.0.0.0`, `::1`, `localhost`, `agent.internal`. */
  listenAddress: ((value, source) => {
    if (isIP(value) !== 0) return;
    // All digits and dots is an IPv4 address that is not one (999.1.1.1), not a host name.
    if (/^[\d.]+$/.test(value) || !hostname.test(value))
      throw new UsageError(`${source}: "${echo(value)}" is not an IP address or host name`);
  }) satisfies Check,
  namespace: matching(
    new RegExp(dnsLabelPattern),
    'a namespace name (a DNS-1123 label: lowercase letters, digits and "-", at most 63)',
    63,
  ),
  /** `a,b`: namespaces to watch, each a DNS-1123 label, at most `maxWatchedNamespaces`. */
  namespaces: ((value, source) => {
    const names = namespaceList(value);
    if (names.length === 0 || names.length > maxWatchedNamespaces)
      throw new UsageError(`${source}: name 1 to ${maxWatchedNamespaces} namespaces, comma-separated`);
    for (const name of names) settingChecks.namespace(name, source);
  }) satisfies Check,
  objectName: matching(
    new RegExp(dnsSubdomainPattern),
    'an object name (a DNS-1123 subdomain: lowercase letters, digits, "-" and ".", at most 253)',
    253,
  ),
  headerName: matching(token, 'an HTTP header name'),
  hostPort: matching(new RegExp(addressPattern), 'HOST:PORT'),
  /** An image reference as the container runtime reads it (`busybox:1.37`, `registry:5000/tools/shell@sha256:…`). */
  image: ((value, source) => void parseReference(value, source)) satisfies Check,
  helmRepositories: ((value, source) => void parseHelmRepositories(value, source)) satisfies Check,
  headerList: ((value, source) => void parseHeaderList(value, source)) satisfies Check,
  proxyAddresses: ((value, source) => void proxyAddresses(value, source)) satisfies Check,
};
