/**
 * The auto-approval indicator shown in the nav on every screen ("Auto-approval on", "paused",
 * plus how many requests limits refused), and the global pause switch on the Rules screen.
 */
import { useTranslation } from 'react-i18next';
import { autoApprovalConfigured } from '../../../shared/contract/rules';
import { getApi } from '../../api';
import { ActionError } from '../../components/common';
import { useAction } from '../../hooks';
import { useConsole } from '../../store';
import './rules.css';

/** Nav indicator: visible whenever some rule may auto-approve (or auto-approval is paused). */
export function AutoApprovalIndicator() {
  const { t } = useTranslation('rules');
  const policy = useConsole((s) => s.mirror?.policy);
  const setScreen = useConsole((s) => s.setScreen);
  if (!policy) return null;
  const active = autoApprovalConfigured(policy.rules);
  const limited = Object.values(policy.counters).reduce((n, c) => n + c.rateLimited, 0);
  if (!active && !policy.rules.paused && limited === 0) return null;
  return (
    <button type="button" className="nav-auto" data-testid="auto-indicator" onClick={() => setScreen('rules')}>
      {policy.rules.paused ? (
        <span className="auto-pill is-paused" data-testid="auto-paused">
          {t('indicator.paused')}
        </span>
      ) : active ? (
        <span className="auto-pill is-on" data-testid="auto-active">
          {t('indicator.on')}
        </span>
      ) : null}
      {limited > 0 && (
        <span className="auto-limited" data-testid="nav-rate-limited">
          {t('indicator.rateLimited', { n: limited })}
        </span>
      )}
    </button>
  );
}

/** The global "pause all auto-approval" switch. Reject rules keep applying while paused. */
export function AutoApprovalSwitch() {
  const { t } = useTranslation('rules');
  const paused = useConsole((s) => s.mirror?.policy?.rules.paused ?? false);
  const toggle = useAction(async () => getApi().setAutoApprovalPaused({ paused: !paused }));
  return (
    <div className={`auto-switch${paused ? ' is-paused' : ''}`}>
      <label className="toggle">
        <input type="checkbox" data-testid="pause-auto" checked={paused} disabled={toggle.pending} onChange={() => void toggle.run()} />
        <strong>{t('pause.label')}</strong>
      </label>
      <p className="small muted">{paused ? t('pause.pausedNote') : t('pause.activeNote')}</p>
      <ActionError error={toggle.error} />
    </div>
  );
}
