/**
 * RFC 6570 URI templates as resource templates use them: the variables a template names, and its
 * expansion with the values the person typed. Supports the simple (`{var}`), reserved (`{+var}`),
 * fragment (`{#var}`), path (`{/var}`), label (`{.var}`), and query (`{?a,b}`, `{&a}`) operators,
 * with comma-separated variable lists; `:prefix` and `*` modifiers are accepted and ignored.
 */

const EXPRESSION = /\{([+#./;?&]?)([^{}]+)\}/g;

/** The variable names of a template, in order, without duplicates. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const m of template.matchAll(EXPRESSION)) {
    for (const raw of m[2]!.split(',')) {
      const name = raw.split(/[:*]/)[0]!.trim();
      if (name && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

const encode = (value: string, reserved: boolean) =>
  reserved ? encodeURI(value).replace(/%25([0-9A-Fa-f]{2})/g, '%$1') : encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Expands `template` with `values` (missing or empty variables are left out, as RFC 6570 says). */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(EXPRESSION, (_whole, op: string, list: string) => {
    const vars = list
      .split(',')
      .map((raw) => raw.split(/[:*]/)[0]!.trim())
      .filter((name) => values[name] !== undefined && values[name] !== '');
    if (vars.length === 0) return '';
    const reserved = op === '+' || op === '#';
    const parts = vars.map((name) => encode(values[name]!, reserved));
    switch (op) {
      case '#':
        return `#${parts.join(',')}`;
      case '/':
        return `/${parts.join('/')}`;
      case '.':
        return `.${parts.join('.')}`;
      case ';':
        return vars.map((name, i) => `;${name}=${parts[i]}`).join('');
      case '?':
      case '&':
        return `${op}${vars.map((name, i) => `${name}=${parts[i]}`).join('&')}`;
      default:
        return parts.join(',');
    }
  });
}
