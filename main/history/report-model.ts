/**
 * What a readable history report says about each session and request, independent of the output
 * format: the Markdown and HTML writers walk this model, so both say the same things. Everything
 * here is plain text; escaping is the writers' job (server-supplied text is untrusted).
 */
import { CreateMessageParamsSchema, contentBlocks, type CreateMessageParams, type CreateMessageResult } from '../../shared/contract/sampling.js';
import type { HistorySession } from '../../shared/contract/history.js';
import type { HistoryEntry } from '../../shared/contract/state.js';
import type { ItemStatus } from '../../shared/contract/status.js';
import { base64Bytes } from '../store/media.js';

/** A piece of content: text (rendered as a preformatted block) or a one-line note. */
export type ReportBlock = { kind: 'text'; label?: string; text: string } | { kind: 'note'; text: string };

/** A titled part of a request (system prompt, messages, response, error, events). */
export interface ReportPart {
  heading: string;
  blocks: ReportBlock[];
}

/** One request of a session. */
export interface ReportRequest {
  title: string;
  facts: Array<[string, string]>;
  parts: ReportPart[];
}

/** One session. */
export interface ReportSession {
  title: string;
  facts: Array<[string, string]>;
  requests: ReportRequest[];
}

const STATUS: Record<ItemStatus, string> = {
  awaiting_request_review: 'awaiting request review',
  generating: 'generating',
  awaiting_response_review: 'awaiting response review',
  delivered: 'delivered',
  rejected: 'rejected',
  failed: 'failed',
  cancelled: 'cancelled',
  timed_out: 'timed out',
  interrupted: 'interrupted',
  awaiting_input: 'awaiting input',
  accepted: 'accepted',
  completed: 'completed',
  declined: 'declined',
  withdrawn: 'withdrawn',
};

/** ISO-8601 UTC time of epoch ms, e.g. "2026-11-20 14:03:27Z". */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, 'Z');
}

/** "850 ms", "12.3 s": a duration in ms for people. */
export function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** "512 B", "12.3 KB", "4.0 MB" (1 KB = 1024 bytes). */
export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The report model of sessions (in the given order). */
export function reportSessions(sessions: readonly HistorySession[]): ReportSession[] {
  return sessions.map((s) => ({
    title: `Session ${s.conversationId} — ${s.serverId}`,
    facts: [
      ['Server', s.serverId],
      ['Started', isoTime(s.startedAt)],
      ['Ended', s.endedAt === undefined ? '—' : isoTime(s.endedAt)],
      ['Requests', String(s.requests.length)],
    ],
    requests: s.requests.map((e, i) => reportRequest(e, i + 1, s.requests.length)),
  }));
}

function reportRequest(e: HistoryEntry, round: number, rounds: number): ReportRequest {
  const facts: Array<[string, string]> = [
    ['Status', STATUS[e.status] ?? e.status],
    ['Received', isoTime(e.receivedAt)],
  ];
  if (e.endedAt !== undefined) facts.push(['Ended', isoTime(e.endedAt)]);
  if (e.callName) facts.push(['Belongs to', e.callName]);
  if (e.decidedBy) facts.push(['Decided by', e.decidedBy]);
  if (e.modelChoice) facts.push(['Model', `${e.modelChoice.providerId} — ${e.modelChoice.modelId} (${e.modelChoice.overridden ? 'picked by the person' : e.modelChoice.reason})`]);
  else if (e.model) facts.push(['Model', `${e.providerId ? `${e.providerId} — ` : ''}${e.model}`]);
  if (e.usage) facts.push(['Tokens', `${e.usage.inputTokens ?? '?'} in · ${e.usage.outputTokens ?? '?'} out`]);
  const t = e.timings;
  const timing = [
    t.reviewMs !== undefined && `review ${seconds(t.reviewMs)}`,
    t.generationMs !== undefined && `generation ${seconds(t.generationMs)}`,
    t.totalMs !== undefined && `total ${seconds(t.totalMs)}`,
  ].filter(Boolean);
  if (timing.length > 0) facts.push(['Timings', timing.join(' · ')]);
  facts.push(['Edited', e.edited ? 'yes' : 'no']);

  const parts: ReportPart[] = [];
  const parsed = CreateMessageParamsSchema.safeParse(e.original);
  const asked = parsed.success ? parsed.data : undefined;
  if (!asked) {
    parts.push({ heading: 'Request (raw: did not parse as a sampling request)', blocks: [{ kind: 'text', text: json(e.original) }] });
  } else {
    const sent = e.sent;
    const same = sent !== undefined && JSON.stringify(sent) === JSON.stringify(asked);
    parts.push(paramsPart(same || !sent ? 'Request as asked (and sent)' : 'Request as asked by the server', asked));
    if (sent && !same) parts.push(paramsPart('Request as sent to the LLM (edited)', sent));
  }
  if (e.generated) parts.push(resultPart(e.delivered && JSON.stringify(e.delivered) === JSON.stringify(e.generated) ? 'Response as generated (and delivered)' : 'Response as generated', e.generated));
  if (e.delivered && JSON.stringify(e.delivered) !== JSON.stringify(e.generated)) {
    parts.push(resultPart(e.generated ? 'Response as delivered to the server (edited)' : 'Response delivered to the server (written by hand)', e.delivered));
  }
  if (e.errorDetail || e.error) {
    const d = e.errorDetail;
    const text = `${d?.message ?? e.error}${d?.code !== undefined ? ` (code ${d.code})` : ''}${d?.rule ? ` [${d.rule}]` : ''}`;
    parts.push({ heading: 'Error', blocks: [{ kind: 'note', text }] });
  }
  parts.push({
    heading: 'Events',
    blocks: e.events.map((ev) => ({ kind: 'note' as const, text: `${isoTime(ev.at)} ${ev.kind}${ev.detail ? ` — ${ev.detail}` : ''}` })),
  });
  return { title: `Request ${round} of ${rounds} — ${STATUS[e.status] ?? e.status}${e.callName ? ` — ${e.callName}` : ''}`, facts, parts };
}

