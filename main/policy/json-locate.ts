/**
 * Finds where a value sits in JSON text, so a schema problem can be reported with its line
 * ("rules.json line 12, column 19: servers.a.rules.0.action: …"). A tiny scanner meant for text
 * that already parsed with JSON.parse; on text cut off or malformed it stops (at the latest at the
 * end of the text) and gives the best location found.
 */

/** A scan of `text` for {@link locateJsonPath}: the position `i` and the furthest position reached along the path, `best`. */
interface LocateScan {
  readonly text: string;
  i: number;
  best: number;
}

/**
 * Line and column (1-based) of the value at `path` in `text`; the deepest existing parent when the
 * key is missing. Text cut off or malformed gives the deepest place reached before the scan
 * stopped; the scan never goes past the end of the text.
 */
export function locateJsonPath(text: string, path: ReadonlyArray<PropertyKey>): { line: number; column: number } {
  const s: LocateScan = { text, i: 0, best: 0 };
  try {
    descend(s, path, 0);
  } catch {
    // malformed or cut-off text: report the best position found so far
  }
  const before = text.slice(0, Math.min(s.best, text.length)).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/** Skips whitespace (any `\s`). */
function skipWhite(s: LocateScan): void {
  while (s.i < s.text.length && /\s/.test(s.text[s.i]!)) s.i++;
}

/** Reads the string at `i` (its opening quote) and moves past it. @throws SyntaxError when it is not a JSON string */
function readString(s: LocateScan): string {
  const { text } = s;
  const start = s.i;
  s.i++;
  while (s.i < text.length && text[s.i] !== '"') s.i += text[s.i] === '\\' ? 2 : 1;
  s.i++;
  return JSON.parse(text.slice(start, s.i)) as string;
}

/**
 * Moves past the value at `i` (after whitespace): a string, an object or array with everything in
 * it, or a bare word.
 * @throws SyntaxError when the text ends inside an object or array (or a string)
 */
function skipValue(s: LocateScan): void {
  skipWhite(s);
  const { text } = s;
  const c = text[s.i];
  if (c === '"') return void readString(s);
  if (c === '{' || c === '[') {
    const close = c === '{' ? '}' : ']';
    s.i++;
    skipWhite(s);
    if (text[s.i] === close) return void s.i++;
    for (;;) {
      skipWhite(s);
      if (s.i >= text.length) throw new SyntaxError('the text ends inside an object or array');
      if (c === '{') {
        readString(s);
        skipWhite(s);
        s.i++; // ':'
      }
      skipValue(s);
      skipWhite(s);
      if (text[s.i++] === close) return;
    }
  }
  while (s.i < text.length && !/[\s,\]}]/.test(text[s.i]!)) s.i++;
}

/** Descends along path[depth…]; stops (keeping `best`) when a step is missing. */
function descend(s: LocateScan, path: ReadonlyArray<PropertyKey>, depth: number): void {
  skipWhite(s);
  s.best = s.i;
  if (depth >= path.length) return;
  const { text } = s;
  const want = path[depth];
  const c = text[s.i];
  if (c !== '{' && c !== '[') return;
  s.i++;
  let index = 0;
  for (;;) {
    skipWhite(s);
    if (text[s.i] === '}' || text[s.i] === ']' || s.i >= text.length) return;
    let key: string | number = index;
    if (c === '{') {
      key = readString(s);
      skipWhite(s);
      s.i++; // ':'
    }
    if (String(key) === String(want)) return descend(s, path, depth + 1);
    skipValue(s);
    skipWhite(s);
    if (text[s.i] === ',') s.i++;
    index++;
  }
}

/** A check of `text` for {@link jsonSyntaxError}: the position `i`. */
interface SyntaxScan {
  readonly text: string;
  i: number;
}

/**
 * Where JSON text first goes wrong (V8's JSON.parse messages often omit the position): line,
 * column (1-based) and what was expected. Undefined when the text is valid JSON.
 */
