/**
 * What the review screens' shortcuts do besides calling their own actions: move focus to the
 * prompt or response editor (opening its inline editor first), open the full-screen editor on the
 * same draft, focus a field, click a button of the shown review, and step through the queue. The
 * drafts are read fresh from the store, so a handler never writes an outdated draft.
 */
import type { KeyboardEvent } from 'react';
import { contentBlocks, contentText } from '../../shared/contract/sampling';
import type { SamplingItemView } from '../../shared/contract/state';
import { i18n } from '../i18n';
import { useConsole, type RequestDraft, type ResponseDraft } from '../store';
import { baseParams, blockKey, initialRequestDraft, initialResponseDraft, isAllText, MANUAL_KEY } from '../screens/queue/drafts';
import { promptBlock, stepId } from './navigation';
import { useKeyboardUi, useShortcuts, type CommandContext } from './registry';

/** Focuses the first element matching `selector`: at once, or after the next paint when a just-opened editor is not rendered yet. */
export function focusLater(selector: string): void {
  const focus = () => {
    const el = document.querySelector<HTMLElement>(selector);
    if (!el) return false;
    el.focus();
    el.scrollIntoView({ block: 'nearest' });
    return true;
  };
  // Now when it is there already (so the next key lands in it), else once React has rendered it.
  if (!focus()) requestAnimationFrame(() => void focus());
}

/** How long {@link focusReview} waits for a review to appear (its item may still be loading), in ms. */
const REVIEW_WAIT_MS = 3000;

/**
 * Focuses the review area of `itemId` (where its keys work) once it is on screen — at once, or
 * when its item has loaded; gives up after {@link REVIEW_WAIT_MS} or when focus moved meanwhile.
 */
export function focusReview(itemId: string): void {
  const selector = `[data-review-item="${CSS.escape(itemId)}"]`;
  const start = performance.now();
  const from = document.activeElement;
  const attempt = () => {
    const area = document.querySelector<HTMLElement>(selector);
    if (area) {
      delete area.dataset.rescued; // put there on purpose: its keys work
      return area.focus({ preventScroll: true });
    }
    if (document.activeElement !== from || performance.now() - start > REVIEW_WAIT_MS) return;
    requestAnimationFrame(attempt);
  };
  attempt();
}

/** Clicks the enabled button `[data-testid=testId]` inside `rootSelector`; false when there is none. */
export function clickButton(rootSelector: string, testId: string): boolean {
  const button = document.querySelector<HTMLButtonElement>(`${rootSelector} [data-testid="${testId}"]`);
  if (!button || button.disabled) return false;
  button.click();
  return true;
}

