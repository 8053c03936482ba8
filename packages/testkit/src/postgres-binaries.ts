import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface PostgresBinaries {
  dir: string;
  initdb: string;
  postgres: string;
}

const debianRoot = '/usr/lib/postgresql';

function inDir(dir: string): PostgresBinaries | undefined {
  const initdb = join(dir, 'initdb');
  const postgres = join(dir, 'postgres');
  return existsSync(initdb) && existsSync(postgres) ? { dir, initdb, postgres } : undefined;
}

function debianBinDirs(): string[] {
  try {
    return readdirSync(debianRoot)
      .filter((version) => /^\d+(\.\d+)?$/.test(version))
      .sort((a, b) => Number(b) - Number(a))
      .map((version) => join(debianRoot, version, 'bin'));
  } catch {
    return [];
  }
}

function pgConfigBinDir(): string | undefined {
  try {
    return execFileSync('pg_config', ['--bindir'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

/**
 * The server binaries: BINNACLE_PG_BINDIR, else the newest Debian install, else `pg_config --bindir`. Debian keeps
 * initdb and postgres out of PATH (only client wrappers are there), hence the explicit search.
 */
export function postgresBinaries(env: NodeJS.ProcessEnv = process.env): PostgresBinaries {
  const override = env.BINNACLE_PG_BINDIR;
  if (override) {
    const found = inDir(override);
    if (!found) throw new Error(`BINNACLE_PG_BINDIR=${override} holds no initdb and postgres binaries`);
    return found;
  }
  for (const dir of debianBinDirs()) {
    const found = inDir(dir);
    if (found) return found;
  }
  const fromPgConfig = pgConfigBinDir();
  const found = fromPgConfig ? inDir(fromPgConfig) : undefined;
  if (found) return found;
  throw new Error(
    `PostgreSQL is missing: no initdb and postgres in ${debianRoot}/*/bin or in \`pg_config --bindir\`. ` +
      'Install the server (Debian: apt-get install postgresql, which `sh scripts/bootstrap.sh` does as root) ' +
      'or set BINNACLE_PG_BINDIR to the directory holding initdb and postgres.',
  );
}
