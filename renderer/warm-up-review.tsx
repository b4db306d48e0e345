/**
 * The review's warm-up for renderer/warm-up.ts: renders the review of a small sample request once,
 * hidden and off-screen, then unmounts it. The first review a page shows
 * otherwise runs every review component's code for the first time (the browser compiles it at
 * first call): ~25–30 ms more than a later review (`npm run bench`, `p3.queue_interactive_ms_1001`
 * against `p3.row_review_ms`), and its first layout finds the fonts of its headings and code.
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import type { SamplingItemView } from '../shared/contract/state';
import { ItemReview } from './screens/queue/QueueScreen';

/** A request of the kinds a review shows first: text, a system prompt, model hints, a tool. */
const SAMPLE: SamplingItemView = {
  id: 'warm-up',
  origin: 'server',
  conversationId: 'warm-up',
  round: 1,
  serverId: 'warm-up',
  era: 'legacy',
  association: { exact: true, calls: [] },
  status: 'awaiting_request_review',
  receivedAt: 0,
  updatedAt: 0,
  original: {
    messages: [{ role: 'user', content: { type: 'text', text: 'Warm-up: *summarise* `this`' } }],
    systemPrompt: 'Warm-up',
    modelPreferences: { hints: [{ name: 'warm-up' }] },
    tools: [{ name: 'warm_up', inputSchema: { type: 'object' } }],
    maxTokens: 1,
  },
  model: { providerId: 'warm-up', modelId: 'warm-up', reason: 'warm-up' },
};

/**
 * Renders {@link SAMPLE}'s review out of sight (in the document, so it is laid out as the real one
 * will be, but hidden and off-screen), then unmounts and removes it. Nothing without a document.
 */
export function renderSampleReview(): void {
  if (typeof document === 'undefined') return;
  const box = document.createElement('div');
  box.setAttribute('aria-hidden', 'true');
  box.inert = true;
  box.style.cssText = 'position:absolute;left:-10000px;top:0;width:900px;visibility:hidden;contain:layout paint';
  document.body.append(box);
  const root = createRoot(box);
  try {
    flushSync(() => root.render(<ItemReview item={SAMPLE} />));
    void box.offsetHeight;
  } finally {
    root.unmount();
    box.remove();
  }
}
