/**
 * A team server's sign-in page (renderer/api/team-session.ts): one field for the team's admin
 * token. On success the page reloads and starts the console with the session cookie the server set.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionError } from '../../components/common';
import { signInWithToken, type FetchLike, type SignInOutcome } from '../../api/team-session';

/** The message of an outcome that is not `ok`. */
function useOutcomeText(): (outcome: Exclude<SignInOutcome, { kind: 'ok' }>) => string {
  const { t } = useTranslation('app');
  return (outcome) => {
    if (outcome.kind === 'wrong') return t('signIn.wrong');
    if (outcome.kind === 'throttled') return t('signIn.throttled', { seconds: outcome.retryAfterS });
    if (outcome.kind === 'unavailable') return t('signIn.unavailable');
    return t('signIn.failed', { status: outcome.status });
  };
}

/** The sign-in form; `onSignedIn` once the server took the token (default: reload the page). */
export function SignIn({ fetchFn = fetch as unknown as FetchLike, onSignedIn = () => window.location.reload() }: { fetchFn?: FetchLike; onSignedIn?: () => void }) {
  const { t } = useTranslation('app');
  const textOf = useOutcomeText();
  const [token, setToken] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!token.trim() || pending) return;
    setPending(true);
    setError(null);
    const outcome = await signInWithToken(fetchFn, token.trim());
    setPending(false);
    if (outcome.kind === 'ok') return onSignedIn();
    setError(textOf(outcome));
  };
  return (
    <main className="main" id="main">
      <form className="center sign-in" onSubmit={(e) => void submit(e)} data-testid="team-sign-in">
        <h1>{t('signIn.title')}</h1>
        <p className="muted">{t('signIn.explain')}</p>
        <label className="field" htmlFor="team-admin-token">
          {t('signIn.tokenLabel')}
          <input id="team-admin-token" type="password" className="mono" autoComplete="current-password" autoFocus value={token} onChange={(e) => setToken(e.target.value)} data-testid="team-admin-token" />
        </label>
        <button type="submit" className="btn-primary" disabled={pending || !token.trim()} data-testid="team-sign-in-submit">
          {pending ? t('signIn.pending') : t('signIn.submit')}
        </button>
        <ActionError error={error} />
      </form>
    </main>
  );
}
