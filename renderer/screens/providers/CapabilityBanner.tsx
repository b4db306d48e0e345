/**
 * The capability-mismatch banner of the request review ("a request with audio sent to a
 * provider that can't take audio, tools to a model without tool support, an image too large — the
 * review screen says so before sending and offers the models that can"). Pure display: the
 * checks are shared/domain/capabilities.ts against the picked model's facts.
 */
import { useTranslation } from 'react-i18next';
import { useSay } from '../../i18n/say';
import { capabilityIssues, factsFor, modelsThatCan, requestNeeds } from '../../../shared/domain/capabilities';
import type { ModelSettings } from '../../../shared/contract/providers';
import type { CreateMessageParams } from '../../../shared/contract/sampling';
import type { ModelRef, ProviderView } from '../../../shared/contract/state';
import { Banner } from '../../components/common';
import './providers.css';

/** Shows what the picked model cannot take, and buttons for up to 5 configured models that can (the server's allowed ones). */
export function CapabilityBanner({
  params,
  picked,
  providers,
  settings,
  serverId,
  onPick,
}: {
  params: CreateMessageParams;
  picked: ModelRef | null;
  providers: ProviderView[];
  settings: ModelSettings | undefined;
  serverId: string;
  onPick: (ref: ModelRef) => void;
}) {
  const { t } = useTranslation('providers');
  const say = useSay();
  const provider = providers.find((p) => p.id === picked?.providerId);
  if (!picked || !provider || provider.kind === 'manual') return null;
  const families = settings?.families;
  const needs = requestNeeds(params);
  const issues = capabilityIssues(needs, factsFor(provider, picked.modelId, families), picked.modelId);
  const promptTools = needs.tools > 0 && factsFor(provider, picked.modelId, families).tools === 'prompt';
  if (issues.length === 0) {
    return promptTools ? (
      <p className="small muted" data-testid="prompt-tools-note">
        {t('capability.promptTools', { model: picked.modelId })}
      </p>
    ) : null;
  }
  const allowed = settings?.servers[serverId]?.allowedModels;
  const alternatives = modelsThatCan(params, providers, allowed, families).slice(0, 5);
  const label = (ref: ModelRef) => `${providers.find((p) => p.id === ref.providerId)?.label ?? ref.providerId} — ${ref.modelId}`;
  return (
    <Banner tone="warn" title={t('capability.title', { model: picked.modelId })} testId="capability-banner">
      <ul className="plain-list">
        {issues.map((i) => (
          <li key={i.kind} data-testid="capability-issue" data-kind={i.kind}>
            {say(i.ui)}
          </li>
        ))}
      </ul>
      <div className="capability-alternatives">
        {alternatives.length === 0 ? (
          <span className="muted">{t('capability.noneCan')}</span>
        ) : (
          <>
            <span className="muted">{t('capability.modelsThatCan')}</span>
            {alternatives.map((ref) => (
              <button key={`${ref.providerId}/${ref.modelId}`} type="button" className="btn-small" data-testid="capability-alternative" onClick={() => onPick(ref)}>
                {label(ref)}
              </button>
            ))}
          </>
        )}
      </div>
    </Banner>
  );
}
