/**
 * Sensitive data in a text: likely secrets and personal data, found before a sampling request is
 * sent (the MCP sampling spec, "Security considerations" 5: both sides MUST handle sensitive data
 * properly). What is done with the findings — placeholders, redacted requests — is in
 * ./redaction.ts.
 *
 * Detectors: API keys and tokens of common formats (OpenAI, Anthropic, GitHub, GitLab, AWS, Google,
 * Slack, Stripe, npm, SendGrid, Hugging Face, JWTs, `Bearer …`, `api_key=…` assignments), PEM
 * private keys, passwords in URLs (`https://user:PASSWORD@host`, only the password is replaced),
 * e-mail addresses, phone numbers (libphonenumber-js: numbers written with `+country`, and national
 * numbers when a default region is set), card numbers (13–19 digits passing the Luhn check), plus
 * the person's own patterns (settings). Secret scanners such as secretlint are asynchronous and
 * Node-bound; the console decides synchronously in main and highlights in the renderer, so the
 * secret formats are kept here as careful own patterns.
 *
 * Pure: no Node, no DOM. Offsets are UTF-16 code-unit indices into the scanned string.
 */
import { findPhoneNumbersInText, type CountryCode } from 'libphonenumber-js';
import { z } from 'zod';
import { UserPatternSchema, userPatternMatches, userPatternProblem } from './user-pattern.js';
import { UI_TEXTS } from '../contract/ui-text-catalog.js';

/** Kinds of sensitive data. `custom` findings carry the pattern id in `detector`. */
export const SENSITIVE_KINDS = ['api_key', 'token', 'private_key', 'password', 'email', 'phone', 'card', 'custom'] as const;
/** See {@link SENSITIVE_KINDS}. */
export type SensitiveKind = (typeof SENSITIVE_KINDS)[number];

/**
 * A pattern the person adds in settings: a regular expression in RE2 syntax, run on re2js in
 * linear time (./user-pattern.ts; look-ahead and back-references are refused on save).
 */
export const CustomPatternSchema = z.object({
  /** Short id, also the placeholder's type: `[REDACTED:<id>]`. */
  id: z.string().regex(/^[a-z0-9_-]{1,40}$/i, 'use 1–40 letters, digits, "_" or "-"'),
  label: z.string().trim().min(1).max(100),
  regex: UserPatternSchema,
  /** Case-insensitive when true. */
  ignoreCase: z.boolean().optional(),
});
/** See {@link CustomPatternSchema}. */
export type CustomPattern = z.infer<typeof CustomPatternSchema>;


/** Detection settings: the person's patterns, and the region national phone numbers are read in. */
export interface DetectOptions {
  patterns?: readonly CustomPattern[];
  /** ISO 3166 alpha-2 region (e.g. "US", "DE") for numbers written without `+`; absent = only `+…` numbers. */
  phoneRegion?: string;
}

/** One finding in one string: `[start, end)` of `text`. */
export interface Finding {
  kind: SensitiveKind;
  /** Which detector found it ("openai", "email", "luhn", the custom pattern id …). */
  detector: string;
  /** A readable name: "OpenAI API key", "E-mail address". */
  label: string;
  start: number;
  end: number;
  /** The matched text (only ever shown to the person, never logged). */
  value: string;
}

/**
 * A built-in detector. Each pattern is a literal (so `npm run lint`'s regexp rules check it) and
 * linear on any input: every unbounded run is entered only at its start (a literal prefix, or a
 * look-behind saying the previous character cannot continue the run), so the engine never
 * re-scans a long run from each of its positions.
 */
interface Detector {
  id: string;
  kind: SensitiveKind;
  label: string;
  re: RegExp;
  /** The capture group holding the secret (the rest of the match is context); 0 = whole match. */
  group?: number;
  check?: (value: string) => boolean;
}

/** "token: the next step" is prose, not a secret: a value needs a digit or a symbol. */
const looksSecret = (v: string): boolean => /[0-9]/.test(v) || /[^A-Za-z_.-]/.test(v);

