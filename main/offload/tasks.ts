/**
 * The work the console moves off its event loop when a payload is big (see ./offload.ts): plain
 * functions of plain data, run in the offload worker thread (./worker.ts) or, when there is no
 * worker, inline. Inputs and outputs cross the thread boundary by structured clone, so they hold
 * only JSON-like values, `Uint8Array`s and errors.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { detectSensitive, type DetectOptions, type Finding } from '../../shared/domain/sensitive-data.js';

/**
 * What a parsed stdio line came to: the JSON value, or `ok: false` for a line that is not JSON.
 * `held`: ids under which the worker keeps the value's big strings ({@link HELD_MIN_CHARS} or
 * more), in the order {@link bigStringsOf} lists them, so later tasks can name them instead of
 * copying them back (copying 25 MB between threads takes ~0.1 s of the sender's time).
 */
export type ParsedLine = { ok: true; value: unknown; held: number[] } | { ok: false };

/** A text a task reads: the string itself, or a big string the worker holds (see {@link ParsedLine}). */
export type TextInput = string | { held: number };

/** Strings at least this long (characters) are held by the worker after a parse: 64 KiB. */
export const HELD_MIN_CHARS = 64 * 1024;

/** Big strings held, at most (the oldest are dropped first): those of the few requests being handled. */
const HELD_MAX = 4;

const held = new Map<number, string>();
let nextHeld = 1;

/** The strings of `value` of {@link HELD_MIN_CHARS} or more, in a fixed walk order. */
export function bigStringsOf(value: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.length >= HELD_MIN_CHARS) out.push(v);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else if (v !== null && typeof v === 'object') {
      const values = Object.values(v);
      for (let i = values.length - 1; i >= 0; i--) stack.push(values[i]);
    }
  }
  return out;
}

/** A text's string. @throws Error when a held text was dropped meanwhile (the caller sends the string instead) */
function textOf(input: TextInput): string {
  if (typeof input === 'string') return input;
  const text = held.get(input.held);
  if (text === undefined) throw Object.assign(new Error('the offload worker no longer holds this text'), { code: 'ERR_NOT_HELD' });
  return text;
}

/** A text written to the history's text folder: the file is `<sha256>.txt`. */
export interface WrittenText {
  /** Hex SHA-256 of the text as UTF-8. */
  sha256: string;
  /** Its UTF-8 size in bytes. */
  bytes: number;
}

/** Every task: its input and output. */
export interface OffloadTasks {
  /** One line of a stdio transport (UTF-8 bytes, no newline; whole or in the chunks it came in): `JSON.parse` of it. */
  parseJsonLine: { input: Uint8Array | Uint8Array[]; output: ParsedLine };
  /** shared/domain/sensitive-data.ts `detectSensitive` of each text, in order. */
  detectTexts: { input: { texts: TextInput[]; options: DetectOptions }; output: Finding[][] };
  /**
   * Writes `text` to `<dir>/<sha256>.txt` (through a temporary file and a rename, flushed to disk
   * before it returns; a file already there is kept). @throws the fs error (ENOSPC, EACCES …).
   */
  writeText: { input: { dir: string; text: TextInput }; output: WrittenText };
}

/** A task's name. */
export type TaskName = keyof OffloadTasks;

/** Parses one stdio line (a trailing `\r` is dropped). */
export function parseJsonLine(bytes: Uint8Array | Uint8Array[]): ParsedLine {
  const parts = (Array.isArray(bytes) ? bytes : [bytes]).map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength));
  const text = (parts.length === 1 ? parts[0]! : Buffer.concat(parts)).toString('utf8');
  try {
    const value: unknown = JSON.parse(text.endsWith('\r') ? text.slice(0, -1) : text);
    const ids = bigStringsOf(value).map((s) => {
      const id = nextHeld++;
      held.set(id, s);
      if (held.size > HELD_MAX) held.delete(held.keys().next().value!);
      return id;
    });
    return { ok: true, value, held: ids };
  } catch (error) {
    if (error instanceof SyntaxError) return { ok: false };
    throw error;
  }
}

/** See {@link OffloadTasks.writeText}. */
export function writeText({ dir, text }: OffloadTasks['writeText']['input']): WrittenText {
  const data = Buffer.from(textOf(text), 'utf8');
  const sha256 = createHash('sha256').update(data).digest('hex');
  const file = path.join(dir, `${sha256}.txt`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    const fd = openSync(temp, 'w', 0o600);
    try {
      for (let at = 0; at < data.length; ) at += writeSync(fd, data, at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  }
  return { sha256, bytes: data.length };
}

/** The tasks by name. */
export const TASKS: { [K in TaskName]: (input: OffloadTasks[K]['input']) => OffloadTasks[K]['output'] } = {
  parseJsonLine,
  detectTexts: ({ texts, options }) => texts.map((t) => detectSensitive(textOf(t), options)),
  writeText,
};
