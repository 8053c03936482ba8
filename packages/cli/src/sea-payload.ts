/** What the single executable's build (scripts/build-sea.ts) and its entry point (single-executable.ts) share. */

/** The files embedded as assets: their paths (relative, '/'-separated) and modes, their digest and the bundle's entry. */
export interface PayloadManifest {
  digest: string;
  entry: string;
  files: { path: string; mode: number }[];
}

/** The asset that holds the manifest; it is also written last into an unpacked payload to mark it complete. */
export const manifestAsset = 'payload.json';
