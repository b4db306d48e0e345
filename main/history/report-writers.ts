/**
 * The readable report in two formats, from the same model (report-model.ts).
 *
 * Server-supplied text is untrusted: a server can put anything in a prompt, a tool name or its own
 * id. In HTML every text goes through {@link escapeHtml} and the document carries a CSP that
 * forbids scripts, so nothing a server wrote can run or load anything when the report is opened.
 * In Markdown, texts go in fenced code blocks whose fence is longer than any backtick run inside
 * (so they render literally, raw HTML included) and one-line values are backslash-escaped.
 */
import type { ReportBlock, ReportSession } from './report-model.js';

/** Header facts of a report: when it was made and what it holds. */
export interface ReportHeader {
  title: string;
  /** Lines such as "Exported 2026-11-20 14:03Z", "3 sessions, 5 requests", "Filter: …". */
  lines: string[];
}

/** Escapes text for HTML element content and quoted attribute values (& < > " '). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Escapes one line of text for Markdown inline context (no formatting, no raw HTML). */
export function escapeMarkdownInline(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/[\\`*_{}[\]()#+\-.!|<>&~]/g, (c) => `\\${c}`);
}

/** A fenced code block that shows `text` literally, whatever backticks it contains. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}text\n${text}\n${f}`;
}

/** The report as Markdown. */
export function reportMarkdown(header: ReportHeader, sessions: readonly ReportSession[]): string {
  const out: string[] = [`# ${escapeMarkdownInline(header.title)}`, '', ...header.lines.map((l) => `${escapeMarkdownInline(l)}  `), ''];
  for (const s of sessions) {
    out.push(`## ${escapeMarkdownInline(s.title)}`, '', ...factsMarkdown(s.facts), '');
    for (const r of s.requests) {
      out.push(`### ${escapeMarkdownInline(r.title)}`, '', ...factsMarkdown(r.facts), '');
      for (const p of r.parts) {
        out.push(`#### ${escapeMarkdownInline(p.heading)}`, '');
        for (const b of p.blocks) out.push(...blockMarkdown(b), '');
      }
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}

function factsMarkdown(facts: ReadonlyArray<[string, string]>): string[] {
  return ['| | |', '| --- | --- |', ...facts.map(([k, v]) => `| ${escapeMarkdownInline(k)} | ${escapeMarkdownInline(v)} |`)];
}

function blockMarkdown(b: ReportBlock): string[] {
  if (b.kind === 'note') return [`*${escapeMarkdownInline(b.text)}*`];
  return [...(b.label ? [`**${escapeMarkdownInline(b.label)}**`, ''] : []), fence(b.text)];
}

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1d2330}
h1{font-size:1.6rem}h2{margin-top:2.5rem;border-bottom:2px solid #d8dde6;padding-bottom:.2rem}
h3{margin-top:1.6rem}h4{margin:1rem 0 .3rem;color:#4a5568}
table{border-collapse:collapse;margin:.4rem 0}td,th{border:1px solid #d8dde6;padding:2px 8px;text-align:left;vertical-align:top}
th{background:#f3f5f8;font-weight:600}pre{background:#f6f8fa;border:1px solid #d8dde6;border-radius:4px;padding:.5rem .7rem;white-space:pre-wrap;word-break:break-word}
.note{color:#4a5568;font-style:italic;margin:.2rem 0}.label{font-weight:600;margin:.4rem 0 .1rem}`;

/** The report as a self-contained HTML document (no scripts, no external resources). */
export function reportHtml(header: ReportHeader, sessions: readonly ReportSession[]): string {
  const out: string[] = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(header.title)}</title><style>${CSS}</style></head><body>`,
    `<h1>${escapeHtml(header.title)}</h1>`,
    ...header.lines.map((l) => `<p>${escapeHtml(l)}</p>`),
  ];
  for (const s of sessions) {
    out.push(`<section><h2>${escapeHtml(s.title)}</h2>`, factsHtml(s.facts));
    for (const r of s.requests) {
      out.push(`<article><h3>${escapeHtml(r.title)}</h3>`, factsHtml(r.facts));
      for (const p of r.parts) {
        out.push(`<h4>${escapeHtml(p.heading)}</h4>`);
        for (const b of p.blocks) out.push(blockHtml(b));
      }
      out.push('</article>');
    }
    out.push('</section>');
  }
  out.push('</body></html>');
  return `${out.join('\n')}\n`;
}

function factsHtml(facts: ReadonlyArray<[string, string]>): string {
  return `<table>${facts.map(([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>`;
}

function blockHtml(b: ReportBlock): string {
  if (b.kind === 'note') return `<p class="note">${escapeHtml(b.text)}</p>`;
  return `${b.label ? `<p class="label">${escapeHtml(b.label)}</p>` : ''}<pre>${escapeHtml(b.text)}</pre>`;
}
