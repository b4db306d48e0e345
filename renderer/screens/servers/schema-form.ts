/**
 * Pure helpers for the tool form: reading a tool's JSON Schema (`inputSchema`) into fields and
 * turning the form's raw input values back into call arguments, with readable errors (in the UI
 * language: i18next's instance, which renderer/i18n initialises; namespace `servers`).
 */
import i18next from 'i18next';

/** The kind of input a schema property gets. */
export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';

/** One form field derived from a schema property. */
export interface FormField {
  name: string;
  kind: FieldKind;
  required: boolean;
  title?: string;
  description?: string;
  default?: unknown;
  /** Allowed values for `enum` fields. */
  options?: unknown[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function kindOf(schema: Record<string, unknown>): FieldKind {
  if (Array.isArray(schema.enum)) return 'enum';
  let type = schema.type;
  if (Array.isArray(type)) type = type.find((t) => t !== 'null');
  if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') return type;
  return 'json';
}

/** The fields of an object schema, in property order. */
export function schemaFields(inputSchema: Record<string, unknown>): FormField[] {
  const props = isRecord(inputSchema.properties) ? inputSchema.properties : {};
  const required = new Set(Array.isArray(inputSchema.required) ? inputSchema.required.filter((r): r is string => typeof r === 'string') : []);
  return Object.entries(props).map(([name, raw]) => {
    const schema = isRecord(raw) ? raw : {};
    const kind = kindOf(schema);
    return {
      name,
      kind,
      required: required.has(name),
      title: typeof schema.title === 'string' ? schema.title : undefined,
      description: typeof schema.description === 'string' ? schema.description : undefined,
      default: schema.default,
      options: kind === 'enum' ? (schema.enum as unknown[]) : undefined,
    };
  });
}

/** Raw form values: text for inputs, `"" | "true" | "false"` for booleans, JSON of the enum value. */
export type FormValues = Record<string, string>;

/** The form's starting values: every default filled in. */
export function initialValues(fields: FormField[]): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    if (f.default === undefined) values[f.name] = '';
    else if (f.kind === 'enum') values[f.name] = JSON.stringify(f.default);
    else if (f.kind === 'json') values[f.name] = JSON.stringify(f.default, null, 2);
    else values[f.name] = String(f.default);
  }
  return values;
}

/** Arguments built from the form, or the errors by field name. */
export type BuiltArgs = { ok: true; args: Record<string, unknown> } | { ok: false; errors: Record<string, string> };

/** Turns raw form values into call arguments; empty optional fields are left out. */
export function buildArgs(fields: FormField[], values: FormValues): BuiltArgs {
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const raw = values[f.name] ?? '';
    if (raw.trim() === '' && f.kind !== 'string') {
      if (f.required) errors[f.name] = i18next.t('servers:schemaForm.required');
      continue;
    }
    if (raw === '' && f.kind === 'string') {
      if (f.required) errors[f.name] = i18next.t('servers:schemaForm.required');
      continue;
    }
    switch (f.kind) {
      case 'string':
        args[f.name] = raw;
        break;
      case 'number':
      case 'integer': {
        const n = Number(raw);
        if (!Number.isFinite(n)) errors[f.name] = i18next.t('servers:schemaForm.notANumber');
        else if (f.kind === 'integer' && !Number.isInteger(n)) errors[f.name] = i18next.t('servers:schemaForm.notWhole');
        else args[f.name] = n;
        break;
      }
      case 'boolean':
        args[f.name] = raw === 'true';
        break;
      case 'enum':
      case 'json':
        try {
          args[f.name] = JSON.parse(raw);
        } catch (err) {
          errors[f.name] = i18next.t('servers:schemaForm.invalidJson', { message: err instanceof Error ? err.message : String(err) });
        }
        break;
    }
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, args };
}

/** Parses the Raw JSON editor: it must hold a JSON object. */
export function parseRawArgs(text: string): { ok: true; args: Record<string, unknown> } | { ok: false; error: string } {
  if (text.trim() === '') return { ok: true, args: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (!isRecord(value)) return { ok: false, error: i18next.t('servers:schemaForm.notAnObject') };
    return { ok: true, args: value };
  } catch (err) {
    return { ok: false, error: i18next.t('servers:schemaForm.parseError', { message: err instanceof Error ? err.message : String(err) }) };
  }
}
