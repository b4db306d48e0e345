/**
 * Claims in the UI of a team server (main/team/claims.ts; the state's `team` slice). A review of an
 * item that has not ended claims it for the person signed in, renews the claim every
 * {@link CLAIM_HEARTBEAT_MS} while it is shown (typing does not matter: the page does) and
 * releases it when the person leaves it. When someone else holds it, the review is watched: its
 * controls are disabled and it shows the holder's draft as they type (main sends it). When an admin
 * takes over a review this page held, it says so and stops claiming; what was typed is kept. The
 * desktop (`whoAmI` null, no `team` slice) shows none of this.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Viewer } from '../../../shared/contract/roles';
import type { ItemView } from '../../../shared/contract/state';
import { isTerminalStatus } from '../../../shared/contract/status';
import { CLAIM_HEARTBEAT_MS, type ClaimView } from '../../../shared/contract/team-view';
import { getApi } from '../../api';
import { Banner } from '../../components/common';
import { clockTime } from '../../format';
import { useConsole } from '../../store';
import { flushDraft } from './autosave';

let viewer: { value: Viewer | null | undefined; asked?: Promise<void>; listeners: Set<() => void> } = { value: undefined, listeners: new Set() };

/** The person this page acts for (`whoAmI`, asked once): undefined until known, null on the desktop. */
export function useViewer(): Viewer | null | undefined {
  const [, rerender] = useState(0);
  useEffect(() => {
    const l = () => rerender((n) => n + 1);
    viewer.listeners.add(l);
    viewer.asked ??= getApi()
      .whoAmI({})
      .then((v) => {
        viewer = { ...viewer, value: v };
        viewer.listeners.forEach((f) => f());
      })
      .catch(() => (viewer.asked = undefined));
    return () => void viewer.listeners.delete(l);
  }, []);
  return viewer.value;
}

/** Where this page stands with the claim of the item its review shows. */
export interface ReviewClaim {
  /** Who holds it now (undefined: nobody, or not a team server). */
  holder?: ClaimView;
  /** Someone else holds it: this page watches, deciding nothing. */
  watching: boolean;
  /** An admin took over the review this page held: who and when (epoch ms). */
  takenOver?: { by: string; at: number };
  /** The person gave one of the approvals a two-person rule needs: another reviewer gives the next. */
  approved: boolean;
  /** The person may take it over (an admin watching). */
  canTakeOver: boolean;
  dismissTakeOver(): void;
}

/** Claims `item` while its review is shown (`active`: not held, not ended) and follows who holds it. */
export function useReviewClaim(item: ItemView, held: boolean): ReviewClaim {
  const me = useViewer();
  const team = useConsole((s) => s.mirror?.team !== undefined);
  const holder = useConsole((s) => s.mirror?.team?.claims[item.id]);
  // Approved here under a two-person rule: the next approval is someone else's, so this page lets it go.
  const approved = useConsole((s) => {
    const a = s.mirror?.team?.approvals[item.id];
    // Counted, and more are needed: at the last approval the one who gave it decides (and keeps the claim).
    return !!me && !!a && a.given.length < a.needed && a.given.some((g) => g.subject === me.subject);
  });
  const [takenOver, setTakenOver] = useState<{ itemId: string; by: string; at: number }>();
  const mine = useRef<string | undefined>(undefined); // the item this page holds
  const over = takenOver?.itemId === item.id ? takenOver : undefined;
  const active = team && !!me && !held && !isTerminalStatus(item.status) && !over && !approved;
  const id = item.id;

  useEffect(() => {
    if (!active) return;
    let stopped = false;
    const beat = () =>
      getApi()
        .claimItem({ itemId: id })
        .then((r) => {
          if (!stopped) mine.current = r.mine ? id : undefined;
        })
        .catch(() => undefined);
    void beat();
    const timer = setInterval(() => void beat(), CLAIM_HEARTBEAT_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
      if (mine.current === id) {
        mine.current = undefined;
        flushDraft(id);
        void getApi()
          .releaseClaim({ itemId: id })
          .catch(() => undefined);
      }
    };
  }, [active, id]);

  // Free again (its holder left): this page claims it at once rather than at the next beat.
  const free = active && holder === undefined;
  useEffect(() => {
    if (!free) return;
    void getApi()
      .claimItem({ itemId: id })
      .then((r) => (mine.current = r.mine ? id : mine.current))
      .catch(() => undefined);
  }, [free, id]);

  // Held here, now someone else's: an admin took it over.
  useEffect(() => {
    if (!me || !holder || mine.current !== id || holder.subject === me.subject) return;
    mine.current = undefined;
    setTakenOver({ itemId: id, by: holder.name, at: Date.now() });
  }, [holder, me, id]);

  const watching = !!me && !!holder && holder.subject !== me.subject;
  return { ...(holder && { holder }), watching, approved, ...(over && { takenOver: over }), canTakeOver: watching && !over && me?.role === 'admin', dismissTakeOver: () => setTakenOver(undefined) };
}

