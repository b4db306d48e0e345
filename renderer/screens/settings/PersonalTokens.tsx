/**
 * Settings → "Your personal tokens", on a team server only: the signed-in person's tokens for
 * their bridges and gateway callers (an admin may list everyone's), each with its scope, use and
 * "Revoke" (asked twice); and the "New token" form — a name, the servers a bridge may bring and
 * where it may be used — which shows the new token once. Calls made with one are "requested by"
 * its owner (docs/roles.md).
 */
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TOKEN_CALLERS, type PersonalTokenView, type TokenCaller } from '../../../shared/contract/personal-tokens';
import { getApi } from '../../api';
import { errorText } from '../../api/error-text';
import { CopyButton } from '../../components/CopyButton';
import { ActionError, Section } from '../../components/common';
import { dateTime, formatNumber, shortDateTime } from '../../format';
import { useAction } from '../../hooks';
import { useMay } from '../../viewer';
import { tokenNameProblem } from './gateway-token-name';

/** "Revoke", then "Revoke <name>" / "Keep". */
function Revoke({ token, onDone }: { token: PersonalTokenView; onDone(): void }) {
  const { t } = useTranslation('settings');
  const [confirming, setConfirming] = useState(false);
  const revoke = useAction(async () => {
    await getApi().revokePersonalToken({ id: token.id });
    onDone();
  });
  if (!confirming) {
    return (
      <button type="button" className="btn-small" onClick={() => setConfirming(true)} data-testid="personal-token-revoke" aria-label={t('gateway.revokeLabel', { name: token.name })}>
        {t('gateway.revoke')}
      </button>
    );
  }
  return (
    <span className="gateway-confirm" role="group" aria-label={t('gateway.revokeConfirmLabel', { name: token.name })}>
      <button type="button" className="btn-small btn-danger" disabled={revoke.pending} onClick={() => void revoke.run()} data-testid="personal-token-revoke-confirm">
        {t('gateway.revokeConfirm', { name: token.name })}
      </button>
      <button type="button" className="btn-small" autoFocus onClick={() => setConfirming(false)}>
        {t('gateway.keep')}
      </button>
      <ActionError error={revoke.error} />
    </span>
  );
}

