/** Renderer entry: picks the API once, starts mirroring main's state, renders the app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import { getApi, getConnection } from './api';
import { App } from './App';
import { markTeamServer, sessionGate, teamSession, type FetchLike } from './api/team-session';
import { SignIn } from './screens/sign-in/SignIn';
import { startMirror } from './mirror';
import { startDraftAutosave } from './screens/queue/autosave';
import { warmUpOnceOpen } from './warm-up';
import { preloadScreens } from './screens/lazy-screens';
import { renderSampleReview } from './warm-up-review';
import { useConsole } from './store';
import './styles.css';

/** Starts the console: the API, the mirror of main's state, the app, the warm-up. */
function startConsole(): void {
  startMirror(getApi());
  startDraftAutosave(getApi());
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  // `data-warmed-up` on the root element says the warm-up has run (the e2e suite waits for it).
  // Then, when the page is idle, the other screens' chunks are fetched (the Queue came first);
  // `data-screens-loaded` says they have been.
  void warmUpOnceOpen(getConnection(), { stateArrived: () => useConsole.getState().mirror !== null, renderReview: renderSampleReview }).then(() => {
    document.documentElement.dataset.warmedUp = 'true';
    const preload = () => void preloadScreens().then(() => (document.documentElement.dataset.screensLoaded = 'true'));
    if (typeof requestIdleCallback === 'function') requestIdleCallback(preload, { timeout: 5_000 });
    else setTimeout(preload, 0);
  });
}

// In Electron the API is the preload's; in a browser, a team server may ask for a sign-in first.
if (window.api) startConsole();
else {
  void teamSession(fetch as unknown as FetchLike).then(({ gate, methods, csrfToken }) => {
    if (methods.length > 0) markTeamServer();
    if (gate === 'console') {
      startConsole();
      // A team server closes the connection of a session that ended (signed out elsewhere, the admin token replaced, expired): sign in again.
      getConnection().onStatus((status) => {
        if (status === 'reconnecting') void sessionGate(fetch as unknown as FetchLike).then((again) => again === 'sign-in' && window.location.reload());
      });
      return;
    }
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <SignIn methods={methods} csrfToken={csrfToken} />
      </StrictMode>,
    );
  });
}
