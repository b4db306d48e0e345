/**
 * The one frame of every review screen, whatever the item's kind: the item's header (a sampling
 * request's or provider call's, or an elicitation's) and then the body its kind and status call
 * for — request review, generation, response review, outcome, or the elicitation's form, URL and
 * answer (the children).
 */
import type { ReactNode } from 'react';
import type { ItemView } from '../../../shared/contract/state';
import { useConsole } from '../../store';
import { ElicitationHeader, ItemHeader, type HeaderEnd } from './ItemHeader';
import { useReviewHeld } from './review-hold';

/** When a held review ended and the item's status now, for its header (undefined while it is live). */
function useHeaderEnd(itemId: string): HeaderEnd | undefined {
  const held = useReviewHeld();
  const at = useConsole((s) => (held ? s.held[itemId]?.at : undefined));
  const now = useConsole((s) => (held ? s.mirror?.items.find((i) => i.id === itemId) : undefined));
  return at === undefined ? undefined : { at: now?.outcome?.at ?? at, ...(now && { status: now.status }) };
}

/** The frame: `testId` names the screen (`request-review`, `elicitation-review`, …); `data` adds data attributes. */
export function ReviewFrame({ item, title = '', testId, className, data, children }: { item: ItemView; title?: string; testId: string; className?: string; data?: Record<`data-${string}`, string>; children: ReactNode }) {
  const ended = useHeaderEnd(item.id);
  return (
    <div className={className ? `review ${className}` : 'review'} data-testid={testId} {...data}>
      {item.kind === 'elicitation' ? <ElicitationHeader item={item} ended={ended} /> : <ItemHeader item={item} title={title} ended={ended} />}
      {children}
    </div>
  );
}