/** "Ana is reviewing this request: you are watching", with Take over for an admin. */
export function WatchingBanner({ itemId, claim }: { itemId: string; claim: ReviewClaim }) {
  const { t } = useTranslation('queue');
  const [error, setError] = useState<string | null>(null);
  if (!claim.holder || !claim.watching || claim.takenOver) return null;
  const takeOver = () => getApi().takeOverClaim({ itemId }).then(() => setError(null), (err: unknown) => setError(err instanceof Error ? err.message : String(err)));
  return (
    <Banner tone="info" title={t('team.watching', { name: claim.holder.name })} testId="review-watching">
      <span>{t('team.watchingBody')}</span>{' '}
      {claim.canTakeOver && (
        <button type="button" className="btn-small" data-testid="take-over" onClick={() => void takeOver()}>
          {t('team.takeOver')}
        </button>
      )}
      {error && <span className="error-text"> {error}</span>}
    </Banner>
  );
}

/** "You approved this request: 1 of 2 approvals; another reviewer gives the next". */
export function ApprovedBanner({ itemId, claim }: { itemId: string; claim: ReviewClaim }) {
  const { t } = useTranslation('queue');
  const approvals = useConsole((s) => s.mirror?.team?.approvals[itemId]);
  if (!claim.approved || !approvals) return null;
  return (
    <Banner tone="info" title={t('team.approvedByYou', { given: approvals.given.length, needed: approvals.needed })} testId="review-approved">
      {t('team.approvedByYouBody')}
    </Banner>
  );
}

/** "Boss took over this review at 14:02:31 — nothing you typed here was sent; your text is kept", and Dismiss. */
export function TakenOverBanner({ claim }: { claim: ReviewClaim }) {
  const { t } = useTranslation('queue');
  if (!claim.takenOver) return null;
  return (
    <Banner tone="warn" title={t('team.takenOver', { name: claim.takenOver.by, time: clockTime(claim.takenOver.at) })} testId="review-taken-over">
      <span>{t('team.takenOverBody')}</span>{' '}
      <button type="button" className="btn-small" data-testid="dismiss-taken-over" onClick={claim.dismissTakeOver}>
        {t('held.dismiss')}
      </button>
    </Banner>
  );
}

/** A queue row's team line: who is reviewing it, and the approvals a two-person rule counts. */
export function RowClaim({ itemId }: { itemId: string }) {
  const { t } = useTranslation('queue');
  const name = useConsole((s) => s.mirror?.team?.claims[itemId]?.name);
  const given = useConsole((s) => s.mirror?.team?.approvals[itemId]?.given.length);
  const needed = useConsole((s) => s.mirror?.team?.approvals[itemId]?.needed);
  if (name === undefined && needed === undefined) return null;
  return (
    <span className="row-team small">
      {name !== undefined && (
        <span className="row-claim" data-testid="queue-claim">
          {t('team.reviewing', { name })}
        </span>
      )}
      {needed !== undefined && (
        <span className="row-approvals" data-testid="queue-approvals">
          {t('team.approvals', { given: given ?? 0, needed })}
        </span>
      )}
    </span>
  );
}
