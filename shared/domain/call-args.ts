/**
 * A client request's arguments as one short line, to tell apart rows of the same tool:
 * `prompt: "Write a limerick", maxTokens: 100`. Pure.
 */

/** Characters one value keeps before "…". */
const VALUE_MAX = 40;

/**
 * `args` as `key: value` pairs in their order (strings quoted, objects and arrays as compact JSON),
 * each value cut to 40 characters and the whole line to `max` (default 120), with "…" where cut;
 * line breaks show as `\n` (JSON), runs of spaces as one. '' for no arguments.
 */
export function argumentsLine(args: Record<string, unknown> | undefined, max = 120): string {
  if (!args) return '';
  const parts = Object.entries(args).map(([key, value]) => {
    let text: string;
    try {
      text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
    } catch {
      text = String(value);
    }
    text = text.replace(/\s+/g, ' ');
    return `${key}: ${text.length > VALUE_MAX ? `${text.slice(0, VALUE_MAX - 1)}…` : text}`;
  });
  const line = parts.join(', ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
