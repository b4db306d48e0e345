/** Small nav additions of desktop life: a "do not disturb" marker (the count still shows on the Queue badge). */
import { useTranslation } from 'react-i18next';
import { useConsole } from '../../store';

/** Shows "Do not disturb" under the nav buttons while it is on; a click opens Settings. */
export function DoNotDisturbIndicator() {
  const { t } = useTranslation('settings');
  const dnd = useConsole((s) => s.mirror?.attention?.doNotDisturb ?? s.mirror?.desktop?.settings.doNotDisturb ?? false);
  const setScreen = useConsole((s) => s.setScreen);
  if (!dnd) return null;
  return (
    <button type="button" className="nav-dnd" data-testid="dnd-indicator" title={t('dndIndicatorTitle')} onClick={() => setScreen('settings')}>
      {t('dnd')}
    </button>
  );
}
