/**
 * The provider gateway's named tokens in Settings: the list (name, created, calls since the
 * console started, last used) with "Copy token" (read again from the secret store), "Show in
 * History" and "Revoke" (asked twice), and the "New token" form, which shows the new token once.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tokenCallerId, type GatewayTokenView } from '../../../shared/contract/gateway';
import { getApi } from '../../api';
import { errorText } from '../../api/error-text';
import { CopyButton } from '../../components/CopyButton';
import { ActionError } from '../../components/common';
import { dateTime, formatNumber, shortDateTime } from '../../format';
import { useAction } from '../../hooks';
import { useConsole } from '../../store';
import { useHistoryUi } from '../history/history-ui';
import { tokenNameProblem } from './gateway-token-name';

/** "Copy token": asks main for the token (`revealGatewayToken`) and puts it on the clipboard. */
function RevealButton({ name }: { name: string }) {
  const { t } = useTranslation('settings');
  const [done, setDone] = useState<'copied' | string | null>(null);
  const copy = () => {
    setDone(null);
    getApi()
      .revealGatewayToken({ name })
      .then(({ token }) => navigator.clipboard.writeText(token))
      .then(
        () => setDone('copied'),
        (err: unknown) => setDone(errorText(err)),
      );
  };
  return (
    <>
      <button type="button" className="btn-small" aria-label={t('gateway.copyTokenLabel', { name })} onClick={copy} data-testid="gateway-token-copy">
        {done === 'copied' ? t('gateway.copied') : t('gateway.copyToken')}
      </button>
      {done !== null && done !== 'copied' && <ActionError error={done} />}
    </>
  );
}

/** "Show in History": History filtered to this token's calls (their server id is `gateway:<name>`). */
function HistoryButton({ name }: { name: string }) {
  const { t } = useTranslation('settings');
  const setScreen = useConsole((s) => s.setScreen);
  const show = () => {
    const ui = useHistoryUi.getState();
    ui.clearFilters();
    ui.setFilter('serverId', tokenCallerId(name));
    setScreen('history');
  };
  return (
    <button type="button" className="btn-small" aria-label={t('gateway.showInHistoryLabel', { name })} onClick={show} data-testid="gateway-token-history">
      {t('gateway.showInHistory')}
    </button>
  );
}

/** "Revoke", then "Revoke <name>" / "Keep" before anything is sent. */
function RevokeButton({ name }: { name: string }) {
  const { t } = useTranslation('settings');
  const [confirming, setConfirming] = useState(false);
  const revoke = useAction(() => getApi().revokeGatewayToken({ name }));
  if (!confirming) {
    return (
      <button type="button" className="btn-small" aria-label={t('gateway.revokeLabel', { name })} onClick={() => setConfirming(true)} data-testid="gateway-token-revoke">
        {t('gateway.revoke')}
      </button>
    );
  }
  return (
    <span className="gateway-confirm" role="group" aria-label={t('gateway.revokeConfirmLabel', { name })} data-testid="gateway-revoke-confirm">
      <span className="small">{t('gateway.revokeQuestion')}</span>
      <button type="button" className="btn-small btn-danger" disabled={revoke.pending} onClick={() => void revoke.run()} data-testid="gateway-token-revoke-confirm">
        {t('gateway.revokeConfirm', { name })}
      </button>
      {/* Focus lands on "Keep": the safe answer is the nearest key press. */}
      <button type="button" className="btn-small" autoFocus onClick={() => setConfirming(false)} data-testid="gateway-token-keep">
        {t('gateway.keep')}
      </button>
      <ActionError error={revoke.error} />
    </span>
  );
}

