/**
 * Drafts: what a person has typed on an item and not yet sent — an edited sampling request, a
 * response being written or edited, the fields of an elicitation form. The renderer saves them
 * (`saveDraft`, debounced, within a second of the last keystroke); main keeps them on the item,
 * in history (`HistoryEntry.draft`) and through the server giving up, a disconnect and a restart
 * (docs/history.md, "Drafts"). Plain data, parsed with zod at the boundary. Strings are raw input values
 * exactly as the inputs hold them (a draft may be invalid: it is the person's work, not a request).
 */
import { z } from 'zod';

/** Most characters of one draft text (a pasted prompt may be large; a request is capped at 25 MB). */
const TEXT_MAX = 30_000_000;
const key = z.string().max(200);
const text = z.string().max(TEXT_MAX);
const flags = z.record(key, z.boolean());

/**
 * Key of a block in a request draft (an edited text, a removed image or audio block):
 * `"message:block"` for a message's block, `"message:block:inner"` for a block in the content of
 * the tool_result at `block` (all 0-based).
 */
export const textKey = (message: number, block: number, inner?: number): string => (inner === undefined ? `${message}:${block}` : `${message}:${block}:${inner}`);

/** Edits in progress on a sampling request under review (strings are raw input values). */
export const RequestDraftSchema = z
  .object({
    /** Edited text of text blocks, by {@link textKey}. */
    texts: z.record(key, text),
    /** Which text blocks show their editor, by {@link textKey}. */
    editing: flags,
    systemPrompt: text,
    maxTokens: z.string().max(100),
    temperature: z.string().max(100),
    /** `{providerId, modelId}` as JSON, the value of the model <select>. */
    model: z.string().max(2000),
  })
  .strict();
/** Edits in progress on a sampling request under review. */
export type RequestDraft = z.infer<typeof RequestDraftSchema>;

/** A `toolChoice.mode`. */
export const ToolChoiceModeSchema = z.enum(['auto', 'required', 'none']);
/** A `toolChoice.mode`. */
export type ToolChoiceMode = z.infer<typeof ToolChoiceModeSchema>;

/** Non-text edits of a request under review. */
export const RequestExtrasSchema = z
  .object({
    /** Image/audio blocks to drop, by {@link textKey} (`"message:block:inner"`: one inside a tool_result). */
    removedBlocks: flags,
    /** Offered tools to drop, by name. */
    removedTools: flags,
    /** The person's tool choice; undefined keeps the server's. */
    toolChoice: ToolChoiceModeSchema.optional(),
  })
  .strict();
/** Non-text edits of a request under review. */
export type RequestExtras = z.infer<typeof RequestExtrasSchema>;

/** Edits in progress on a response under review. */
export const ResponseDraftSchema = z
  .object({
    /** Edited text of text blocks, by `"0:block"` (the response is one message); `"0:0"` is a hand-written response. */
    texts: z.record(key, text),
    editing: flags,
  })
  .strict();
/** Edits in progress on a response under review. */
export type ResponseDraft = z.infer<typeof ResponseDraftSchema>;

/** A tool call the person adds to a hand-written response. */
export const AddedToolCallSchema = z
  .object({
    /** The `tool_use` id sent to the server. */
    id: z.string().max(200),
    name: z.string().max(500),
    /** Raw JSON text of the input (validated when building the result). */
    input: text,
  })
  .strict();
/** A tool call the person adds to a hand-written response. */
export type AddedToolCall = z.infer<typeof AddedToolCallSchema>;

/** Non-text edits of a response under review. */
export const ResponseExtrasSchema = z
  .object({
    /** Edited JSON text of tool_use inputs, by tool_use id. */
    toolInputs: z.record(key, text),
    /** Tool calls added to a hand-written response. */
    added: z.array(AddedToolCallSchema).max(1000),
  })
  .strict();
/** Non-text edits of a response under review. */
export type ResponseExtras = z.infer<typeof ResponseExtrasSchema>;

/** An elicitation form's raw values by field name: text of text/number/date inputs, a flag, a list. */
export const FormDraftSchema = z.record(key, z.union([text, z.boolean(), z.array(z.string().max(10_000)).max(1000)]));
/** An elicitation form's raw values by field name. */
export type FormDraft = z.infer<typeof FormDraftSchema>;

