import { stat } from 'node:fs/promises';
import { dirname, isAbsolute } from 'node:path';
import { isSea } from 'node:sea';
import { badRequest, echo, UsageError } from '@binnacle/common/server';
import type { AgentConfig } from '../../config/agent-config.ts';
import { isLoopback } from '../../http/same-origin.ts';
import { decodeContent, type SavedFile, saveInto } from './downloads.ts';
import { allowedPath, defaultDownloadsDir } from './folders.ts';
import { openExternal } from './opener.ts';
import { Updater, type UpdateStatus } from './update.ts';

/**
 * Desktop mode acts on the machine the agent runs on (opens programs, writes files, replaces its own
 * executable): only the person at that machine may reach it, so never through a hub nor from other hosts.
 */
export function checkDesktopConfig(config: AgentConfig): void {
  if (!config.desktop) return;
  if (config.cloudUrl)
    throw new UsageError(
      'desktop mode serves this machine only: --cloud-url is not allowed (a hub could open and write files here)',
    );
  if (!isLoopback(config.listenAddress))
    throw new UsageError(
      `desktop mode listens on loopback only: --listen-address ${config.listenAddress} is not 127.0.0.1, ::1 or localhost`,
    );
}

/** The answer of every /api/desktop route outside desktop mode: nothing was done. */
export const notDesktop = { desktop: false } as const;

/** The desktop helpers of `binnacle desktop`: opening URLs and saved files, saving downloads, updating itself. */
export class DesktopService {
  readonly #updater: Updater;
  readonly #config: AgentConfig;
  #downloadsDir?: Promise<string>;

  constructor(config: AgentConfig, version: string) {
    this.#config = config;
    this.#updater = new Updater({
      currentVersion: version,
      manifestUrl: config.updateUrl,
      executable: config.desktopExecutablePath ?? (isSea() ? process.execPath : undefined),
    });
  }

  /** --downloads-dir, else the desktop's own downloads folder (looked up once). */
  downloadsDir(): Promise<string> {
    this.#downloadsDir ??= this.#config.downloadsDir
      ? Promise.resolve(this.#config.downloadsDir)
      : defaultDownloadsDir();
    return this.#downloadsDir;
  }

  async openUrl(given: string): Promise<{ desktop: true; opened: string }> {
    let url: URL;
    try {
      url = new URL(given);
    } catch {
      throw badRequest(`url: "${echo(given)}" is not an absolute URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw badRequest(
        `url: the scheme "${url.protocol.slice(0, -1)}" is not opened; only http and https are`,
      );
    await openExternal(url.href);
    return { desktop: true, opened: url.href };
  }

  /**
   * Opens a file with its application, or a folder in the file manager (a file given to open-folder opens
   * the folder holding it). Only inside the downloads folder and the data directory: the UI opens what it saved.
   */
  async openPath(path: string, as: 'file' | 'folder'): Promise<{ desktop: true; opened: string }> {
    if (!isAbsolute(path)) throw badRequest(`path: "${echo(path)}" is not an absolute path`);
    const real = await allowedPath(path, [await this.downloadsDir(), this.#config.dataDir]);
    const info = await stat(real);
    let target = real;
    if (as === 'file') {
      if (info.isDirectory())
        throw badRequest(`path: ${echo(path)} is a folder; open it with /api/desktop/open-folder`);
      if (!info.isFile()) throw badRequest(`path: ${echo(path)} is not a regular file`);
    } else if (!info.isDirectory()) {
      target = dirname(real);
    }
    await openExternal(target);
    return { desktop: true, opened: target };
  }

  async saveFile(
    filename: string,
    content: string,
    encoding: 'utf8' | 'base64',
  ): Promise<SavedFile & { desktop: true }> {
    const bytes = decodeContent(content, encoding);
    return { desktop: true, ...(await saveInto(await this.downloadsDir(), filename, bytes)) };
  }

  updateStatus(): UpdateStatus & { desktop: true } {
    return { desktop: true, ...this.#updater.status() };
  }

  async checkUpdate(): Promise<UpdateStatus & { desktop: true }> {
    return { desktop: true, ...(await this.#updater.check()) };
  }

  async applyUpdate() {
    return { desktop: true as const, ...(await this.#updater.apply()) };
  }
}
