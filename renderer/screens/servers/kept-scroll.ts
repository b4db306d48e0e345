/**
 * A scroll box that opens where the person left it: its offset is saved as they scroll and put
 * back when the box shows `key` again. Content that arrives after the first layout (a review
 * fetched, an image decoded) may be too short for the offset at first: the offset is then put back
 * as the content grows, until reached, until the person scrolls, clicks or types in the box, or
 * for 5 s at most — and meanwhile the short content's offset is not saved over the kept one.
 */
import { useLayoutEffect, useRef, type RefObject } from 'react';

/** Input that means the person moves the box themselves: the kept offset stops being put back. */
const PERSON_INPUT = ['wheel', 'pointerdown', 'keydown', 'touchstart'] as const;
/** How long the offset is put back while content grows (ms). */
const RESTORE_FOR_MS = 5_000;

/**
 * `ref` for the scroll box and `onScroll` for its scroll events. `saved(key)` is the offset kept
 * for `key` (px); `save(key, px)` keeps a new one. No `key`: the box opens at the top, nothing kept.
 */
export function useKeptScroll<T extends HTMLElement>(
  key: string | undefined,
  saved: (key: string) => number,
  save: (key: string, px: number) => void,
): { ref: RefObject<T | null>; onScroll: () => void } {
  const ref = useRef<T>(null);
  const restoring = useRef(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    const want = key === undefined ? 0 : saved(key);
    el.scrollTop = want;
    if (el.scrollTop >= want - 1) return undefined;
    restoring.current = true;
    const again = () => {
      el.scrollTop = want;
      if (el.scrollTop >= want - 1) stop();
    };
    const grows = new ResizeObserver(again);
    for (const child of el.children) grows.observe(child);
    const timer = setTimeout(() => stop(), RESTORE_FOR_MS);
    function stop() {
      restoring.current = false;
      grows.disconnect();
      clearTimeout(timer);
      for (const type of PERSON_INPUT) el!.removeEventListener(type, stop);
    }
    for (const type of PERSON_INPUT) el.addEventListener(type, stop, { passive: true });
    return stop;
    // `saved` is read once per key: the offset the box opens at.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const onScroll = () => {
    const el = ref.current;
    if (el && key !== undefined && !restoring.current) save(key, el.scrollTop);
  };
  return { ref, onScroll };
}
