/**
 * The notices slice: short messages at the top of every window (a refused request, a file the
 * console created, a process it ended). The newest {@link NOTICES_KEPT} are kept; an `info` notice
 * goes by itself after {@link INFO_NOTICE_MS}, warnings and errors stay until dismissed; a dismissal
 * removes it for every window.
 */
import type { Notice } from '../shared/contract/state.js';
import type { StateHub } from './state-hub.js';
import { english, type UiText } from '../shared/contract/ui-text.js';

/** Notices kept at most (the oldest go first). */
export const NOTICES_KEPT = 20;

/** How long an `info` notice stays, in ms. */
export const INFO_NOTICE_MS = 30_000;

/** The notices of one console. */
export interface Notices {
  /** Shows a notice: a message code (translated in the renderer), or words that are data (a parser's, a server's). */
  notify(level: Notice['level'], message: string | UiText, kind?: Notice['kind']): void;
  /** Removes one (an unknown id is ignored). */
  dismiss(id: string): void;
}

/**
 * Creates the notices on `hub`'s `notices` slice.
 * @param now clock, epoch ms
 * @param later runs `fn` after `ms` (default: an unref'd `setTimeout`)
 */
export function createNotices(
  hub: Pick<StateHub, 'get' | 'set'>,
  now: () => number,
  later: (fn: () => void, ms: number) => void = (fn, ms) => setTimeout(fn, ms).unref(),
): Notices {
  const dismiss = (id: string) => {
    const notices = hub.get('notices');
    if (notices.some((n) => n.id === id)) hub.set('notices', notices.filter((n) => n.id !== id));
  };
  return {
    notify(level, message, kind) {
      const text = typeof message === 'string' ? { message } : { message: english(message), ui: message };
      const notice: Notice = { id: `${now()}-${Math.random().toString(36).slice(2, 8)}`, level, ...(kind ? { kind } : {}), ...text, at: now() };
      hub.set('notices', [...hub.get('notices'), notice].slice(-NOTICES_KEPT));
      if (level === 'info') later(() => dismiss(notice.id), INFO_NOTICE_MS);
    },
    dismiss,
  };
}
