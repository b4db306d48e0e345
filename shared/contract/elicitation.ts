/**
 * Elicitation (MCP 2025-11-25 "Elicitation"; not deprecated in 2026-07-28): a server asks the
 * person for structured input (form mode, a flat `requestedSchema`) or to visit a URL (URL mode).
 * The person accepts (with content valid against the schema), declines, or cancels.
 *
 * Zod schemas for the params and result, and the pure form logic (defaults, validation) used by
 * the renderer's generated form and re-checked in main before anything is sent.
 * No Node, DOM or Electron imports.
 */
import { z } from 'zod';
import { ui, type UiText } from './ui-text.js';

/** `{type: "string"}` with optional length bounds, format (email, uri, date, date-time), default. */
export const StringFieldSchema = z.looseObject({
  type: z.literal('string'),
  title: z.string().optional(),
  description: z.string().optional(),
  minLength: z.number().int().min(0).optional(),
  maxLength: z.number().int().min(0).optional(),
  format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
  default: z.string().optional(),
  /** Legacy single-select: `enum` of values, with `enumNames` as their titles. */
  enum: z.array(z.string()).optional(),
  enumNames: z.array(z.string()).optional(),
  /** Titled single-select: `oneOf: [{const, title}]`. */
  oneOf: z.array(z.looseObject({ const: z.string(), title: z.string().optional() })).optional(),
});

/** `{type: "number" | "integer"}` with optional bounds and default. */
export const NumberFieldSchema = z.looseObject({
  type: z.enum(['number', 'integer']),
  title: z.string().optional(),
  description: z.string().optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  default: z.number().optional(),
});

/** `{type: "boolean"}` with an optional default. */
export const BooleanFieldSchema = z.looseObject({
  type: z.literal('boolean'),
  title: z.string().optional(),
  description: z.string().optional(),
  default: z.boolean().optional(),
});

/** Multi-select: `{type: "array", items: {enum} | {anyOf: [{const, title}]}}`. */
export const MultiSelectFieldSchema = z.looseObject({
  type: z.literal('array'),
  title: z.string().optional(),
  description: z.string().optional(),
  minItems: z.number().int().min(0).optional(),
  maxItems: z.number().int().min(0).optional(),
  items: z.union([
    z.looseObject({ type: z.literal('string').optional(), enum: z.array(z.string()) }),
    z.looseObject({ anyOf: z.array(z.looseObject({ const: z.string(), title: z.string().optional() })) }),
  ]),
  default: z.array(z.string()).optional(),
});

/** One property of a flat requested schema (PrimitiveSchemaDefinition). */
export const FieldSchema = z.union([StringFieldSchema, NumberFieldSchema, BooleanFieldSchema, MultiSelectFieldSchema], {
  error: 'is not a field the spec allows (a string with format email/uri/date/date-time, number, integer, boolean, single- or multi-select enum; no nested objects)',
});
export type Field = z.infer<typeof FieldSchema>;

/** `requestedSchema`: a flat object schema (no nesting). */
export const RequestedSchemaSchema = z.looseObject({
  type: z.literal('object'),
  properties: z.record(z.string(), FieldSchema),
  required: z.array(z.string()).optional(),
});
export type RequestedSchema = z.infer<typeof RequestedSchemaSchema>;

/** Form-mode params (`mode` absent or "form"). */
export const ElicitFormParamsSchema = z.looseObject({
  mode: z.literal('form').optional(),
  message: z.string(),
  requestedSchema: RequestedSchemaSchema,
  _meta: z.record(z.string(), z.unknown()).optional(),
});

/**
 * URL-mode params: the person is asked to open `url`; completion is signalled separately.
 * `elicitationId` is required on the 2025-11-25 era only (2026-07-28 removed it): see parseElicitParams.
 */
export const ElicitUrlParamsSchema = z.looseObject({
  mode: z.literal('url'),
  message: z.string(),
  url: z.url(),
  elicitationId: z.string().optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});

/** `elicitation/create` params, either mode. */
export const ElicitParamsSchema = z.union([ElicitUrlParamsSchema, ElicitFormParamsSchema]);
export type ElicitParams = z.infer<typeof ElicitParamsSchema>;
export type ElicitFormParams = z.infer<typeof ElicitFormParamsSchema>;
export type ElicitUrlParams = z.infer<typeof ElicitUrlParamsSchema>;

/**
 * Validates `elicitation/create` params as a server on `era` sent them. The schema is picked by
 * `mode`, so the problem names the field at fault; URL mode needs `elicitationId` on the 2025 era
 * ('legacy') only, because 2026-07-28 removed it.
 * @returns the params, or the message of the -32602 answer, e.g.
 *   "elicitation/create: requestedSchema.properties.address: is not a field the spec allows (…)"
 */
export function parseElicitParams(raw: unknown, era: 'legacy' | 'modern'): { ok: true; params: ElicitParams } | { ok: false; message: string } {
  const mode = typeof raw === 'object' && raw !== null ? (raw as { mode?: unknown }).mode : undefined;
  const parsed = mode === 'url' ? ElicitUrlParamsSchema.safeParse(raw) : ElicitFormParamsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, message: `elicitation/create: ${issue.path.join('.') || 'params'}: ${issue.message}` };
  }
  if (era === 'legacy' && parsed.data.mode === 'url' && !parsed.data.elicitationId) {
    return { ok: false, message: 'elicitation/create: elicitationId: URL mode needs an elicitationId (protocol 2025-11-25)' };
  }
  return { ok: true, params: parsed.data };
}

