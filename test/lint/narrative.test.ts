/**
 * The repository states what is true now and why; how the work went lives in git and in
 * CHANGELOG.md. This check reads every source, test, script and documentation file (not
 * CHANGELOG.md, and not docs/performance.md, which `npm run bench -- --report` generates from one
 * run) and fails on the forms a narrative takes: dated entries, numbered work sessions,
 * "before → after" figures, what was tried, issue numbers, and files outside the repository.
 * A comment's rationale with a measured cost ("costs ≈ 1 ms per call") is fine.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FOLDERS = ['main', 'shared', 'renderer', 'app', 'bench', 'scripts', 'test', 'e2e', '.ci', 'docs'];
const TOP_FILES = ['README.md', 'package.json', 'electron-builder.yml', 'eslint.config.js', '.dependency-cruiser.cjs', 'playwright.config.ts', 'vitest.config.ts', 'electron.vite.config.ts'];
const TEXT = /\.(?:ts|tsx|mts|cts|js|mjs|cjs|json|md|css|html|yml|yaml|py|txt|sh)$|^run$/;
const SKIPPED = new Set(['docs/performance.md', 'test/lint/narrative.test.ts']);
const SKIPPED_DIRS = new Set(['node_modules', 'out', 'dist', 'release', 'test-results', 'playwright-report', 'artifacts', '.venv', '__pycache__', 'images']);

/** A form a narrative takes, with what it stands for (shown when it is found). */
interface Pattern {
  what: string;
  re: RegExp;
}

const UNIT = String.raw`(?:ms|s|µs|MB|KB|kB|GB|B|%|req\/s|entries\/s)`;
const ORDINAL = 'third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth';
/** A calendar date that is not a protocol revision (those name eras: "on 2026-07-28"). */
const DATE = String.raw`(?!2024-11-05|2025-03-26|2025-06-18|2025-11-25|2026-07-28)20\d\d-[01]\d-[0-3]\d\b`;

/** The forms looked for; each is checked against an example below, so none can silently stop matching. */
const NARRATIVE: readonly Pattern[] = [
  { what: 'a dated entry', re: new RegExp(String.raw`^\s*(?:[-*>#]+ *)?(?:\*\*)?${DATE}(?:\*\*)?[,:]`) },
  { what: 'a figure dated by when it was measured', re: new RegExp(String.raw`\b(?:before|after|since|until|as of|on) ${DATE}`, 'i') },
  { what: 'a numbered work session', re: new RegExp(String.raw`\b(?:${ORDINAL}) session\b|\bsession(?:'|’)s (?:start|starting|run|table|end|commit|bench|work)\b|\bthis session(?:'|’)s\b`, 'i') },
  { what: 'a lab-notebook heading', re: /^#+ *(?:this run|what dominated|what was fixed|earlier|history of)\b/i },
  { what: 'a "before → after" figure', re: new RegExp(String.raw`\d ?${UNIT}? ?(?:→|->) ?\**\d[\d.,]*\** ?${UNIT}(?![\w/])`) },
  { what: 'a "before → after" figure', re: /\bbefore\s*(?:→|->)\s*after\s*[(|]|\bbefore\/after\b|\bwent from [\d.]+/i },
  { what: 'what was tried', re: /\b(?:was|were) tried and\b|\bwe tried\b|\btried and (?:dropped|reverted|abandoned)\b|\bas a trial\b/i },
  { what: 'an issue number', re: /\b(?:issue|PR|pull request) #\d+\b|\b(?:see|in|from|per|for|by|fixes|closes|after|before) issue \d+\b/i },
  { what: 'a file outside the repository', re: /\/work\/|\bHELPER-BRIEF\b|\bbrief\.md\b|\bSPEC-[A-Z]{3,}\b/ },
];

/** Every text file the check reads, relative to the repository root. */
function files(): string[] {
  const out = TOP_FILES.filter((f) => statSync(path.join(ROOT, f), { throwIfNoEntry: false })?.isFile());
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(rel);
      } else if (TEXT.test(entry.name) && !SKIPPED.has(rel)) out.push(rel);
    }
  };
  for (const dir of FOLDERS) if (statSync(path.join(ROOT, dir), { throwIfNoEntry: false })?.isDirectory()) walk(dir);
  return out;
}

/** `file:line: what — the line` for every line of `text` that matches a pattern. */
function findings(file: string, text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const p of NARRATIVE) if (p.re.test(line)) out.push(`${file}:${i + 1}: ${p.what} — ${line.trim().slice(0, 160)}`);
  });
  return out;
}

describe('no narrative of how the work went', () => {
  it('each form is found in an example of it, and not in current rationale', () => {
    const narrative = [
      '**2026-11-26, tenth session: tool results in a review.**',
      'Figures from `npm run bench` on 2026-11-22 (Node 22.23)',
      '(the floor of figures before 2026-11-25)',
      'renderer figures alternating with the session\'s start, 730d4c8',
      '(seventh session; before, in idle periods)',
      '### This run',
      'main CPU per request 3.80 → 3.67 ms, alternating runs',
      '| 25,400 → **2,600 B** |',
      'before → after (median, range)',
      '| what a window was sent | before → after | where |',
      'a hand-written fetch was tried and dropped',
      '(removing the wait, as a trial, took a sequential p50 from 5.3 to 3.3 ms)',
      'see issue 31 for the walk',
      'as the brief says (/work/shared/brief.md)',
      'model choice (SPEC-SAMPLING "Model preferences")',
    ];
    for (const line of narrative) expect(findings('x.md', line), line).not.toEqual([]);
    const current = [
      'a first call costs ≈ 1 ms per call (measured on Node 22)',
      'protocol 2025-11-25 (push era) and 2026-07-28 (input_required)',
      'HTTP+SSE is deprecated (since protocol 2025-03-26)',
      'a second session in the era a tool needs',
      'HTTP exchanges of this session being answered now',
      'the gateway listens on a free port for this run and says so',
      'a 401 → sign in; 5xx → Retry',
      'Lines such as "Exported 2026-11-20 14:03Z"',
      'G then Q → Queue, Mod+1 → the first screen',
      'a token bucket refilled over a minute (0 → 60 requests)',
      'on 2025-11-25, push-style tools; on 2026-07-28, guard-style ones',
      '2025-11-25, input_required ones 2026-07-28): the console calls it on a session of that era',
      'A compact table of fields before → after; changed rows are highlighted.',
      'the error once a get was tried without it',
      'prompt: "Summarise issue 12", maxTokens: 100',
    ];
    for (const line of current) expect(findings('x.md', line), line).toEqual([]);
  });

  it('no file of the repository narrates', () => {
    const all = files();
    expect(all.length).toBeGreaterThan(300);
    expect(all.flatMap((f) => findings(f, readFileSync(path.join(ROOT, f), 'utf8')))).toEqual([]);
  });
});
