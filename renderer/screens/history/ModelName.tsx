/** The model an entry names in a row: its id, or that a person wrote the response (the manual provider's "manual" is no model). */
import { useTranslation } from 'react-i18next';
import { MANUAL_PROVIDER_ID } from '../../../shared/contract/primitives';

/** `model` in monospace, or "by hand" when the response came from the manual provider; nothing without a model. */
export function ModelName({ model, providerId, className = '' }: { model?: string; providerId?: string; className?: string }) {
  const { t } = useTranslation('history');
  if (!model) return null;
  if (providerId === MANUAL_PROVIDER_ID)
    return (
      <span className={className} title={t('list.byHandTitle')} data-testid="history-by-hand">
        {t('list.byHand')}
      </span>
    );
  return <span className={`mono ${className}`.trim()}>{model}</span>;
}
