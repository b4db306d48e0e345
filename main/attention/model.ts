/**
 * The pure part of "attention": which items wait on a person, what their notification says, and
 * what the tray shows. No I/O; main/attention/service.ts drives the ports with these.
 */
import { APP_TITLE, type AttentionEntry } from '../../shared/contract/desktop.js';
import { desktopT, type DesktopT } from './messages.js';
import type { CallRef, ElicitationItemView, SamplingItemView } from '../../shared/contract/state.js';
import type { SamplingContent, SamplingMessage } from '../../shared/contract/sampling.js';
import type { NotificationRequest, TrayMenuEntry, TrayModel } from './ports.js';
import { previewLine } from '../../shared/domain/item-summary.js';

/** Longest first line kept for a notification or the tray. */
export const FIRST_LINE_MAX = 140;

/**
 * The first non-empty line of `text`, trimmed and cut to `max` characters (ending in "…" when
 * cut); '' for blank text. The queue row's preview line (shared/domain/item-summary.ts), so a
 * notification names a request as its row does.
 */
export function firstLine(text: string, max = FIRST_LINE_MAX): string {
  return previewLine(text, max);
}

function blocks(message: SamplingMessage): SamplingContent[] {
  return Array.isArray(message.content) ? message.content : [message.content];
}

function firstText(message: SamplingMessage): string | undefined {
  for (const block of blocks(message)) {
    if (block.type === 'text' && typeof block.text === 'string' && block.text.trim()) return block.text;
  }
  return undefined;
}

/**
 * The line a person recognises a sampling request by: the first line of the text of the last
 * user message that has text (the prompt being asked about), else of any message, else of the
 * system prompt, else a description of what the request holds.
 */
export function promptLine(messages: SamplingMessage[], systemPrompt?: string): string {
  const users = messages.filter((m) => m.role === 'user');
  for (const list of [users, messages]) {
    for (let i = list.length - 1; i >= 0; i--) {
      const text = firstText(list[i]!);
      if (text) return firstLine(text);
    }
  }
  if (systemPrompt?.trim()) return firstLine(systemPrompt);
  const kinds = [...new Set(messages.flatMap((m) => blocks(m).map((b) => b.type)))];
  return kinds.length ? `(${kinds.join(', ')})` : '';
}

/** The call a request belongs to, as one short label: the name when known, else the candidates. */
export function callLabel(association: { exact: boolean; calls: CallRef[] }): string | undefined {
  const names = [...new Set(association.calls.map((c) => c.name))];
  if (names.length === 0) return undefined;
  if (association.exact || names.length === 1) return names[0];
  return `${names.slice(0, 2).join(' or ')}${names.length > 2 ? ` (+${names.length - 2})` : ''}`;
}

/** Sampling statuses that wait on a person. */
const SAMPLING_WAITING = { awaiting_request_review: 'request', awaiting_response_review: 'response' } as const;

/**
 * The items that wait on a person, oldest first: sampling items in request or response review
 * (drafts re-opened from history included: they wait too) and elicitations awaiting input.
 */
export function waitingEntries(items: readonly SamplingItemView[], elicitations: readonly ElicitationItemView[] = []): AttentionEntry[] {
  const out: AttentionEntry[] = [];
  for (const item of items) {
    const phase = SAMPLING_WAITING[item.status as keyof typeof SAMPLING_WAITING];
    if (!phase) continue;
    const tool = callLabel(item.association);
    out.push({
      itemId: item.id,
      kind: 'sampling',
      phase,
      serverId: item.serverId,
      ...(tool ? { tool } : {}),
      firstLine: promptLine(item.original.messages, item.original.systemPrompt),
      receivedAt: item.receivedAt,
    });
  }
  for (const e of elicitations) {
    if (e.status !== 'awaiting_input') continue;
    const tool = callLabel(e.association);
    out.push({
      itemId: e.id,
      kind: 'elicitation',
      phase: 'input',
      serverId: e.serverId,
      ...(tool ? { tool } : {}),
      firstLine: firstLine(e.params.message),
      receivedAt: e.receivedAt,
    });
  }
  return out.sort((a, b) => a.receivedAt - b.receivedAt);
}

/**
 * What the notification for one waiting item says (server, tool, first prompt line), in the
 * language of `t` (English by default).
 */
export function notificationFor(entry: AttentionEntry, sound: boolean, t: DesktopT = desktopT('en')): NotificationRequest {
  const server = entry.serverId;
  const title = entry.kind === 'elicitation' ? t('askInput', { server }) : entry.phase === 'response' ? t('reviewResponse', { server }) : t('askCompletion', { server });
  const line = entry.firstLine || t(entry.kind === 'elicitation' ? 'noMessage' : 'emptyRequest');
  const body = entry.tool ? t('body', { tool: entry.tool, line }) : line;
  return { title, body, silent: !sound, itemId: entry.itemId };
}

/** The tray's state. */
export interface TrayState {
  count: number;
  /** Whether auto-approval is paused (policy). */
  paused: boolean;
  doNotDisturb: boolean;
}

/** Hover text of the tray icon, in the language of `t`. */
export function trayTooltip(count: number, t: DesktopT = desktopT('en')): string {
  return count === 0 ? t('trayNothing', { app: APP_TITLE }) : t('trayWaiting', { app: APP_TITLE, count });
}

/** The tray icon's model: count, tooltip and menu (open, pause auto-approval, do not disturb, quit), in the language of `t`. */
export function buildTrayModel(state: TrayState, t: DesktopT = desktopT('en')): TrayModel {
  const menu: TrayMenuEntry[] = [
    { kind: 'action', id: 'open', label: state.count > 0 ? t('openWaiting', { count: state.count }) : t('open'), enabled: true },
    { kind: 'separator' },
    { kind: 'checkbox', id: 'pause-auto-approval', label: t('pause'), checked: state.paused },
    { kind: 'checkbox', id: 'do-not-disturb', label: t('doNotDisturb'), checked: state.doNotDisturb },
    { kind: 'separator' },
    { kind: 'action', id: 'quit', label: t('quit'), enabled: true },
  ];
  return { count: state.count, tooltip: trayTooltip(state.count, t), menu };
}
