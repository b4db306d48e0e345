/**
 * A team server's sign-in page (renderer/api/team-session.ts): a person's name and password,
 * single sign-on when the server offers it, and the team's admin token (folded away). On success
 * the page reloads and starts the console with the session cookie the server set.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionError } from '../../components/common';
import { signIn, startSingleSignOn, type FetchLike, type SignInCredentials, type SignInOutcome, type TeamSignInMethod } from '../../api/team-session';

/** The message of an outcome that is not `ok`. */
function useOutcomeText(): (outcome: Exclude<SignInOutcome, { kind: 'ok' }>, method: SignInCredentials['method']) => string {
  const { t } = useTranslation('app');
  return (outcome, method) => {
    if (outcome.kind === 'wrong') return method === 'password' ? t('signIn.wrongPassword') : t('signIn.wrong');
    if (outcome.kind === 'throttled') return t('signIn.throttled', { seconds: outcome.retryAfterS });
    if (outcome.kind === 'unavailable') return t('signIn.unavailable');
    return t('signIn.failed', { status: outcome.status });
  };
}

/** The error a single sign-on came back with (`/?signIn=…`), if any. */
function useReturnedError(): string | null {
  const { t } = useTranslation('app');
  const code = typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get('signIn');
  if (code === 'oidc_unknown') return t('signIn.ssoUnknown');
  if (code === 'oidc_failed') return t('signIn.ssoFailed');
  return null;
}

interface SignInProps {
  methods?: readonly TeamSignInMethod[];
  csrfToken?: string;
  fetchFn?: FetchLike;
  onSignedIn?: () => void;
}

/** The sign-in page; `onSignedIn` once the server took the credentials (default: reload the page at `/`). */
export function SignIn({ methods = ['password', 'admin_token'], csrfToken = '', fetchFn = fetch as unknown as FetchLike, onSignedIn = () => window.location.replace('/') }: SignInProps) {
  const { t } = useTranslation('app');
  const textOf = useOutcomeText();
  const returned = useReturnedError();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [token, setToken] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(returned);
  const send = async (credentials: SignInCredentials) => {
    if (pending) return;
    setPending(true);
    setError(null);
    const outcome = await signIn(fetchFn, credentials, csrfToken);
    setPending(false);
    if (outcome.kind === 'ok') return onSignedIn();
    setError(textOf(outcome, credentials.method));
  };
  const submitPassword = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() && password) void send({ method: 'password', name: name.trim(), password });
  };
  const submitToken = (e: FormEvent) => {
    e.preventDefault();
    if (token.trim()) void send({ method: 'admin_token', token: token.trim() });
  };
  const singleSignOn = async () => {
    setPending(true);
    setError(null);
    const started = await startSingleSignOn(fetchFn, csrfToken);
    if ('url' in started) return window.location.assign(started.url);
    setPending(false);
    setError(t('signIn.failed', { status: started.status }));
  };
  return (
    <main className="main" id="main">
      <div className="center sign-in" data-testid="team-sign-in">
        <h1>{t('signIn.title')}</h1>
        {methods.includes('password') && (
          <form className="sign-in-form" onSubmit={submitPassword} data-testid="team-password-form">
            <label className="field" htmlFor="team-name">
              {t('signIn.nameLabel')}
              <input id="team-name" autoComplete="username" autoFocus value={name} onChange={(e) => setName(e.target.value)} data-testid="team-name" />
            </label>
            <label className="field" htmlFor="team-password">
              {t('signIn.passwordLabel')}
              <input id="team-password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} data-testid="team-password" />
            </label>
            <button type="submit" className="btn-primary" disabled={pending || !name.trim() || !password} data-testid="team-password-submit">
              {pending ? t('signIn.pending') : t('signIn.submit')}
            </button>
          </form>
        )}
        {methods.includes('oidc') && (
          <button type="button" className="btn" disabled={pending} onClick={() => void singleSignOn()} data-testid="team-sso">
            {t('signIn.sso')}
          </button>
        )}
        <ActionError error={error} />
        {methods.includes('admin_token') && (
          <details className="sign-in-token" open={!methods.includes('password')}>
            <summary>{t('signIn.tokenSummary')}</summary>
            <form className="sign-in-form" onSubmit={submitToken}>
              <p className="muted">{t('signIn.explain')}</p>
              <label className="field" htmlFor="team-admin-token">
                {t('signIn.tokenLabel')}
                <input id="team-admin-token" type="password" className="mono" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} data-testid="team-admin-token" />
              </label>
              <button type="submit" className="btn" disabled={pending || !token.trim()} data-testid="team-sign-in-submit">
                {pending ? t('signIn.pending') : t('signIn.submitToken')}
              </button>
            </form>
          </details>
        )}
      </div>
    </main>
  );
}
