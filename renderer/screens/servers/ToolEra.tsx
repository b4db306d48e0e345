/**
 * Protocol eras per tool. A server's connection speaks one era; a push-style tool needs
 * 2025-11-25 and an input_required one 2026-07-28. The console learns a tool's need from its
 * failure and calls it on a second session of that era; this shows what is known, how it was
 * learned, lets the person set or forget it, and on a call that met the other era says what
 * happened: called again at once on that session (a guard-style tool its framework refused), or
 * failed, with "Call again".
 */
import { useTranslation } from 'react-i18next';
import type { ProtocolEra } from '../../../shared/contract/primitives';
import type { CallView, ServerView } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { ActionError, Banner } from '../../components/common';
import { useAction } from '../../hooks';

/** The era setting of one tool, under its form. */
export function ToolEraControl({ server, tool }: { server: ServerView; tool: string }) {
  const { t } = useTranslation('servers');
  const known = server.toolEras?.[tool];
  const set = useAction(async (era: ProtocolEra | null) => getApi().setToolEra({ serverId: server.id, tool, era }));
  return (
    <div className="field tool-era" data-testid="tool-era">
      <label htmlFor={`tool-era-${tool}`}>{t('toolEra.label')}</label>
      <select
        id={`tool-era-${tool}`}
        data-testid="tool-era-select"
        value={known?.needs ?? ''}
        disabled={set.pending}
        onChange={(e) => void set.run(e.target.value === '' ? null : (e.target.value as ProtocolEra))}
      >
        <option value="">{t('toolEra.auto', { era: server.era === 'modern' ? '2026-07-28' : '2025-11-25' })}</option>
        <option value="legacy">{t('toolEra.legacy')}</option>
        <option value="modern">{t('toolEra.modern')}</option>
      </select>
      <span className="field-help" data-testid={known ? 'tool-era-learned' : 'tool-era-auto'}>
        {known
          ? known.learned === 'person'
            ? t('toolEra.setByYou')
            : t('toolEra.learned', { detail: known.detail })
          : t('toolEra.autoHelp', { era: server.era === 'modern' ? '2026-07-28' : '2025-11-25' })}
      </span>
      <ActionError error={set.error} />
    </div>
  );
}

/** On a call whose tool needs the other era: that it was called again there, or why it failed with "Call again". */
export function EraNeedNotice({ call }: { call: CallView }) {
  const { t } = useTranslation('servers');
  const again = useAction(async () => getApi().rerunCall({ callId: call.id }));
  if (!call.eraNeed) return null;
  const era = call.eraNeed.needs === 'legacy' ? '2025-11-25' : '2026-07-28';
  if (call.eraNeed.calledAgain) {
    return (
      <Banner tone="info" title={t('toolEra.calledAgainTitle', { era })} testId="call-era-need">
        <p className="small">{t('toolEra.calledAgain', { tool: call.name, era })}</p>
      </Banner>
    );
  }
  return (
    <Banner tone="info" title={t('toolEra.noticeTitle', { era })} testId="call-era-need">
      <p className="small">{t(call.eraNeed.needs === 'legacy' ? 'toolEra.noticeLegacy' : 'toolEra.noticeModern', { tool: call.name, era })}</p>
      <button type="button" className="btn-primary btn-small" data-testid="call-again" disabled={again.pending} onClick={() => void again.run()}>
        {t('toolEra.callAgain', { tool: call.name })}
      </button>
      <ActionError error={again.error} />
    </Banner>
  );
}