/** A value of a form field. */
export type FieldValue = string | number | boolean | string[];

/** ElicitResult: `content` only with `accept` (form mode). */
export const ElicitResultSchema = z.object({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional(),
});
export type ElicitResult = z.infer<typeof ElicitResultSchema>;

/** The allowed values of a select field and their titles, in order. */
export function optionsOf(field: Field): Array<{ value: string; title: string }> | undefined {
  if (field.type === 'string') {
    if (field.oneOf) return field.oneOf.map((o) => ({ value: o.const, title: o.title ?? o.const }));
    if (field.enum) return field.enum.map((v, i) => ({ value: v, title: field.enumNames?.[i] ?? v }));
    return undefined;
  }
  if (field.type === 'array') {
    const items = field.items as { enum?: string[]; anyOf?: Array<{ const: string; title?: string }> };
    if (items.anyOf) return items.anyOf.map((o) => ({ value: o.const, title: o.title ?? o.const }));
    return (items.enum ?? []).map((v) => ({ value: v, title: v }));
  }
  return undefined;
}

/** The form's starting values: each field's `default`, where it has one. */
export function defaultsFor(schema: RequestedSchema): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const [name, field] of Object.entries(schema.properties)) if (field.default !== undefined) out[name] = field.default;
  return out;
}

const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** An absolute URI: a scheme, a colon, and no whitespace (RFC 3986 shape, not a full parse). */
const URI = /^[a-z][a-z0-9+.-]*:[^\s]+$/i;

function checkField(field: Field, value: FieldValue): UiText | undefined {
  switch (field.type) {
    case 'string': {
      if (typeof value !== 'string') return ui('field.text');
      if (field.minLength !== undefined && value.length < field.minLength) return ui('field.minLength', { n: field.minLength });
      if (field.maxLength !== undefined && value.length > field.maxLength) return ui('field.maxLength', { n: field.maxLength });
      const options = optionsOf(field);
      if (options && !options.some((o) => o.value === value)) return ui('field.oneOf');
      if (field.format === 'email' && !EMAIL.test(value)) return ui('field.email');
      if (field.format === 'uri' && !URI.test(value)) return ui('field.uri');
      if (field.format === 'date' && !(DATE.test(value) && !Number.isNaN(Date.parse(value)))) return ui('field.date');
      if (field.format === 'date-time' && Number.isNaN(Date.parse(value))) return ui('field.dateTime');
      return undefined;
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return ui('field.number');
      if (field.type === 'integer' && !Number.isInteger(value)) return ui('field.integer');
      if (field.minimum !== undefined && value < field.minimum) return ui('field.minimum', { n: field.minimum });
      if (field.maximum !== undefined && value > field.maximum) return ui('field.maximum', { n: field.maximum });
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : ui('field.boolean');
    case 'array': {
      if (!Array.isArray(value)) return ui('field.list');
      const allowed = new Set((optionsOf(field) ?? []).map((o) => o.value));
      if (value.some((v) => !allowed.has(v))) return ui('field.listed');
      if (field.minItems !== undefined && value.length < field.minItems) return ui('field.minItems', { n: field.minItems });
      if (field.maxItems !== undefined && value.length > field.maxItems) return ui('field.maxItems', { n: field.maxItems });
      return undefined;
    }
  }
}

/**
 * Validates accepted form content against the requested schema (defaults applied first for missing
 * fields). Unknown fields are refused: the server asked for exactly these.
 * @returns `{ok: true, content}` or `{ok: false, errors}` with one message per field (a message
 *   code; `english` gives the English)
 */
export function validateElicitationContent(
  schema: RequestedSchema,
  content: Record<string, FieldValue | undefined>,
): { ok: true; content: Record<string, FieldValue> } | { ok: false; errors: Record<string, UiText> } {
  const values: Record<string, FieldValue> = { ...defaultsFor(schema) };
  for (const [k, v] of Object.entries(content)) if (v !== undefined && v !== '') values[k] = v;
  const errors: Record<string, UiText> = {};
  for (const name of Object.keys(values)) if (!(name in schema.properties)) errors[name] = ui('field.notAsked');
  for (const name of schema.required ?? []) if (values[name] === undefined) errors[name] = ui('field.required');
  for (const [name, field] of Object.entries(schema.properties)) {
    const v = values[name];
    if (v === undefined || errors[name]) continue;
    const problem = checkField(field, v);
    if (problem) errors[name] = problem;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, content: values };
}

/**
 * Words in a form that suggest the server is asking for a secret, which the spec forbids
 * ("servers MUST NOT request sensitive information" such as passwords or API keys).
 */
export function looksLikeSecretRequest(params: ElicitFormParams): boolean {
  const words = /pass(word|phrase)?|secret|api[\s_-]?key|token|private[\s_-]?key|credential|\bpin\b|card number|cvv|ssn/i;
  if (words.test(params.message)) return true;
  // Names and titles only: descriptions often reassure ("we never ask for your PIN").
  return Object.entries(params.requestedSchema.properties).some(([name, f]) => words.test(`${name} ${f.title ?? ''}`));
}
