import { readFile, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { AppError, echo } from '@binnacle/common/server';

const homeRelative = (value: string, home: string) => value.replace(/^\$HOME(?=\/|$)/, home);

/** XDG_DOWNLOAD_DIR of an `user-dirs.dirs` file (`XDG_DOWNLOAD_DIR="$HOME/Downloads"`), if it names one. */
export function userDirsDownload(text: string, home: string): string | undefined {
  for (const line of text.split('\n')) {
    const match = /^\s*XDG_DOWNLOAD_DIR\s*=\s*"(.*)"\s*$/.exec(line);
    if (!match?.[1]) continue;
    const path = homeRelative(match[1], home);
    // The XDG spec allows only $HOME-relative and absolute paths; anything else is ignored, as xdg-user-dir does.
    return isAbsolute(path) ? path : undefined;
  }
  return undefined;
}

/** Where a desktop's downloads go: XDG_DOWNLOAD_DIR, then ~/.config/user-dirs.dirs, then ~/Downloads. */
export async function defaultDownloadsDir(env = process.env, home = homedir()): Promise<string> {
  const fromEnv = env.XDG_DOWNLOAD_DIR && homeRelative(env.XDG_DOWNLOAD_DIR, home);
  if (fromEnv && isAbsolute(fromEnv)) return fromEnv;
  const file = join(env.XDG_CONFIG_HOME || join(home, '.config'), 'user-dirs.dirs');
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  return userDirsDownload(text, home) ?? join(home, 'Downloads');
}

const inside = (path: string, root: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

/** A folder's real path, or the path as given while it does not exist yet (the downloads folder before a save). */
const realOrGiven = (path: string) => realpath(path).catch(() => resolve(path));

/**
 * The real path of `path` if it exists inside one of `roots`, checked before and after symbolic links are
 * resolved (a link inside a root must not lead out of it): 403 `outside_allowed_folders` naming the roots,
 * 404 when it does not exist.
 */
export async function allowedPath(path: string, roots: readonly string[]): Promise<string> {
  const outside = () =>
    new AppError(
      'outside_allowed_folders',
      `${echo(path)} is outside the folders the desktop helpers open: ${roots.join(', ')}`,
    );
  const realRoots = await Promise.all(roots.map(realOrGiven));
  const given = resolve(path);
  if (!roots.some((root) => inside(given, resolve(root))) && !realRoots.some((root) => inside(given, root)))
    throw outside();
  let real: string;
  try {
    real = await realpath(given);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new AppError('not_found', `${echo(path)} does not exist`);
    throw error;
  }
  if (!realRoots.some((root) => inside(real, root))) throw outside();
  return real;
}
