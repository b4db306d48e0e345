/**
 * "via <host>": the agent host a bridged server runs under (its clientInfo), next to the server's
 * name wherever an item or a history entry names its server. Nothing for the console's own servers.
 */
import { useTranslation } from 'react-i18next';
import type { RequestVia } from '../../shared/contract/state';

/** The "via <host>" mark, or nothing. */
export function ViaHost({ via }: { via?: RequestVia }) {
  const { t } = useTranslation('common');
  if (!via) return null;
  return (
    <span className="via-host muted small" title={t('via.title', { host: via.host, version: via.version ?? '' })} data-testid="via-host">
      {t('via.label', { host: via.host })}
    </span>
  );
}
