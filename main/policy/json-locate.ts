/**
 * Finds where a value sits in JSON text, so a schema problem can be reported with its line
 * ("rules.json line 12, column 19: servers.a.rules.0.action: …"). A tiny scanner: it assumes the
 * text already parsed with JSON.parse.
 */

/** Line and column (1-based) of the value at `path` in `text`; the deepest existing parent when the key is missing. */
export function locateJsonPath(text: string, path: ReadonlyArray<PropertyKey>): { line: number; column: number } {
  let i = 0;
  let best = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const skip = (): void => {
    ws();
    const c = text[i];
    if (c === '"') return void str();
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (text[i] === close) return void i++;
      for (;;) {
        ws();
        if (c === '{') {
          str();
          ws();
          i++; // ':'
        }
        skip();
        ws();
        if (text[i++] === close) return;
      }
    }
    while (i < text.length && !/[\s,\]}]/.test(text[i]!)) i++;
  };
  /** Descends along path[depth…]; stops (keeping `best`) when a step is missing. */
  const descend = (depth: number): void => {
    ws();
    best = i;
    if (depth >= path.length) return;
    const want = path[depth];
    const c = text[i];
    if (c !== '{' && c !== '[') return;
    i++;
    let index = 0;
    for (;;) {
      ws();
      if (text[i] === '}' || text[i] === ']' || i >= text.length) return;
      let key: string | number = index;
      if (c === '{') {
        key = str();
        ws();
        i++; // ':'
      }
      if (String(key) === String(want)) return descend(depth + 1);
      skip();
      ws();
      if (text[i] === ',') i++;
      index++;
    }
  };
  try {
    descend(0);
  } catch {
    // malformed text: report the best position found so far
  }
  const before = text.slice(0, best).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/**
 * Where JSON text first goes wrong (V8's JSON.parse messages often omit the position): line,
 * column (1-based) and what was expected. Undefined when the text is valid JSON.
 */
export function jsonSyntaxError(text: string): { line: number; column: number; message: string } | undefined {
  let i = 0;
  const fail = (message: string): never => {
    throw Object.assign(new Error(message), { at: i });
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = (word: string) => (text.startsWith(word, i) ? void (i += word.length) : fail(`unexpected ${show()}`));
  const show = () => (i >= text.length ? 'end of file' : `"${text[i]}"`);
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      else if (text.charCodeAt(i) < 0x20) fail('control character in a string');
      i++;
    }
    if (i >= text.length) fail('unterminated string');
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`expected a "key" but found ${show()}`);
        string();
        ws();
        if (text[i] !== ':') fail(`expected ":" but found ${show()}`);
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail(`expected "," or "}" but found ${show()}`);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail(`expected "," or "]" but found ${show()}`);
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail(`unexpected ${show()}`);
    i += m![0].length;
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${show()} after the end of the JSON value`);
    return undefined;
  } catch (err) {
    const at = (err as { at?: number }).at ?? i;
    const before = text.slice(0, at).split('\n');
    return { line: before.length, column: before.at(-1)!.length + 1, message: (err as Error).message };
  }
}
