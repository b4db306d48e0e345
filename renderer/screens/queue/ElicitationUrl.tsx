/**
 * URL mode of an elicitation: the full URL and its domain, shown before anything opens. The page
 * opens only when the person clicks "Open in browser" (a new window with noopener; in Electron
 * main sends http(s) links to the system browser), which also answers accept. Decline / Cancel
 * answer without opening. Items from a -32042 error have nothing waiting: opening is all there is.
 */
import type { ElicitUrlParams } from '../../../shared/elicitation';
import type { ElicitationItemView } from '../../../shared/state';
import { getApi } from '../../api';
import { ActionError, Banner, Section } from '../../components/common';
import { useAction } from '../../hooks';
import { describeUrl } from './ElicitationModel';

/** The URL, its domain and the Open / Decline / Cancel bar. */
export function ElicitationUrl({ item, params }: { item: ElicitationItemView; params: ElicitUrlParams }) {
  const { host, protocol, openable } = describeUrl(params.url);
  const fromError = item.source === 'error';
  const respond = useAction(async (action: 'accept' | 'decline' | 'cancel') => {
    await getApi().respondElicitation({ itemId: item.id, action });
  });
  const open = useAction(async () => {
    if (!openable) return;
    window.open(params.url, '_blank', 'noopener,noreferrer');
    await getApi().respondElicitation({ itemId: item.id, action: 'accept' });
  });
  const busy = respond.pending || open.pending;
  return (
    <>
      {fromError && (
        <Banner tone="info" title="The server requires you to open this page first; then call the tool again." testId="elicitation-url-error-note">
          The call failed with “URL elicitation required” (-32042). Nothing is waiting for an answer here: open the page, finish there, then run the tool again.
        </Banner>
      )}
      <Section title="The server asks you to open a page" testId="elicitation-url">
        <div className="elicitation-url-box">
          <div>
            <span className="muted small">Domain </span>
            <strong className="elicitation-domain" data-testid="elicitation-url-domain">
              {host}
            </strong>
            {protocol === 'http:' && (
              <span className="badge tone-warn" title="The page is not served over HTTPS">
                {' '}
                not encrypted (http)
              </span>
            )}
          </div>
          <div>
            <span className="muted small">Full address</span>
            <code className="elicitation-full-url mono" data-testid="elicitation-url-full">
              {params.url}
            </code>
          </div>
        </div>
        <p className="muted small">
          Nothing has been opened. Check the domain: only open it if you expected <strong>{item.serverId}</strong> to send you there.
          {!fromError && ' Opening it tells the server you agreed; the server learns when you finish there.'}
        </p>
        {!openable && (
          <Banner tone="error" title="This address cannot be opened from the console">
            Only http and https pages are opened. Decline or cancel.
          </Banner>
        )}
      </Section>
      <footer className="action-bar">
        <ActionError error={open.error ?? respond.error} />
        {!fromError && (
          <button type="button" data-testid="elicitation-cancel" disabled={busy} onClick={() => void respond.run('cancel')}>
            Cancel
          </button>
        )}
        <button type="button" className="btn-danger" data-testid="elicitation-decline" disabled={busy} onClick={() => void respond.run('decline')}>
          {fromError ? "Don't open" : 'Decline'}
        </button>
        <button type="button" className="btn-primary" data-testid="elicitation-accept" disabled={busy || !openable} onClick={() => void open.run()}>
          Open in browser
        </button>
      </footer>
    </>
  );
}
