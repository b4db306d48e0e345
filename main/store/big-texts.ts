/**
 * History's big texts as files: a text of {@link BIG_TEXT_CHARS} characters or more (a 25 MB
 * prompt) is written once to `<userData>/history-texts/<sha256>.txt` (owner-only, flushed to disk)
 * by the offload worker, before the entry's first save; the entry's row then holds
 * `{textRef, bytes}` in its place (./media.ts). Writing 25 MB into SQLite on the event loop, at
 * every save of the entry, blocked the console for a second each time; now a save of such an entry
 * writes a few hundred bytes.
 *
 * Each file has a row in `blobs` (mime type {@link TEXT_FILE_MIME}, no data) linked to the entries
 * using it, so deleting and pruning entries drop the rows as they drop media; {@link BigTexts.sweep}
 * then removes the files no row names.
 */
import { readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import type { HistoryEntry } from '../../shared/contract/state.js';
import type { Offload } from '../offload/offload.js';
import { writeText } from '../offload/tasks.js';
import { bigStrings, BIG_TEXT_CHARS, type TextRef } from './media.js';

export { BIG_TEXT_CHARS } from './media.js';

/** The folder, beside the history database, that holds the text files. */
export const TEXTS_DIR = 'history-texts';

/** `blobs.mime_type` of a row that stands for a text file (its `data` is empty). */
export const TEXT_FILE_MIME = 'text/plain; history-texts';

/** Texts remembered as written (the ones of the requests being handled). */
const KNOWN_MAX = 16;

/** A file younger than this (ms) is never swept: its entry may not be saved yet. */
const SWEEP_GRACE_MS = 10 * 60_000;

/** The big texts of one history database. */
export interface BigTexts {
  /** The folder of the files. */
  readonly dir: string;
  /**
   * Writes the big strings of `entry` not yet written (on the offload worker when there is one)
   * and remembers their files. @throws (rejects) the fs error; the entry is then stored inline.
   */
  prepare(entry: HistoryEntry): Promise<void>;
  /** The file of a text {@link BigTexts.prepare} wrote (undefined otherwise: stored inline). */
  refOf(text: string): TextRef | undefined;
  /** A text back from its file; a readable note in its place when the file is gone. */
  read(sha256: string): string;
  /**
   * Removes the files whose hash `referenced` lacks, older than 10 minutes. Returns how many were
   * removed; errors on single files are skipped.
   */
  sweep(referenced: ReadonlySet<string>): number;
}

/** Creates the big-text files of the history database at `dbPath` (`:memory:`: a temporary-free no-op store). */
export function createBigTexts(dbPath: string, offload?: Offload): BigTexts {
  const dir = path.join(path.dirname(dbPath), TEXTS_DIR);
  const known = new Map<string, TextRef>();
  const remember = (text: string, ref: TextRef) => {
    known.delete(text);
    known.set(text, ref);
    if (known.size > KNOWN_MAX) known.delete(known.keys().next().value!);
  };
  const memory = dbPath === ':memory:';
  return {
    dir,
    async prepare(entry) {
      if (memory) return;
      for (const text of bigStrings(entry)) {
        if (known.has(text)) continue;
        const written = offload ? await offload.run('writeText', { dir, text: offload.textInput(text) }) : writeText({ dir, text });
        remember(text, written);
      }
    },
    refOf(text) {
      return text.length >= BIG_TEXT_CHARS ? known.get(text) : undefined;
    },
    read(sha256) {
      try {
        return readFileSync(path.join(dir, `${sha256}.txt`), 'utf8');
      } catch (err) {
        return `[This text was kept in ${path.join(dir, `${sha256}.txt`)}, which cannot be read: ${(err as Error).message}]`;
      }
    },
    sweep(referenced) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return 0;
      }
      let removed = 0;
      const now = Date.now();
      for (const name of names) {
        // `<sha256>.txt`, or a temporary file a crash left behind mid-write
        const sha = name.endsWith('.txt') ? name.slice(0, -4) : name.endsWith('.tmp') ? '' : undefined;
        if (sha === undefined || referenced.has(sha)) continue;
        const file = path.join(dir, name);
        try {
          if (now - statSync(file).mtimeMs < SWEEP_GRACE_MS) continue;
          unlinkSync(file);
          removed++;
          for (const [text, ref] of known) if (ref.sha256 === sha) known.delete(text); // written again if needed
        } catch {
          // gone already, or not ours to remove: the next sweep tries again
        }
      }
      return removed;
    },
  };
}
