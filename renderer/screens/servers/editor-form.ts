/**
 * The server editor's form model: plain strings as the person types them (arguments one per line,
 * env as `KEY=value` lines, headers as `Name: value` lines), and the conversion to the entry the
 * API takes, validated with the same zod schema main uses — every problem as a message per field
 * (the form's own messages in the UI language: i18next's instance, namespace `servers`; the
 * schema's messages are the shared contract's, in English).
 */
import i18next from 'i18next';
import { ServerEntryInputSchema, ServerNameSchema, type ServerEntryInput } from '../../../shared/contract/servers.js';
import { sayEnglish } from '../../i18n/say.js';

/** What the form holds. */
export interface EditorForm {
  name: string;
  transport: 'stdio' | 'http' | 'sse';
  command: string;
  /** One argument per line. */
  args: string;
  /** `KEY=value` per line. */
  env: string;
  cwd: string;
  /** stdio only: launch it with the console's provider gateway (OpenAI / Anthropic base URL and key variables). */
  providerGateway: boolean;
  url: string;
  /** `Name: value` per line. */
  headers: string;
  disabled: boolean;
  timeoutMs: string;
  maxToolRounds: string;
  protocol: string;
}

/** Field names of the form (error keys). */
export type FormField = keyof EditorForm;

/** An empty form for a new server. */
export const emptyForm = (): EditorForm => ({
  name: '',
  transport: 'stdio',
  command: '',
  args: '',
  env: '',
  cwd: '',
  providerGateway: false,
  url: '',
  headers: '',
  disabled: false,
  timeoutMs: '',
  maxToolRounds: '',
  protocol: '',
});

/** The form for an existing entry (as `getServerEntry` returns it). */
export function formFromEntry(name: string, entry: ServerEntryInput): EditorForm {
  const form = emptyForm();
  form.name = name;
  form.transport = entry.transport;
  form.disabled = entry.disabled === true;
  form.timeoutMs = entry.timeoutMs !== undefined ? String(entry.timeoutMs) : '';
  form.maxToolRounds = entry.maxToolRounds !== undefined ? String(entry.maxToolRounds) : '';
  form.protocol = entry.protocol ?? '';
  if (entry.transport === 'stdio') {
    form.command = entry.command;
    form.args = (entry.args ?? []).join('\n');
    form.env = Object.entries(entry.env ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join('\n');
    form.cwd = entry.cwd ?? '';
    form.providerGateway = entry.providerGateway === true;
  } else {
    form.url = entry.url;
    form.headers = Object.entries(entry.headers ?? {})
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n');
  }
  return form;
}

const lines = (text: string) => text.split(/\r?\n/);

/** Parses `sep`-separated lines into a map; blank lines are skipped. */
function parsePairs(text: string, sep: '=' | ':'): { value: Record<string, string> } | { error: string } {
  const value: Record<string, string> = {};
  for (const [i, raw] of lines(text).entries()) {
    if (!raw.trim()) continue;
    const at = raw.indexOf(sep);
    if (at <= 0) return { error: i18next.t('servers:editorForm.expectedPair', { line: i + 1, format: sep === '=' ? 'KEY=value' : 'Name: value' }) };
    const key = raw.slice(0, at).trim();
    if (key in value) return { error: i18next.t(sep === '=' ? 'servers:editorForm.duplicateVariable' : 'servers:editorForm.duplicateHeader', { line: i + 1, key }) };
    value[key] = sep === ':' ? raw.slice(at + 1).trim() : raw.slice(at + 1);
  }
  return { value };
}

const optionalInt = (text: string): number | undefined | 'bad' => {
  if (!text.trim()) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : 'bad';
};

/** Maps a zod issue path of the entry to the form field it came from. */
function fieldOf(path: PropertyKey[]): FormField {
  const first = String(path[0] ?? 'name');
  return (['command', 'args', 'env', 'cwd', 'url', 'headers', 'timeoutMs', 'maxToolRounds', 'protocol'] as const).find((f) => f === first) ?? 'name';
}

/**
 * The entry for the API, or the problems by field (first problem of each field).
 */
export function entryFromForm(form: EditorForm): { ok: true; name: string; entry: ServerEntryInput } | { ok: false; errors: Partial<Record<FormField, string>> } {
  const errors: Partial<Record<FormField, string>> = {};
  const name = ServerNameSchema.safeParse(form.name);
  if (!name.success) errors.name = sayEnglish(i18next, name.error.issues[0]!.message);
  const timeoutMs = optionalInt(form.timeoutMs);
  const maxToolRounds = optionalInt(form.maxToolRounds);
  if (timeoutMs === 'bad') errors.timeoutMs = i18next.t('servers:editorForm.timeoutNotNumber');
  if (maxToolRounds === 'bad') errors.maxToolRounds = i18next.t('servers:editorForm.roundsNotNumber');
  const common = {
    disabled: form.disabled || undefined,
    timeoutMs: timeoutMs === 'bad' ? undefined : timeoutMs,
    maxToolRounds: maxToolRounds === 'bad' ? undefined : maxToolRounds,
    protocol: form.protocol.trim() || undefined,
  };
  let candidate: ServerEntryInput;
  if (form.transport === 'stdio') {
    const env = parsePairs(form.env, '=');
    if ('error' in env) errors.env = env.error;
    candidate = {
      transport: 'stdio',
      command: form.command,
      args: lines(form.args).filter((l) => l.length > 0),
      env: 'value' in env ? env.value : {},
      cwd: form.cwd.trim() || undefined,
      providerGateway: form.providerGateway || undefined,
      ...common,
    };
  } else {
    const headers = parsePairs(form.headers, ':');
    if ('error' in headers) errors.headers = headers.error;
    candidate = { transport: form.transport, url: form.url.trim(), headers: 'value' in headers ? headers.value : {}, ...common };
  }
  const parsed = ServerEntryInputSchema.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue.path);
      const where = issue.path.length > 1 ? `${issue.path.slice(1).join('.')}: ` : '';
      errors[field] ??= `${where}${sayEnglish(i18next, issue.message)}`;
    }
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, name: form.name, entry: candidate };
}