/** A keydown handler that runs `fn` on a plain Enter (the reject-reason field rejects on Enter). */
export function onPlainEnter(fn: () => void): (e: KeyboardEvent) => void {
  return (e) => {
    if (e.key !== 'Enter' || e.shiftKey || e.altKey || e.ctrlKey || e.metaKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    fn();
  };
}

const requestDraft = (item: SamplingItemView): RequestDraft => useConsole.getState().drafts[item.id]?.request ?? initialRequestDraft(item);
const responseDraft = (item: SamplingItemView): ResponseDraft => useConsole.getState().drafts[item.id]?.response ?? initialResponseDraft();

function editRequest(item: SamplingItemView, key: string, text?: string): void {
  const d = requestDraft(item);
  useConsole.getState().setRequestDraft(item.id, {
    ...d,
    texts: text === undefined ? d.texts : { ...d.texts, [key]: text },
    editing: { ...d.editing, [key]: true },
  });
}

function editResponse(item: SamplingItemView, key: string, text?: string): void {
  const d = responseDraft(item);
  useConsole.getState().setResponseDraft(item.id, {
    ...d,
    texts: text === undefined ? d.texts : { ...d.texts, [key]: text },
    editing: { ...d.editing, [key]: true },
  });
}

/** `e` on a request: opens the prompt's inline editor and focuses it (the system prompt when there is no text). */
export function focusRequestEditor(item: SamplingItemView): void {
  const at = promptBlock(baseParams(item));
  if (!at) return focusLater('#system-prompt');
  editRequest(item, blockKey(at.message, at.block));
  focusLater(`[data-testid="message-editor-${at.message}-${at.block}"]`);
}

/** `f` on a request: the prompt block in the full-screen editor, bound to the request draft. */
export function openRequestFullScreen(item: SamplingItemView): boolean {
  const params = baseParams(item);
  const at = promptBlock(params);
  if (!at) return false;
  const key = blockKey(at.message, at.block);
  const block = contentBlocks(params.messages[at.message]!.content)[at.block];
  const original = block?.type === 'text' ? block.text : '';
  const role = params.messages[at.message]!.role;
  useKeyboardUi.getState().openEditor({
    label: i18n.t('keys:editor.message', { n: at.message + 1, role: i18n.t(`keys:editor.roles.${role}`) }),
    initial: requestDraft(item).texts[key] ?? original,
    write: (text) => editRequest(item, key, text),
  });
  return true;
}

/** The response draft's text block to edit and its text as generated, or null (no text block). */
function responseText(item: SamplingItemView): { key: string; original: string } | null {
  const response = item.response;
  if (!response) return null;
  if (response.manual) return { key: MANUAL_KEY, original: '' };
  const content = response.draft.content;
  if (isAllText(content)) return { key: blockKey(0, 0), original: contentText(content) };
  const blocks = contentBlocks(content);
  const j = blocks.findIndex((b) => b.type === 'text');
  const block = blocks[j];
  return block?.type === 'text' ? { key: blockKey(0, j), original: block.text } : null;
}

/** `e` on a response: opens its inline editor and focuses it (the first editor of any kind otherwise). */
export function focusResponseEditor(item: SamplingItemView): void {
  const at = responseText(item);
  if (at && !item.response?.manual) editResponse(item, at.key);
  focusLater(at && (item.response?.manual || at.key === blockKey(0, 0)) ? '[data-testid="response-editor"]' : '[data-testid="response-review"] textarea');
}

/** `f` on a response: its text in the full-screen editor, bound to the response draft. */
export function openResponseFullScreen(item: SamplingItemView): boolean {
  const at = responseText(item);
  if (!at) return false;
  useKeyboardUi.getState().openEditor({
    label: i18n.t('keys:editor.response'),
    initial: responseDraft(item).texts[at.key] ?? at.original,
    write: (text) => editResponse(item, at.key, text),
  });
  return true;
}

/**
 * The queue list's keys (they act only while focus is in the list): `j`/`k` and ↓/↑ select the
 * next or previous entry, focus following the selection (the row is scrolled into view); Enter
 * opens the focused row's review and moves focus into it, where the review's keys work.
 */
export function useQueueShortcuts(ids: readonly string[], selectedId: string | null, select: (id: string) => void): void {
  const step = (delta: number) => (ctx: CommandContext) => {
    const next = stepId(ids, selectedId, delta);
    if (next === null) return false;
    if (next !== selectedId) select(next);
    const inList = !!ctx.target?.closest('[data-testid="queue-list"]');
    requestAnimationFrame(() => {
      const row = document.querySelector<HTMLElement>(`[data-testid="queue-list"] [data-item-id="${CSS.escape(next)}"]`);
      row?.scrollIntoView({ block: 'nearest' });
      if (inList) row?.focus();
    });
  };
  const open = ({ target }: CommandContext) => {
    const id = target?.closest('[data-testid="queue-item"]')?.getAttribute('data-item-id') ?? selectedId;
    if (!id) return false;
    if (id !== selectedId) select(id);
    focusReview(id);
  };
  useShortcuts('queue', { 'queue.next': step(1), 'queue.prev': step(-1), 'queue.openReview': open });
}
