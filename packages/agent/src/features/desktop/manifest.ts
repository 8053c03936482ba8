import { AppError } from '@binnacle/common/server';
import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';

/**
 * A desktop release manifest (docs/desktop.md): the newest version and one single executable per
 * `<platform>-<arch>` (Node's process.platform and process.arch). Other fields are allowed and ignored.
 */
const ManifestSchema = Type.Object({
  version: Type.String({ pattern: '^v?[0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?$' }),
  assets: Type.Record(
    Type.String(),
    Type.Object({
      url: Type.String({ minLength: 1, maxLength: 4096 }),
      sha256: Type.String({ pattern: '^[0-9a-fA-F]{64}$' }),
      size: Type.Integer({ minimum: 1, maximum: 2 ** 40 }),
    }),
  ),
});
const checker = Compile(ManifestSchema);

export interface ReleaseAsset {
  /** Absolute http(s) URL of the executable. */
  url: string;
  /** Lower-case hex. */
  sha256: string;
  size: number;
}

export interface Release {
  version: string;
  /** This platform's executable; undefined when the release has none for it. */
  asset?: ReleaseAsset;
}

/** The asset key of this machine, e.g. "linux-x64", "darwin-arm64", "win32-x64". */
export const platformKey = (platform = process.platform, arch = process.arch) => `${platform}-${arch}`;

const sourceError = (manifestUrl: string, problem: string) =>
  new AppError('update_source_error', `the release manifest at ${manifestUrl} ${problem}`);

/**
 * The release a manifest describes for `platform` (a key of `assets`), its asset URL resolved against the
 * manifest's own URL (relative URLs allowed) and limited to http(s). Anything else is `update_source_error`
 * naming the field.
 */
export function parseManifest(body: unknown, manifestUrl: string, platform = platformKey()): Release {
  if (!checker.Check(body)) {
    const [first] = checker.Errors(body);
    throw sourceError(
      manifestUrl,
      `is not a manifest: ${first ? `${first.instancePath || '/'} ${first.message}` : 'unexpected shape'}`,
    );
  }
  const manifest: Static<typeof ManifestSchema> = body;
  const version = manifest.version.replace(/^v/, '');
  const entry = manifest.assets[platform];
  if (!entry) return { version };
  let url: URL;
  try {
    url = new URL(entry.url, manifestUrl);
  } catch {
    throw sourceError(manifestUrl, `has an invalid URL at /assets/${platform}/url`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw sourceError(
      manifestUrl,
      `names a ${url.protocol.slice(0, -1)} URL at /assets/${platform}/url; only http(s) is fetched`,
    );
  return { version, asset: { url: url.href, sha256: entry.sha256.toLowerCase(), size: entry.size } };
}