/** Built-in detectors, most specific first (earlier wins when two overlap at the same start). Private keys: {@link privateKeys}. */
const DETECTORS: readonly Detector[] = [
  { id: 'anthropic', kind: 'api_key', label: UI_TEXTS['detector.anthropic'], re: /(?<![\w-])sk-ant-[a-z0-9]+-[\w-]{20,}(?![\w-])/g },
  { id: 'openai', kind: 'api_key', label: UI_TEXTS['detector.openai'], re: /(?<![\w-])sk-(?:proj-|svcacct-|admin-|None-)?[\w-]{20,}(?![\w-])/g },
  { id: 'github', kind: 'token', label: UI_TEXTS['detector.github'], re: /(?<![\w-])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_\w{22,255})(?![\w-])/g },
  { id: 'gitlab', kind: 'token', label: UI_TEXTS['detector.gitlab'], re: /(?<![\w-])glpat-[\w-]{20,}(?![\w-])/g },
  { id: 'aws_access_key', kind: 'api_key', label: UI_TEXTS['detector.awsAccessKey'], re: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  {
    id: 'aws_secret',
    kind: 'api_key',
    label: UI_TEXTS['detector.awsSecret'],
    re: /aws_?secret_?access_?key["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    group: 1,
  },
  { id: 'google', kind: 'api_key', label: UI_TEXTS['detector.google'], re: /(?<![\w-])AIza[\w-]{35}(?![\w-])/g },
  { id: 'slack', kind: 'token', label: UI_TEXTS['detector.slack'], re: /(?<![\w-])xox[abposr]-[A-Za-z0-9-]{10,}(?![\w-])/g },
  { id: 'slack_webhook', kind: 'token', label: UI_TEXTS['detector.slackWebhook'], re: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,}/g },
  { id: 'stripe', kind: 'api_key', label: UI_TEXTS['detector.stripe'], re: /(?<![\w-])[prs]k_(?:live|test)_[A-Za-z0-9]{16,}(?![\w-])/g },
  { id: 'npm', kind: 'token', label: UI_TEXTS['detector.npm'], re: /(?<![\w-])npm_[A-Za-z0-9]{36}(?![\w-])/g },
  { id: 'sendgrid', kind: 'api_key', label: UI_TEXTS['detector.sendgrid'], re: /(?<![\w-])SG\.[\w-]{22}\.[\w-]{43}(?![\w-])/g },
  { id: 'huggingface', kind: 'token', label: UI_TEXTS['detector.huggingface'], re: /(?<![\w-])hf_[A-Za-z0-9]{34,}(?![\w-])/g },
  { id: 'jwt', kind: 'token', label: UI_TEXTS['detector.jwt'], re: /(?<![\w-])eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}(?![\w-])/g },
  { id: 'bearer', kind: 'token', label: UI_TEXTS['detector.bearer'], re: /\bBearer\s+([A-Za-z0-9._~+/-]{20,}=*)/g, group: 1 },
  {
    id: 'url_password',
    kind: 'password',
    label: UI_TEXTS['detector.urlPassword'],
    re: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/?#@]+:([^\s/?#@]+)@[^\s/?#]+/gi,
    group: 1,
  },
  {
    id: 'password_assignment',
    kind: 'password',
    label: UI_TEXTS['detector.password'],
    re: /\b(?:password|passwd|pwd)["']?\s*[:=]\s*["']?([^\s"',;]{6,})/gi,
    group: 1,
    check: (v) => looksSecret(v),
  },
  {
    id: 'assignment',
    kind: 'api_key',
    label: UI_TEXTS['detector.secretAssignment'],
    re: /\b(?:api[_-]?key|apikey|secret[_-]?key|client[_-]?secret|access[_-]?token|auth[_-]?token|secret|token)["']?\s*[:=]\s*["']?([^\s"',;]{8,})/gi,
    group: 1,
    check: (v) => looksSecret(v),
  },
  {
    id: 'email',
    kind: 'email',
    label: UI_TEXTS['detector.email'],
    re: /(?<![\w.!#$%&'*+/=?^`{|}~-])[\w.!#$%&'*+/=?^`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,}/g,
  },
  {
    id: 'luhn',
    kind: 'card',
    label: UI_TEXTS['detector.card'],
    re: /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g,
    check: (v) => luhnValid(v.replace(/[ -]/g, '')),
  },
];

/**
 * The Luhn checksum (ISO/IEC 7812) over a string of digits.
 * @returns false for anything but 13–19 digits
 */
export function luhnValid(digits: string): boolean {
  if (!/^\d{13,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Whether `region` is a two-letter region code libphonenumber knows the shape of. */
const isRegion = (region: string | undefined): region is CountryCode => !!region && /^[A-Z]{2}$/.test(region);

/** Where a phone number may be: `+` or `(` or a digit, then digits and separators, ending in a digit. */
const PHONE_CANDIDATE = /(?<![\w+(])[+(]?\d[\d ().-]{5,22}\d/g;
/** Fewest digits a phone number has (local numbers of the smallest plans). */
const PHONE_MIN_DIGITS = 7;

/** How many distinct candidates one scan remembers libphonenumber's answer for. */
const PHONE_MEMO_LIMIT = 10_000;

/** Digits in `s`. */
function digitCount(s: string): number {
  let digits = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) digits++;
  return digits;
}

/**
 * Phone numbers (libphonenumber-js): numbers written with `+country`, and national numbers when
 * `region` is set. libphonenumber scans at roughly 3 s per MB of digit-heavy text, so it is only
 * asked about short candidate windows a linear pattern finds first (without a region, only those
 * starting with `+`), each holding at least {@link PHONE_MIN_DIGITS} digits. One call costs up to
 * ~0.5 ms, so its answer is remembered per candidate text: repetitive digit runs ("12 12 12 …")
 * then cost one call per distinct window instead of one per window.
 */
function phoneNumbers(text: string, region: string | undefined): Finding[] {
  const out: Finding[] = [];
  const options = isRegion(region) ? { defaultCountry: region } : {};
  const memo = new Map<string, Array<{ startsAt: number; endsAt: number }>>();
  PHONE_CANDIDATE.lastIndex = 0;
  for (let m = PHONE_CANDIDATE.exec(text); m; m = PHONE_CANDIDATE.exec(text)) {
    const candidate = m[0];
    if (!isRegion(region) && candidate[0] !== '+') continue;
    if (digitCount(candidate) < PHONE_MIN_DIGITS) continue;
    let spans = memo.get(candidate);
    if (!spans) {
      spans = phoneSpans(candidate, options);
      if (memo.size < PHONE_MEMO_LIMIT) memo.set(candidate, spans);
    }
    for (const p of spans) {
      const start = m.index + p.startsAt;
      const end = m.index + p.endsAt;
      out.push({ kind: 'phone', detector: 'phone', label: UI_TEXTS['detector.phone'], start, end, value: text.slice(start, end) });
    }
  }
  return out;
}

/** Where libphonenumber finds numbers in one candidate window (offsets into it); none when it refuses the input. */
function phoneSpans(candidate: string, options: { defaultCountry?: CountryCode }): Array<{ startsAt: number; endsAt: number }> {
  try {
    return findPhoneNumbersInText(candidate, options).map((p) => ({ startsAt: p.startsAt, endsAt: p.endsAt }));
  } catch {
    return []; // libphonenumber refuses odd input; this candidate is then not a phone number
  }
}

const PEM_BEGIN = /-----BEGIN (?:(?:RSA|EC|DSA|OPENSSH|ENCRYPTED|PGP) )?PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = /-----END (?:(?:RSA|EC|DSA|OPENSSH|ENCRYPTED|PGP) )?PRIVATE KEY(?: BLOCK)?-----/g;

/**
 * PEM private keys: each END line with the nearest BEGIN line before it. Found with two
 * left-to-right scans rather than one lazy `[\s\S]*?` pattern, which re-scans the rest of the
 * text for every BEGIN without an END (quadratic on a text of many BEGIN lines).
 */
function privateKeys(text: string): Finding[] {
  const out: Finding[] = [];
  PEM_BEGIN.lastIndex = 0;
  PEM_END.lastIndex = 0;
  let begin = PEM_BEGIN.exec(text);
  while (begin) {
    PEM_END.lastIndex = Math.max(PEM_END.lastIndex, PEM_BEGIN.lastIndex);
    const end = PEM_END.exec(text);
    if (!end) break; // no END after this BEGIN: none after any later one either
    let next = PEM_BEGIN.exec(text);
    while (next && next.index < end.index) {
      begin = next; // a nearer BEGIN before the same END
      next = PEM_BEGIN.exec(text);
    }
    out.push({ kind: 'private_key', detector: 'private_key', label: UI_TEXTS['detector.privateKey'], start: begin.index, end: PEM_END.lastIndex, value: text.slice(begin.index, PEM_END.lastIndex) });
    while (next && next.index < PEM_END.lastIndex) next = PEM_BEGIN.exec(text);
    begin = next;
  }
  return out;
}

function matches(text: string, d: Detector): Finding[] {
  const out: Finding[] = [];
  const flags = new Set([...d.re.flags, 'g', 'd']);
  const re = new RegExp(d.re.source, [...flags].join(''));
  for (const m of text.matchAll(re)) {
    const span = m.indices?.[d.group ?? 0];
    if (!span || span[1] <= span[0]) continue;
    const value = text.slice(span[0], span[1]);
    if (d.check && !d.check(value)) continue;
    out.push({ kind: d.kind, detector: d.id, label: d.label, start: span[0], end: span[1], value });
  }
  return out;
}

/**
 * Finds sensitive data in one string. Overlapping findings are resolved so none overlap: the one
 * starting first wins, then the earlier detector (specific before generic: a URL's password before
 * an e-mail address, a key format before a generic `token=` assignment).
 * Custom patterns that fail to compile are skipped (the schema refuses them on input). Linear in
 * `text` for the built-in detectors and the person's patterns (re2js) alike.
 */
export function detectSensitive(text: string, options: DetectOptions = {}): Finding[] {
  if (!text) return [];
  const all: Array<Finding & { rank: number }> = [];
  DETECTORS.forEach((d, rank) => all.push(...matches(text, d).map((f) => ({ ...f, rank }))));
  all.push(...phoneNumbers(text, options.phoneRegion).map((f) => ({ ...f, rank: DETECTORS.length })));
  all.push(...privateKeys(text).map((f) => ({ ...f, rank: -1 })));
  (options.patterns ?? []).forEach((p, i) => {
    if (userPatternProblem(p.regex)) return;
    for (const { start, end } of userPatternMatches(p.regex, text, { ignoreCase: p.ignoreCase })) {
      all.push({ kind: 'custom', detector: p.id, label: p.label, start, end, value: text.slice(start, end), rank: DETECTORS.length + 1 + i });
    }
  });
  all.sort((a, b) => a.start - b.start || a.rank - b.rank);
  const kept: Finding[] = [];
  let reached = 0;
  for (const f of all) {
    if (f.start < reached) continue;
    const { rank: _rank, ...finding } = f;
    kept.push(finding);
    reached = f.end;
  }
  return kept;
}
