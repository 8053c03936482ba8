import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedPath, defaultDownloadsDir, userDirsDownload } from './folders.ts';

let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'binnacle-folders-'));
});
afterAll(() => rm(home, { recursive: true, force: true }));

describe("the desktop's downloads folder", () => {
  it('reads XDG_DOWNLOAD_DIR from user-dirs.dirs, $HOME-relative or absolute', () => {
    const text = '# comment\nXDG_DESKTOP_DIR="$HOME/Desktop"\nXDG_DOWNLOAD_DIR="$HOME/Téléchargements"\n';
    expect(userDirsDownload(text, '/home/me')).toBe('/home/me/Téléchargements');
    expect(userDirsDownload('XDG_DOWNLOAD_DIR="/data/dl"', '/home/me')).toBe('/data/dl');
    expect(userDirsDownload('XDG_DOWNLOAD_DIR="relative"', '/home/me')).toBeUndefined();
    expect(userDirsDownload('', '/home/me')).toBeUndefined();
  });

  it('prefers the variable, then the file, then ~/Downloads', async () => {
    expect(await defaultDownloadsDir({ XDG_DOWNLOAD_DIR: '$HOME/dl' }, home)).toBe(join(home, 'dl'));
    expect(await defaultDownloadsDir({}, home)).toBe(join(home, 'Downloads'));
    await mkdir(join(home, '.config'));
    await writeFile(join(home, '.config', 'user-dirs.dirs'), 'XDG_DOWNLOAD_DIR="$HOME/Descargas"\n');
    expect(await defaultDownloadsDir({}, home)).toBe(join(home, 'Descargas'));
    expect(await defaultDownloadsDir({ XDG_CONFIG_HOME: join(home, 'none') }, home)).toBe(
      join(home, 'Downloads'),
    );
  });
});

describe('the folders the desktop helpers open', () => {
  it('allows paths inside a root only, links resolved', async () => {
    const root = join(home, 'root');
    await mkdir(root);
    await writeFile(join(root, 'a.txt'), 'a');
    await writeFile(join(home, 'secret.txt'), 's');
    await symlink(join(home, 'secret.txt'), join(root, 'link.txt'));
    expect(await allowedPath(join(root, 'a.txt'), [root])).toMatch(/a\.txt$/);
    expect(await allowedPath(root, [root])).toMatch(/root$/);
    await expect(allowedPath(join(root, '..', 'secret.txt'), [root])).rejects.toMatchObject({
      code: 'outside_allowed_folders',
      message: expect.stringContaining(root),
    });
    await expect(allowedPath(join(root, 'link.txt'), [root])).rejects.toMatchObject({
      code: 'outside_allowed_folders',
    });
    await expect(allowedPath(`${root}-sibling/x`, [root])).rejects.toMatchObject({
      code: 'outside_allowed_folders',
    });
    await expect(allowedPath(join(root, 'missing.txt'), [root])).rejects.toMatchObject({ code: 'not_found' });
  });
});