function paramsPart(heading: string, p: CreateMessageParams): ReportPart {
  const blocks: ReportBlock[] = [];
  const settings = [`maxTokens ${p.maxTokens}`, p.temperature !== undefined && `temperature ${p.temperature}`, p.stopSequences && `stop ${JSON.stringify(p.stopSequences)}`]
    .filter(Boolean)
    .join(' · ');
  blocks.push({ kind: 'note', text: settings });
  if (p.systemPrompt !== undefined) blocks.push({ kind: 'text', label: 'System prompt', text: p.systemPrompt });
  p.messages.forEach((m, i) => blocks.push(...contentReport(`Message ${i + 1} (${m.role})`, m.content)));
  if (p.tools && p.tools.length > 0) blocks.push({ kind: 'note', text: `Tools offered: ${p.tools.map((t) => t.name).join(', ')}` });
  return { heading, blocks };
}

function resultPart(heading: string, r: CreateMessageResult): ReportPart {
  return {
    heading,
    blocks: [{ kind: 'note', text: `model ${r.model}${r.stopReason ? ` · stop reason ${r.stopReason}` : ''}` }, ...contentReport('Content', r.content)],
  };
}

/** Blocks of one message's content: text as text, media as a size note, anything else as JSON. */
function contentReport(label: string, content: unknown): ReportBlock[] {
  const out: ReportBlock[] = [];
  for (const block of contentBlocks(content as Record<string, unknown>)) {
    const b = block as Record<string, unknown>;
    if (b.type === 'text' && typeof b.text === 'string') out.push({ kind: 'text', label, text: b.text });
    else if ((b.type === 'image' || b.type === 'audio') && typeof b.data === 'string') {
      out.push({ kind: 'note', text: `${label}: [${String(b.type)} ${String(b.mimeType)}, ${byteSize(base64Bytes(b.data))}]` });
    } else if (b.type === 'tool_result' && Array.isArray(b.content)) {
      out.push({ kind: 'note', text: `${label}: tool result for ${String(b.toolUseId)}${b.isError ? ' (error)' : ''}` });
      for (const inner of b.content as unknown[]) out.push(...contentReport(`${label} › result`, inner));
    } else if (b.type === 'resource' && typeof b.resource === 'object' && b.resource !== null && typeof (b.resource as Record<string, unknown>).blob === 'string') {
      const r = b.resource as Record<string, unknown>;
      out.push({ kind: 'note', text: `${label}: [resource ${String(r.uri)} ${String(r.mimeType ?? '')}, ${byteSize(base64Bytes(r.blob as string))}]` });
    } else if (b.type === 'tool_use') out.push({ kind: 'text', label: `${label}: tool use ${String(b.name)}`, text: json(b.input) });
    else out.push({ kind: 'text', label: `${label}: ${String(b.type)}`, text: json(b) });
  }
  return out;
}

function json(v: unknown): string {
  return v === undefined ? '(none)' : JSON.stringify(v, null, 2);
}
