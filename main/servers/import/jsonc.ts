/**
 * JSON with comments (VS Code's `mcp.json` and settings files are JSONC): `//` and `/* *\/`
 * comments and trailing commas are blanked out — replaced by spaces, newlines kept — so that
 * `JSON.parse` positions (and the line numbers reported from them) still match the file.
 */

/**
 * Returns `text` with comments and trailing commas replaced by spaces (same length, same lines).
 * Strings (with their escapes) are left exactly as they are.
 */
export function blankJsonc(text: string): string {
  const out = text.split('');
  let i = 0;
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n' && out[k] !== '\r') out[k] = ' ';
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      blank(i, stop);
      i = stop;
    } else {
      i++;
    }
  }
  // Trailing commas (a comma followed, through blanks, by } or ]), again outside strings.
  for (let j = 0; j < out.length; j++) {
    if (out[j] === '"') {
      j++;
      while (j < out.length && out[j] !== '"') j += out[j] === '\\' ? 2 : 1;
    } else if (out[j] === ',') {
      let k = j + 1;
      while (k < out.length && /\s/.test(out[k]!)) k++;
      if (out[k] === '}' || out[k] === ']') out[j] = ' ';
    }
  }
  return out.join('');
}

/**
 * Parses JSONC.
 * @throws SyntaxError from JSON.parse (positions match the original text)
 */
export function parseJsonc(text: string): unknown {
  return JSON.parse(blankJsonc(text));
}
