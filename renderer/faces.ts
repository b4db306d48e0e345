/**
 * Font warm-up for renderer/warm-up.ts: the first layout of text in a face makes the browser find,
 * load and shape that font, ~20 ms of the first queue list's layout otherwise (Chrome traces of
 * `npm run bench`, renderer scenario).
 */

/**
 * Lays out, out of sight, a line in each face the queue and a review use (the UI font at its
 * sizes and weights, tabular figures, the monospace font), so the browser has found and shaped
 * those fonts before the list needs them. Nothing without a document.
 */
export function layOutFaces(): void {
  if (typeof document === 'undefined') return;
  const box = document.createElement('div');
  box.setAttribute('aria-hidden', 'true');
  box.style.cssText = 'position:absolute;left:-10000px;top:0;visibility:hidden;contain:layout paint';
  const faces = ['', 'font-weight:600', 'font-weight:700', 'font-size:11px;font-weight:600', 'font-size:12px', 'font-size:12px;font-variant-numeric:tabular-nums', 'font-family:var(--mono);font-size:12px'];
  for (const face of faces) {
    const line = document.createElement('div');
    line.style.cssText = face;
    line.textContent = 'Warm-up 0123456789 waiting · approve — “review” ✓ …';
    box.append(line);
  }
  document.body.append(box);
  void box.offsetHeight;
  box.remove();
}