export function jsonSyntaxError(text: string): { line: number; column: number; message: string } | undefined {
  const s: SyntaxScan = { text, i: 0 };
  try {
    checkValue(s);
    skipJsonWhite(s);
    if (s.i < text.length) fail(s, `unexpected ${shown(s)} after the end of the JSON value`);
    return undefined;
  } catch (err) {
    const at = (err as { at?: number }).at ?? s.i;
    const before = text.slice(0, at).split('\n');
    return { line: before.length, column: before.at(-1)!.length + 1, message: (err as Error).message };
  }
}

/** @throws Error with `message` and the position `at` (= `i`) */
function fail(s: SyntaxScan, message: string): never {
  throw Object.assign(new Error(message), { at: s.i });
}

/** Skips JSON's whitespace (space, tab, newline, carriage return). */
function skipJsonWhite(s: SyntaxScan): void {
  while (s.i < s.text.length && ' \t\n\r'.includes(s.text[s.i]!)) s.i++;
}

/** The character at `i` as a message shows it (`"x"`), or "end of file". */
function shown(s: SyntaxScan): string {
  return s.i >= s.text.length ? 'end of file' : `"${s.text[s.i]}"`;
}

/** Moves past `word` (true, false, null). @throws via {@link fail} when the text there is not `word` */
function checkLiteral(s: SyntaxScan, word: string): void {
  return s.text.startsWith(word, s.i) ? void (s.i += word.length) : fail(s, `unexpected ${shown(s)}`);
}

/** Moves past the string at `i` (its opening quote). @throws via {@link fail} for a control character in it or no closing quote */
function checkString(s: SyntaxScan): void {
  const { text } = s;
  s.i++;
  while (s.i < text.length && text[s.i] !== '"') {
    if (text[s.i] === '\\') s.i++;
    else if (text.charCodeAt(s.i) < 0x20) fail(s, 'control character in a string');
    s.i++;
  }
  if (s.i >= text.length) fail(s, 'unterminated string');
  s.i++;
}

/**
 * Moves past the value at `i` (after whitespace). Objects and arrays are checked here, not in steps
 * of their own, so nesting costs one stack frame per level.
 * @throws via {@link fail} where the value stops being JSON (a key, colon or separator missing, a bad word or number)
 */
function checkValue(s: SyntaxScan): void {
  skipJsonWhite(s);
  const { text } = s;
  const c = text[s.i];
  if (c === '{') {
    s.i++;
    skipJsonWhite(s);
    if (text[s.i] === '}') return void s.i++;
    for (;;) {
      skipJsonWhite(s);
      if (text[s.i] !== '"') fail(s, `expected a "key" but found ${shown(s)}`);
      checkString(s);
      skipJsonWhite(s);
      if (text[s.i] !== ':') fail(s, `expected ":" but found ${shown(s)}`);
      s.i++;
      checkValue(s);
      skipJsonWhite(s);
      if (text[s.i] === ',') s.i++;
      else if (text[s.i] === '}') return void s.i++;
      else fail(s, `expected "," or "}" but found ${shown(s)}`);
    }
  }
  if (c === '[') {
    s.i++;
    skipJsonWhite(s);
    if (text[s.i] === ']') return void s.i++;
    for (;;) {
      checkValue(s);
      skipJsonWhite(s);
      if (text[s.i] === ',') s.i++;
      else if (text[s.i] === ']') return void s.i++;
      else fail(s, `expected "," or "]" but found ${shown(s)}`);
    }
  }
  if (c === '"') return checkString(s);
  if (c === 't') return checkLiteral(s, 'true');
  if (c === 'f') return checkLiteral(s, 'false');
  if (c === 'n') return checkLiteral(s, 'null');
  const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(s.i, s.i + 400));
  if (!m) fail(s, `unexpected ${shown(s)}`);
  s.i += m![0].length;
}
