/**
 * "Always allow requests like this from this server": one click opens the rule editor on the Rules
 * screen, prefilled from this request's facts (see ruleFromRequest); nothing is in force until the
 * person saves it. A provider call says "provider calls" (from a server) or names its token.
 */
import { useMay } from '../../viewer';
import { useTranslation } from 'react-i18next';
import type { SamplingItemView } from '../../../shared/contract/state';
import { isTokenCall } from '../../components/GatewayCall';
import { useConsole } from '../../store';
import { ruleFromRequest, useRuleDraft } from './rule-draft';
import './rules.css';

/** The button, for a server request under review (drafts re-opened from history have no server waiting). */
export function AllowLikeThis({ item }: { item: SamplingItemView }) {
  const { t } = useTranslation('rules');
  const open = useRuleDraft((s) => s.open);
  const setScreen = useConsole((s) => s.setScreen);
  const mayWriteRules = useMay('admin');
  if (item.origin !== 'server' || !mayWriteRules) return null;
  return (
    <div className="allow-like-this">
      <button
        type="button"
        className="btn-small"
        data-testid="allow-like-this"
        title={t('allowLikeThis.hint')}
        onClick={() => {
          open({ serverId: item.serverId, rule: ruleFromRequest(item), fromRequestAt: item.receivedAt });
          setScreen('rules');
        }}
      >
        {isTokenCall(item.gateway)
          ? t('allowLikeThis.buttonToken', { name: item.gateway.caller.name })
          : item.gateway
            ? t('allowLikeThis.buttonProviderCall')
            : t('allowLikeThis.button')}
      </button>
    </div>
  );
}
