import { describe, expect, it } from 'vitest';
import { createNotices, INFO_NOTICE_MS, NOTICES_KEPT } from '../../main/notices.js';
import type { Notice } from '../../shared/contract/state.js';

/** A hub with only the notices slice, and a clock whose timers the test fires. */
function setup() {
  let notices: Notice[] = [];
  const hub = { get: () => notices, set: (_key: 'notices', value: Notice[]) => void (notices = value) } as never;
  const timers: Array<{ fn: () => void; ms: number }> = [];
  const n = createNotices(hub, () => 1000, (fn, ms) => timers.push({ fn, ms }));
  return { n, timers, list: () => notices };
}

describe('notices', () => {
  it('an info notice goes by itself; warnings and errors stay until dismissed', () => {
    const { n, timers, list } = setup();
    n.notify('info', 'Created mcp-servers.json with the embedded default server (server-everything).');
    n.notify('warning', 'Keys are kept in a file (no keychain).');
    expect(list().map((x) => x.level)).toEqual(['info', 'warning']);
    expect(timers).toHaveLength(1);
    expect(timers[0]!.ms).toBe(INFO_NOTICE_MS);
    timers[0]!.fn();
    expect(list().map((x) => x.level)).toEqual(['warning']);
    n.dismiss(list()[0]!.id);
    expect(list()).toEqual([]);
    n.dismiss('unknown'); // ignored
    expect(list()).toEqual([]);
  });

  it(`keeps the newest ${NOTICES_KEPT}`, () => {
    const { n, list } = setup();
    for (let i = 0; i < NOTICES_KEPT + 5; i++) n.notify('error', `problem ${i}`);
    expect(list()).toHaveLength(NOTICES_KEPT);
    expect(list()[0]!.message).toBe('problem 5');
  });
});
