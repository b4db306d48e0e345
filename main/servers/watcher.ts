/**
 * Watches `mcp-servers.json` for edits made by hand (or by another program). Watches the folder,
 * not the file, because editors and our own atomic writes replace the file (a new inode), which
 * ends a watch on the file itself. Events are debounced; the callback gets the file's text only
 * when it differs from the last text seen (so our own writes, already applied, are not re-applied).
 */
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { Logger } from '../ports.js';

/** Default quiet time before a change is read, in ms. */
export const WATCH_DEBOUNCE_MS = 150;

/** A running watch. */
export interface ConfigWatch {
  /** Tells the watch that `text` is the file's content now (after the console wrote it). */
  seen(text: string): void;
  close(): void;
}

/**
 * Starts watching `path`.
 * @param onText called with the new text (or `null` when the file was deleted) after a change settles
 * @param initialText the text already applied
 */
export function watchConfigFile(
  path: string,
  opts: { initialText: string; onText(text: string | null): void; logger: Logger; debounceMs?: number },
): ConfigWatch {
  const name = basename(path);
  let last: string | null = opts.initialText;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const check = async () => {
    timer = undefined;
    let text: string | null;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        opts.logger.warn('servers config unreadable', { error: String(err) });
        return;
      }
      text = null;
    }
    if (closed || text === last) return;
    last = text;
    opts.onText(text);
  };

  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(path), { persistent: false }, (_event, file) => {
      // Some platforms give no file name; then any change in the folder is checked.
      if (file && file.toString() !== name) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void check(), opts.debounceMs ?? WATCH_DEBOUNCE_MS);
    });
    watcher.on('error', (err) => opts.logger.warn('servers config watch failed', { error: String(err) }));
  } catch (err) {
    opts.logger.warn('cannot watch the servers config', { error: String(err) });
  }

  return {
    seen(text) {
      last = text;
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      watcher?.close();
    },
  };
}
