/**
 * "requested by <person>": on a team server, the person whose personal token made a call, next to
 * the caller wherever an item names it (R3's two-person approval reads the same `requestedBy`).
 * Nothing when the call was not made with a personal token.
 */
import { useTranslation } from 'react-i18next';
import type { PersonRef } from '../../shared/contract/personal-tokens';

/** The mark, or nothing. */
export function RequestedBy({ person }: { person?: PersonRef }) {
  const { t } = useTranslation('queue');
  if (!person) return null;
  return (
    <span className="via-host muted small" title={t('roles.requestedByTitle', { name: person.name })} data-testid="requested-by">
      {t('roles.requestedBy', { name: person.name })}
    </span>
  );
}
