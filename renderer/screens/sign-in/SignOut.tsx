/** On a team server: who is signed in, with their role, and a sign-out button, at the foot of the nav. Nothing on the desktop. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { signOut, type FetchLike } from '../../api/team-session';
import { useViewer } from '../../viewer';

/** The signed-in person's name and the sign-out button; after signing out the page shows the sign-in. */
export function SignOutButton({ fetchFn = fetch as unknown as FetchLike }: { fetchFn?: FetchLike }) {
  const { t } = useTranslation('app');
  const { t: common } = useTranslation('common');
  const viewer = useViewer();
  const [pending, setPending] = useState(false);
  if (!viewer) return null;
  const out = async () => {
    setPending(true);
    await signOut(fetchFn);
    window.location.replace('/');
  };
  return (
    <div className="nav-viewer" aria-label={t('viewer.label')}>
      <span className="muted small" title={viewer.name} data-testid="signed-in-as">
        {t('viewer.signedInAs', { name: viewer.name, role: common(`roles.${viewer.role}`) })}
      </span>
      <button type="button" className="btn-small" disabled={pending} onClick={() => void out()} data-testid="sign-out">
        {t('signIn.signOut')}
      </button>
    </div>
  );
}
