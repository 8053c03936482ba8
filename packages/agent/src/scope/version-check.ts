import { request } from 'undici';

export interface VersionCheck {
  currentVersion: string;
  latestVersion?: string;
  updateAvailable: boolean;
  releaseUrl?: string;
  releaseNotes?: string;
  checkedAt: string;
  /** Why the feed could not be read; the answer is still 200, with updateAvailable false. */
  error?: string;
}

const okTtlMs = 3_600_000;
const errorTtlMs = 300_000;
const timeoutMs = 5000;
const maxNotes = 500;

/** Compares x.y.z[-pre] versions; a release is newer than its pre-releases. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core = '', pre] = v.replace(/^v/, '').split('-', 2);
    return { parts: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i += 1) {
    const diff = (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}

/** Reads the two feed shapes we accept: a GitHub release (`tag_name`) or `{version, url, notes}`. */
function parseFeed(body: unknown): { version: string; url?: string; notes?: string } {
  const feed = body as {
    tag_name?: unknown;
    html_url?: unknown;
    body?: unknown;
    version?: unknown;
    url?: unknown;
    notes?: unknown;
  };
  const version = typeof feed.tag_name === 'string' ? feed.tag_name : feed.version;
  if (typeof version !== 'string' || !/^v?\d+\.\d+/.test(version))
    throw new Error('the feed names no version');
  const url =
    typeof feed.html_url === 'string' ? feed.html_url : typeof feed.url === 'string' ? feed.url : undefined;
  const notes =
    typeof feed.body === 'string' ? feed.body : typeof feed.notes === 'string' ? feed.notes : undefined;
  return { version: version.replace(/^v/, ''), url, notes };
}

/** Asks a release feed whether a newer version exists; answers are cached (1 h, or 5 min after a failure). */
export class ReleaseChecker {
  readonly #currentVersion: string;
  readonly #feedUrl: string;
  #cached?: { answer: VersionCheck; until: number };

  constructor(currentVersion: string, feedUrl: string) {
    this.#currentVersion = currentVersion;
    this.#feedUrl = feedUrl;
  }

  async check(now = Date.now()): Promise<VersionCheck> {
    if (this.#cached && this.#cached.until > now) return this.#cached.answer;
    let answer: VersionCheck;
    try {
      const res = await request(this.#feedUrl, {
        headers: { accept: 'application/json', 'user-agent': `binnacle-agent/${this.#currentVersion}` },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (res.statusCode !== 200) {
        await res.body.dump();
        throw new Error(`HTTP ${res.statusCode}`);
      }
      const latest = parseFeed(await res.body.json());
      answer = {
        currentVersion: this.#currentVersion,
        latestVersion: latest.version,
        updateAvailable: compareVersions(latest.version, this.#currentVersion) > 0,
        releaseUrl: latest.url,
        releaseNotes: latest.notes?.slice(0, maxNotes),
        checkedAt: new Date(now).toISOString(),
      };
      this.#cached = { answer, until: now + okTtlMs };
    } catch (error) {
      const reason = (error as { code?: string }).code ?? (error as Error).message;
      answer = {
        currentVersion: this.#currentVersion,
        updateAvailable: false,
        checkedAt: new Date(now).toISOString(),
        error: `release feed unreachable (${reason})`,
      };
      this.#cached = { answer, until: now + errorTtlMs };
    }
    return answer;
  }
}