/** What the renderer saves for one item (`saveDraft`): each part present replaces the stored one. */
export const DraftInputSchema = z
  .object({
    request: z.object({ draft: RequestDraftSchema, extras: RequestExtrasSchema }).strict().optional(),
    response: z.object({ draft: ResponseDraftSchema, extras: ResponseExtrasSchema }).strict().optional(),
    form: FormDraftSchema.optional(),
  })
  .strict();
/** What the renderer saves for one item. */
export type DraftInput = z.infer<typeof DraftInputSchema>;

/**
 * A draft as main keeps it: the parts saved so far and when the last one arrived (epoch ms).
 * `late`: what was typed in a review after its item had moved on without it (another window
 * decided, the response was regenerated, the answer went out, the review's version is no longer
 * the item's): kept for the person and History, never applied to the review that followed; each
 * part replaces the stored one, as for the draft itself.
 */
export type ItemDraft = DraftInput & { savedAt: number; late?: DraftInput & { savedAt: number } };

/**
 * Why an item ended without the person's answer reaching its server while they may still have
 * been at it: `server_stopped_waiting` (the server's timeout, its `notifications/cancelled`, or
 * the connection closed), `call_ended` (the client request it belonged to finished first),
 * `console_stopped` (the console shut down or crashed), `instance_stopped` (on a team, the
 * instance holding the caller's connection stopped or lost the team database; another ended it).
 */
export type StopCause = 'server_stopped_waiting' | 'call_ended' | 'console_stopped' | 'instance_stopped';

/** One piece of text a person typed, as shown and copied when their draft was never delivered. */
export interface TypedText {
  /** What it is: the edited text of a request message block, the system prompt, a response block, a tool call input, a form field. */
  kind: 'message' | 'systemPrompt' | 'response' | 'toolInput' | 'addedToolCall' | 'field';
  /** {@link textKey} (message), `"message:block"` (response), the tool_use id (toolInput, addedToolCall), the field name (field). */
  ref: string;
  /** The tool's name (addedToolCall). */
  name?: string;
  text: string;
  /** Typed after the review it was typed in had ended (the draft's `late` part). */
  late?: boolean;
}

/**
 * Everything a draft holds that a person typed, in reading order: edited request texts, the system
 * prompt when it differs from `baseSystemPrompt`, response texts, tool call inputs, then form
 * fields (lists joined with ", ", flags as "true"/"false"); then the same of its `late` part,
 * marked `late`. Empty texts are left out.
 * @param baseSystemPrompt the system prompt the review started from ('' when none)
 */
export function typedTexts(draft: (DraftInput & { late?: DraftInput }) | undefined, baseSystemPrompt = ''): TypedText[] {
  if (!draft) return [];
  const late = draft.late ? partTexts(draft.late, baseSystemPrompt).map((t) => ({ ...t, late: true })) : [];
  return [...partTexts(draft, baseSystemPrompt), ...late];
}

/** The typed texts of one draft's parts, in reading order (see {@link typedTexts}). */
function partTexts(draft: DraftInput, baseSystemPrompt: string): TypedText[] {
  const out: TypedText[] = [];
  const add = (t: TypedText) => {
    if (t.text.trim() !== '') out.push(t);
  };
  const byKey = (texts: Record<string, string>) => Object.entries(texts).sort(([a], [b]) => compareKeys(a, b));
  if (draft.request) {
    for (const [ref, value] of byKey(draft.request.draft.texts)) add({ kind: 'message', ref, text: value });
    if (draft.request.draft.systemPrompt !== baseSystemPrompt) add({ kind: 'systemPrompt', ref: 'systemPrompt', text: draft.request.draft.systemPrompt });
  }
  if (draft.response) {
    for (const [ref, value] of byKey(draft.response.draft.texts)) add({ kind: 'response', ref, text: value });
    for (const [ref, value] of Object.entries(draft.response.extras.toolInputs)) add({ kind: 'toolInput', ref, text: value });
    for (const call of draft.response.extras.added) add({ kind: 'addedToolCall', ref: call.id, name: call.name, text: call.input });
  }
  for (const [ref, value] of Object.entries(draft.form ?? {})) {
    add({ kind: 'field', ref, text: Array.isArray(value) ? value.join(', ') : String(value) });
  }
  return out;
}

/** Orders {@link textKey} keys numerically (so "10:0" follows "9:0", and "2:0:1" follows "2:0:0"). */
function compareKeys(a: string, b: string): number {
  const [am = 0, ab = 0, ai = -1] = a.split(':').map(Number);
  const [bm = 0, bb = 0, bi = -1] = b.split(':').map(Number);
  return am - bm || ab - bb || ai - bi || a.localeCompare(b);
}
