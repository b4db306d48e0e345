/**
 * The documentation's relative links resolve: every link and image in README.md, CHANGELOG.md and
 * docs/*.md that points into the repository names a file that exists, and every `#anchor` (on its
 * own or after a Markdown file) names a heading of that file, as GitHub makes heading ids.
 * Markdown is read with `marked`'s lexer, so links inside code are not links.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { marked, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The documentation files, relative to the root. */
function docFiles(): string[] {
  const docs = readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  return ['README.md', 'CHANGELOG.md', ...docs].filter((f) => existsSync(path.join(ROOT, f)));
}

/** Every token of `tokens`, depth first (inline tokens, list items and table cells included). */
function* walk(tokens: readonly Token[]): Generator<Token> {
  for (const t of tokens) {
    yield t;
    const children: Token[] = [];
    if ('tokens' in t && Array.isArray(t.tokens)) children.push(...t.tokens);
    if (t.type === 'list') children.push(...(t as Tokens.List).items);
    if (t.type === 'table') {
      const table = t as Tokens.Table;
      for (const cell of [...table.header, ...table.rows.flat()]) children.push(...cell.tokens);
    }
    yield* walk(children);
  }
}

/** A heading's text as rendered (code spans and emphasis reduced to their text). */
function plainText(tokens: readonly Token[]): string {
  return tokens
    .map((t) => {
      if ('tokens' in t && Array.isArray(t.tokens) && t.tokens.length > 0) return plainText(t.tokens);
      return 'text' in t && typeof t.text === 'string' ? t.text : '';
    })
    .join('');
}

/** GitHub's heading id: lower case, punctuation dropped, each space a hyphen. */
function githubSlug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown text's headings, with GitHub's `-1`, `-2` … for repeats. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const t of walk(marked.lexer(markdown))) {
    if (t.type !== 'heading') continue;
    const slug = githubSlug(plainText((t as Tokens.Heading).tokens));
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** The link and image targets of a Markdown text that point into the repository. */
function relativeTargets(markdown: string): string[] {
  const out: string[] = [];
  for (const t of walk(marked.lexer(markdown))) {
    if (t.type !== 'link' && t.type !== 'image') continue;
    const href = (t as Tokens.Link | Tokens.Image).href;
    if (!/^[a-z][a-z\d+.-]*:/i.test(href)) out.push(href);
  }
  return out;
}

/**
 * What is wrong with each relative link of `text`, the contents of `file` (relative to the root):
 * a missing file, or a missing heading for its anchor.
 */
function brokenLinks(file: string, text = readFileSync(path.join(ROOT, file), 'utf8')): string[] {
  const problems: string[] = [];
  for (const href of relativeTargets(text)) {
    const [target = '', anchor] = href.split('#', 2);
    const resolved = target === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponent(target)));
    if (target !== '' && !existsSync(path.join(ROOT, resolved))) {
      problems.push(`${file}: ${href} — no file ${resolved}`);
      continue;
    }
    if (anchor === undefined || !resolved.endsWith('.md')) continue;
    const headings = anchorsOf(target === '' ? text : readFileSync(path.join(ROOT, resolved), 'utf8'));
    if (!headings.has(anchor)) problems.push(`${file}: ${href} — no heading #${anchor} in ${resolved}`);
  }
  return problems;
}

describe('documentation links', () => {
  it('heading ids are made as GitHub makes them', () => {
    expect(githubSlug('Drafts: nothing you type is lost')).toBe('drafts-nothing-you-type-is-lost');
    expect(githubSlug('mcp-servers.json')).toBe('mcp-serversjson');
    expect(githubSlug('command: "node" in packaged builds')).toBe('command-node-in-packaged-builds');
    expect(githubSlug('Spec rules → tests')).toBe('spec-rules--tests');
    expect([...anchorsOf('# A\n## `code` here\n## A\n')]).toEqual(['a', 'code-here', 'a-1']);
  });

  it('finds a link to a missing file and to a missing heading, and ignores URLs and code', () => {
    const md = '# Here\n\n[a](none.md) [b](#nowhere) [c](https://example.com/x) `[d](missing.md)` ![e](images/none.png) [f](#here) [g](servers.md#no-such-part) [h](servers.md#protocol-eras)\n';
    expect(relativeTargets(md)).toEqual(['none.md', '#nowhere', 'images/none.png', '#here', 'servers.md#no-such-part', 'servers.md#protocol-eras']);
    expect(brokenLinks('docs/x.md', md)).toEqual([
      'docs/x.md: none.md — no file docs/none.md',
      'docs/x.md: #nowhere — no heading #nowhere in docs/x.md',
      'docs/x.md: images/none.png — no file docs/images/none.png',
      'docs/x.md: servers.md#no-such-part — no heading #no-such-part in docs/servers.md',
    ]);
  });

  it('every relative link in README.md, CHANGELOG.md and docs/ resolves', () => {
    const files = docFiles();
    expect(files).toContain('README.md');
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((f) => brokenLinks(f))).toEqual([]);
  });
});
