/**
 * The one frame of every review screen, whatever the item's kind: the item's header (a sampling
 * request's or provider call's, or an elicitation's) and then the body its kind and status call
 * for — request review, generation, response review, outcome, or the elicitation's form, URL and
 * answer (the children).
 */
import type { ReactNode } from 'react';
import type { ItemView } from '../../../shared/contract/state';
import { ElicitationHeader, ItemHeader } from './ItemHeader';

/** The frame: `testId` names the screen (`request-review`, `elicitation-review`, …); `data` adds data attributes. */
export function ReviewFrame({ item, title = '', testId, className, data, children }: { item: ItemView; title?: string; testId: string; className?: string; data?: Record<`data-${string}`, string>; children: ReactNode }) {
  return (
    <div className={className ? `review ${className}` : 'review'} data-testid={testId} {...data}>
      {item.kind === 'elicitation' ? <ElicitationHeader item={item} /> : <ItemHeader item={item} title={title} />}
      {children}
    </div>
  );
}
