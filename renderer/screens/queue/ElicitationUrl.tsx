/**
 * URL mode of an elicitation: the full URL and its domain, shown before anything opens. The page
 * opens only when the person clicks "Open in browser" (a new window with noopener; in Electron
 * main sends http(s) links to the system browser), which also answers accept. Decline / Cancel
 * answer without opening. Items from a -32042 error have nothing waiting: opening is all there is.
 */
import { Trans, useTranslation } from 'react-i18next';
import type { ElicitUrlParams } from '../../../shared/contract/elicitation';
import type { ElicitationItemView } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { ActionBar, ActionError, Banner, Section } from '../../components/common';
import { useAction } from '../../hooks';
import { useShortcutHint } from '../../keyboard/registry';
import { describeUrl } from './ElicitationModel';
import { decideHere, useDecisionsOff } from './review-hold';

/** The answers without opening (Decline, Cancel) and Open in browser, which opens the URL (when it can be opened) and accepts. */
function useUrlAnswer(item: ElicitationItemView, url: string, openable: boolean) {
  // An answer names the version of the question shown here; main refuses it about any other.
  const version = item.contentVersion;
  const off = useDecisionsOff() || !version;
  const respond = useAction(async (action: 'accept' | 'decline' | 'cancel') => {
    if (!version) return;
    await decideHere(item, () => getApi().respondElicitation({ itemId: item.id, version, action }));
  });
  const open = useAction(async () => {
    if (!openable || !version) return;
    window.open(url, '_blank', 'noopener,noreferrer');
    await decideHere(item, () => getApi().respondElicitation({ itemId: item.id, version, action: 'accept' }));
  });
  return { respond, open, busy: respond.pending || open.pending || off };
}

/** The domain (marked when not HTTPS) and the full address. */
function UrlBox({ url, host, protocol }: { url: string; host: string; protocol: string }) {
  const { t } = useTranslation('queue');
  return (
    <div className="elicitation-url-box">
      <div>
        <span className="muted small">{t('elicitation.domain')} </span>
        <strong className="elicitation-domain" data-testid="elicitation-url-domain">
          {host}
        </strong>
        {protocol === 'http:' && (
          <span className="badge tone-warn" title={t('elicitation.notHttpsTitle')}>
            {' '}
            {t('elicitation.notHttps')}
          </span>
        )}
      </div>
      <div>
        <span className="muted small">{t('elicitation.fullAddress')}</span>
        <code className="elicitation-full-url mono" data-testid="elicitation-url-full">
          {url}
        </code>
      </div>
    </div>
  );
}

/** Cancel (unless nothing waits: an item from an error), Decline (or "Don't open") and Open in browser, with their shortcuts. */
function UrlActionBar({ answer, fromError, openable }: { answer: ReturnType<typeof useUrlAnswer>; fromError: boolean; openable: boolean }) {
  const { t } = useTranslation('queue');
  const acceptHint = useShortcutHint('elicitation.accept');
  const declineHint = useShortcutHint('elicitation.decline');
  const cancelHint = useShortcutHint('elicitation.cancel');
  const { respond, open, busy } = answer;
  return (
    <ActionBar>
      <ActionError error={open.error ?? respond.error} />
      {!fromError && (
        <button type="button" data-testid="elicitation-cancel" disabled={busy} onClick={() => void respond.run('cancel')} {...cancelHint}>
          {t('elicitation.cancel')}
        </button>
      )}
      <button type="button" className="btn-danger" data-testid="elicitation-decline" disabled={busy} onClick={() => void respond.run('decline')} {...declineHint}>
        {fromError ? t('elicitation.dontOpen') : t('elicitation.decline')}
      </button>
      <button type="button" className="btn-primary" data-testid="elicitation-accept" disabled={busy || !openable} onClick={() => void open.run()} {...acceptHint}>
        {t('elicitation.openInBrowser')}
      </button>
    </ActionBar>
  );
}

/** The URL, its domain and the Open / Decline / Cancel bar. */
export function ElicitationUrl({ item, params }: { item: ElicitationItemView; params: ElicitUrlParams }) {
  const { t } = useTranslation('queue');
  const { host, protocol, openable } = describeUrl(params.url);
  const fromError = item.source === 'error';
  const answer = useUrlAnswer(item, params.url, openable);
  return (
    <>
      {fromError && (
        <Banner tone="info" title={t('elicitation.urlErrorTitle')} testId="elicitation-url-error-note">
          {t('elicitation.urlErrorBody')}
        </Banner>
      )}
      <Section title={t('elicitation.urlTitle')} testId="elicitation-url">
        <UrlBox url={params.url} host={host} protocol={protocol} />
        <p className="muted small">
          <Trans t={t} i18nKey="elicitation.nothingOpened" values={{ server: item.serverId }} components={{ strong: <strong /> }} />
          {!fromError && t('elicitation.openingTells')}
        </p>
        {!openable && (
          <Banner tone="error" title={t('elicitation.cannotOpenTitle')}>
            {t('elicitation.cannotOpenBody')}
          </Banner>
        )}
      </Section>
      <UrlActionBar answer={answer} fromError={fromError} openable={openable} />
    </>
  );
}
