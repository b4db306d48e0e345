/**
 * The footer both sampling reviews share (request and response): the action's error, the reject
 * reason field (Enter rejects), Reject, any extra buttons the review adds (Regenerate), and the
 * primary approve button; plus the banner listing why the draft cannot be approved.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionBar, ActionError, Banner } from '../../components/common';
import type { HintProps, ReasonProps } from '../../keyboard/review-shortcuts';
import type { TeamRole } from '../../../shared/contract/roles';
import { useViewer, viewerMay } from '../../viewer';

/** What a review passes to its action bar. */
export interface ReviewActionBarProps {
  /** `request` or `response`: names the buttons' test ids (`reject-request`, `approve-response`, …). */
  stage: 'request' | 'response';
  /** The last failed action's error, or null. */
  error: string | null;
  reason: string;
  onReason: (reason: string) => void;
  /** The shortcut props (tooltip, aria-keyshortcuts) of each control. */
  keys: { approve: HintProps; reject: HintProps; reason: ReasonProps };
  /** An action is running: every button is disabled. */
  busy: boolean;
  /** The draft is valid: approving is possible. */
  canApprove: boolean;
  onReject: () => void;
  onApprove: () => void;
  approveLabel: string;
  /** Buttons between Reject and the approve button. */
  children?: ReactNode;
  /** The item's server: on a team server, a person who may not decide its items sees why instead of the buttons. */
  serverId: string;
}

/** The review's footer: error, reject reason, Reject, extras, approve. */
export function ReviewActionBar(props: ReviewActionBarProps) {
  const { t } = useTranslation('queue');
  const { stage, keys, busy } = props;
  const viewer = useViewer();
  if (!viewerMay(viewer, 'decide', props.serverId)) return <WatchOnly role={viewer!.role} serverId={props.serverId} />;
  return (
    <ActionBar>
      <ActionError error={props.error} />
      <input
        className="reason-input"
        aria-label={t('actions.reasonLabel')}
        placeholder={t('actions.reasonPlaceholder')}
        data-testid="reject-reason"
        {...keys.reason}
        value={props.reason}
        onChange={(e) => props.onReason(e.target.value)}
      />
      <button type="button" className="btn-danger" data-testid={`reject-${stage}`} {...keys.reject} disabled={busy} onClick={props.onReject}>
        {t('actions.reject')}
      </button>
      {props.children}
      <button type="button" className="btn-primary" data-testid={`approve-${stage}`} {...keys.approve} disabled={busy || !props.canApprove} onClick={props.onApprove}>
        {props.approveLabel}
      </button>
    </ActionBar>
  );
}

/** In place of a review's buttons for a person who may not decide it (an auditor; a reviewer of other servers). */
export function WatchOnly({ role, serverId }: { role: TeamRole; serverId: string }) {
  const { t } = useTranslation('queue');
  const { t: common } = useTranslation('common');
  return (
    <ActionBar>
      <p className="muted small" data-testid="watch-only">
        {role === 'reviewer' ? t('roles.otherServer', { server: serverId }) : t('roles.cannotDecide', { role: common(`roles.${role}`) })}
      </p>
    </ActionBar>
  );
}

/** Why the draft cannot be approved: one line per problem (nothing when there is none). */
export function DraftProblems({ title, errors, testId }: { title: string; errors: readonly string[]; testId: string }) {
  if (errors.length === 0) return null;
  return (
    <Banner tone="error" title={title} testId={testId}>
      <ul className="plain-list">
        {errors.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
    </Banner>
  );
}
