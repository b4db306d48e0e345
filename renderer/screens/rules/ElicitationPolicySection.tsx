/**
 * A server's elicitation policy on the Rules screen (auto-rules cover elicitation only as
 * "always ask" or "always decline" — never accept). Saving writes `servers.<id>.elicitation` of the
 * rules file; main raises its version when the action changes, and history names it when it
 * declines.
 */
import { useTranslation } from 'react-i18next';
import type { ServerPolicy } from '../../../shared/contract/rules';
import { Section } from '../../components/common';

/** The "Elicitation" section: ask me (default) / always decline, with the policy's version and how many it declined. */
export function ElicitationPolicySection({ policy, declined, onChange }: { policy: ServerPolicy; declined: number; onChange: (action: 'ask' | 'decline') => void }) {
  const { t } = useTranslation('rules');
  const current = policy.elicitation ?? { action: 'ask' as const, version: 1 };
  return (
    <Section title={t('elicitationPolicy.title')} testId="elicitation-policy">
      <div className="field">
        <label htmlFor="elicitation-action">
          {t('elicitationPolicy.label')} <span className="badge tone-muted">{t('elicitationPolicy.version', { version: current.version })}</span>
        </label>
        <select id="elicitation-action" data-testid="elicitation-action" value={current.action} onChange={(e) => onChange(e.target.value === 'decline' ? 'decline' : 'ask')}>
          <option value="ask">{t('elicitationPolicy.ask')}</option>
          <option value="decline">{t('elicitationPolicy.decline')}</option>
        </select>
        <p className="small muted">{t('elicitationPolicy.help')}</p>
        {declined > 0 && (
          <p className="small" data-testid="elicitation-declined-count">
            {t('elicitationPolicy.declined', { count: declined })}
          </p>
        )}
      </div>
    </Section>
  );
}
