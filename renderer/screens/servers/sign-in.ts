/**
 * OAuth sign-in for a server (one of the console's own HTTP servers, or a bridged one): asks main
 * for the authorization URL and opens it. In Electron main opens the browser itself (`opened`); in
 * a browser the renderer opens a new tab at once, on the click (after an await a browser may block
 * it), and points it at the URL when main did not open it.
 */
import { useState } from 'react';
import { getApi } from '../../api';
import { useAction, type ActionState } from '../../hooks';
import { useConsole } from '../../store';

/** "Sign in" for `serverId`; `link` is the authorization URL once opened here ("Open the sign-in page again"). */
export function useSignIn(serverId: string): ActionState<[]> & { link: string | null } {
  const host = useConsole((s) => s.mirror?.settings.host);
  const [link, setLink] = useState<string | null>(null);
  const action = useAction(async () => {
    const tab = host === 'web' ? window.open('about:blank', '_blank') : null;
    if (tab) tab.opener = null;
    try {
      const res = await getApi().signIn({ serverId });
      if (res.authorizationUrl && !res.opened) {
        setLink(res.authorizationUrl);
        if (tab) tab.location.href = res.authorizationUrl;
      } else tab?.close();
    } catch (err) {
      tab?.close();
      throw err;
    }
  });
  return { ...action, link };
}