/** The tokens table (or a line saying there are none); `owners`: show whose each is. */
function Table({ tokens, owners, onChange }: { tokens: PersonalTokenView[]; owners: boolean; onChange(): void }) {
  const { t } = useTranslation('settings');
  if (tokens.length === 0) return <p className="muted small">{t('personal.none')}</p>;
  return (
    <div className="gateway-table-scroll">
      <table className="gateway-table gateway-tokens" data-testid="personal-tokens">
        <thead>
          <tr>
            <th scope="col">{t('gateway.colName')}</th>
            {owners && <th scope="col">{t('personal.owner')}</th>}
            <th scope="col">{t('personal.scope')}</th>
            <th scope="col">{t('gateway.colCreated')}</th>
            <th scope="col">{t('personal.colCalls')}</th>
            <th scope="col">{t('gateway.colLastUsed')}</th>
            <th scope="col">{t('gateway.colActions')}</th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr key={token.id} data-testid="personal-token" data-name={token.name}>
              <td className="mono strong">{token.name}</td>
              {owners && <td>{token.owner.name}</td>}
              <td className="small">
                {[token.callers ? token.callers.map((c) => t(`personal.callers.${c}`)).join(', ') : t('personal.everywhere'), token.servers ? t('personal.onlyServers', { servers: token.servers.join(', ') }) : ''].filter(Boolean).join(' · ')}
              </td>
              <td title={dateTime(token.createdAt)}>{shortDateTime(token.createdAt)}</td>
              <td className="num">{formatNumber(token.calls)}</td>
              <td>{token.lastUsedAt !== undefined ? shortDateTime(token.lastUsedAt) : <span className="muted">{t('personal.notUsed')}</span>}</td>
              <td>
                <Revoke token={token} onDone={onChange} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The "New token" form; the token shows once, with Copy. */
function NewToken({ existing, onMade }: { existing: string[]; onMade(): void }) {
  const { t } = useTranslation('settings');
  const [name, setName] = useState('');
  const [servers, setServers] = useState('');
  const [callers, setCallers] = useState<Record<TokenCaller, boolean>>({ gateway: true, bridge: true });
  const [made, setMade] = useState<{ name: string; token: string } | null>(null);
  const problem = name === '' ? undefined : tokenNameProblem(name, existing);
  const create = useAction(async () => {
    const list = servers.split(',').map((s) => s.trim()).filter(Boolean);
    const chosen = TOKEN_CALLERS.filter((c) => callers[c]);
    const { token } = await getApi().createPersonalToken({ name, ...(list.length > 0 && { servers: list }), ...(chosen.length < TOKEN_CALLERS.length && { callers: chosen }) });
    setMade({ name, token });
    setName('');
    setServers('');
    onMade();
  });
  return (
    <>
      {made && (
        <div className="banner tone-ok gateway-created" role="status" data-testid="personal-token-created">
          <label className="field-label" htmlFor="personal-token-value">
            {t('gateway.createdLabel', { name: made.name })}
          </label>
          <div className="gateway-created-row">
            <input id="personal-token-value" type="text" className="mono" readOnly value={made.token} data-testid="personal-token-value" />
            <CopyButton text={made.token} label={t('gateway.tokenOf', { name: made.name })} />
            <button type="button" className="btn-small" onClick={() => setMade(null)}>
              {t('gateway.done')}
            </button>
          </div>
          <p className="field-help">{t('personal.shownOnce')}</p>
        </div>
      )}
      <form
        className="gateway-new"
        data-testid="personal-token-new"
        onSubmit={(e) => {
          e.preventDefault();
          if (name !== '' && !problem && (callers.gateway || callers.bridge)) void create.run();
        }}
      >
        <div className="field">
          <label htmlFor="personal-token-name">{t('gateway.newName')}</label>
          <input id="personal-token-name" type="text" className="mono" value={name} onChange={(e) => setName(e.target.value)} data-testid="personal-token-name" aria-invalid={problem ? true : undefined} />
          {problem && <span className="field-error">{problem}</span>}
        </div>
        <div className="field">
          <label htmlFor="personal-token-servers">{t('personal.servers')}</label>
          <input id="personal-token-servers" type="text" className="mono" value={servers} placeholder={t('personal.serversPlaceholder')} onChange={(e) => setServers(e.target.value)} data-testid="personal-token-servers" />
        </div>
        <fieldset className="field">
          <legend>{t('personal.usedFrom')}</legend>
          {TOKEN_CALLERS.map((c) => (
            <label key={c} className="check">
              <input type="checkbox" checked={callers[c]} onChange={(e) => setCallers({ ...callers, [c]: e.target.checked })} data-testid={`personal-token-caller-${c}`} /> {t(`personal.callers.${c}`)}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={create.pending || name === '' || !!problem} data-testid="personal-token-create">
          {t('gateway.create')}
        </button>
        <ActionError error={create.error} />
      </form>
    </>
  );
}

/** The section: shown on a team server (whoAmI answers a person). */
export function PersonalTokens() {
  const { t } = useTranslation('settings');
  const admin = useMay('admin');
  const [everyone, setEveryone] = useState(false);
  const [tokens, setTokens] = useState<PersonalTokenView[]>([]);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    getApi()
      .listPersonalTokens(everyone ? { everyone: true } : {})
      .then(
        (r) => (setTokens(r.tokens), setError(null)),
        (err: unknown) => setError(errorText(err)),
      );
  }, [everyone]);
  useEffect(load, [load]);
  return (
    <Section title={t('personal.title')} testId="settings-personal-tokens">
      <p className="field-help">{t('personal.help')}</p>
      {admin && (
        <label className="check">
          <input type="checkbox" checked={everyone} onChange={(e) => setEveryone(e.target.checked)} data-testid="personal-tokens-everyone" /> {t('personal.everyone')}
        </label>
      )}
      <ActionError error={error} />
      <Table tokens={tokens} owners={everyone} onChange={load} />
      <NewToken existing={tokens.map((tk) => tk.name)} onMade={load} />
    </Section>
  );
}