/** The tokens table (or a line saying there are none). */
function TokenTable({ tokens }: { tokens: GatewayTokenView[] }) {
  const { t } = useTranslation('settings');
  if (tokens.length === 0) return <p className="muted small" data-testid="gateway-no-tokens">{t('gateway.noTokens')}</p>;
  return (
    <div className="gateway-table-scroll">
      <table className="gateway-table gateway-tokens" data-testid="gateway-tokens">
        <thead>
          <tr>
            <th scope="col">{t('gateway.colName')}</th>
            <th scope="col">{t('gateway.colCreated')}</th>
            <th scope="col">{t('gateway.colCalls')}</th>
            <th scope="col">{t('gateway.colLastUsed')}</th>
            <th scope="col">{t('gateway.colActions')}</th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr key={token.name} data-testid="gateway-token" data-name={token.name}>
              <td className="mono strong gateway-token-name">{token.name}</td>
              <td title={dateTime(token.createdAt)}>{shortDateTime(token.createdAt)}</td>
              <td className="num">{formatNumber(token.calls)}</td>
              <td title={token.lastUsedAt !== undefined ? dateTime(token.lastUsedAt) : undefined}>
                {token.lastUsedAt !== undefined ? shortDateTime(token.lastUsedAt) : <span className="muted">{t('gateway.notUsed')}</span>}
              </td>
              <td>
                <span className="gateway-actions">
                  <RevealButton name={token.name} />
                  <HistoryButton name={token.name} />
                  <RevokeButton name={token.name} />
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The new token, shown once: a read-only field with Copy, and where to copy it again. */
function CreatedToken({ name, token, onDone }: { name: string; token: string; onDone(): void }) {
  const { t } = useTranslation('settings');
  return (
    <div className="banner tone-ok gateway-created" role="status" data-testid="gateway-created">
      <label className="field-label" htmlFor="gateway-created-token">
        {t('gateway.createdLabel', { name })}
      </label>
      <div className="gateway-created-row">
        <input id="gateway-created-token" type="text" className="mono" readOnly value={token} onFocus={(e) => e.currentTarget.select()} data-testid="gateway-created-token" />
        <CopyButton text={token} label={t('gateway.tokenOf', { name })} testId="gateway-created-copy" />
        <button type="button" className="btn-small" onClick={onDone} data-testid="gateway-created-done">
          {t('gateway.done')}
        </button>
      </div>
      <p className="field-help">{t('gateway.createdNote')}</p>
    </div>
  );
}

/** The "New token" form: a name, checked as typed with the schema main uses; the token shows once. */
function NewTokenForm({ existing }: { existing: string[] }) {
  const { t } = useTranslation('settings');
  const [name, setName] = useState('');
  const [attempted, setAttempted] = useState(false);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const problem = tokenNameProblem(name, existing);
  const create = useAction(async (wanted: string) => {
    const { token } = await getApi().createGatewayToken({ name: wanted });
    setCreated({ name: wanted, token });
    setName('');
    setAttempted(false);
  });
  // As typed once there is a name; "name required" only after a try.
  const shownProblem = name !== '' || attempted ? problem : undefined;
  return (
    <>
      {created && <CreatedToken name={created.name} token={created.token} onDone={() => setCreated(null)} />}
      <form
        className="gateway-new"
        data-testid="gateway-new-token"
        onSubmit={(e) => {
          e.preventDefault();
          setAttempted(true);
          if (!problem) void create.run(name);
        }}
      >
        <div className="field">
          <label htmlFor="gateway-token-name">{t('gateway.newName')}</label>
          <div className="gateway-new-row">
            <input
              id="gateway-token-name"
              type="text"
              className="mono"
              value={name}
              aria-invalid={shownProblem ? true : undefined}
              aria-describedby="gateway-token-name-help"
              onChange={(e) => setName(e.target.value)}
              data-testid="gateway-token-name"
            />
            <button type="submit" disabled={create.pending} data-testid="gateway-token-create">
              {t('gateway.create')}
            </button>
          </div>
          <span className="field-help" id="gateway-token-name-help">
            {t('gateway.newNameHelp')}
          </span>
          {shownProblem && (
            <span className="field-error" data-testid="gateway-token-name-error">
              {shownProblem}
            </span>
          )}
        </div>
        <ActionError error={create.error} />
      </form>
    </>
  );
}

/** The named tokens: the table and the "New token" form. */
export function GatewayTokens({ tokens }: { tokens: GatewayTokenView[] }) {
  const { t } = useTranslation('settings');
  return (
    <div className="gateway-row gateway-token-block" data-testid="gateway-token-block">
      <h4 className="field-label">{t('gateway.tokens')}</h4>
      <p className="field-help">{t('gateway.tokensHelp')}</p>
      <TokenTable tokens={tokens} />
      <NewTokenForm existing={tokens.map((tk) => tk.name)} />
    </div>
  );
}
