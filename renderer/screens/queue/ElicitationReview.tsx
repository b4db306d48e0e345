/**
 * The review screen of an elicitation: which server asks and for which call, its message (as
 * sanitised Markdown), the standing warning that servers must never ask for passwords or keys
 * (red when the form looks like it does), then the form (ElicitationForm), the URL
 * (ElicitationUrl) or, once answered, the outcome and the answer sent, with Dismiss.
 */
import type { ElicitationItemView } from '../../../shared/state';
import { getApi } from '../../api';
import { ActionError, Banner, Facts, Pill, RawJson, Section } from '../../components/common';
import { clockTime, duration } from '../../format';
import { useAction, useNow } from '../../hooks';
import { Markdown } from '../../markdown';
import { useConsole, useElicitations, useItems } from '../../store';
import { ElicitationForm } from './ElicitationForm';
import { ELICITATION_STATUS, elicitationCallLabel, elicitationWaitedMs, mergeQueue } from './ElicitationModel';
import { ElicitationUrl } from './ElicitationUrl';
import './elicitation.css';

function ElicitationHeader({ item }: { item: ElicitationItemView }) {
  const now = useNow();
  const selectServer = useConsole((s) => s.selectServer);
  const setScreen = useConsole((s) => s.setScreen);
  const look = ELICITATION_STATUS[item.status];
  const { calls, exact } = item.association;
  return (
    <header className="item-header" data-testid="item-header">
      <div className="item-header-top">
        <h2>
          <button
            type="button"
            className="btn-link strong elicitation-asker"
            data-testid="elicitation-server"
            title="Open this server"
            onClick={() => {
              selectServer(item.serverId);
              setScreen('servers');
            }}
          >
            {item.serverId}
          </button>{' '}
          {item.params.mode === 'url' ? 'asks you to open a page' : 'asks you for information'}
        </h2>
        <Pill tone={look.tone} testId="elicitation-status">
          {look.label}
        </Pill>
      </div>
      <div className="item-header-facts">
        <span data-testid="item-association">
          <span className="muted">For </span>
          <strong>{elicitationCallLabel(item)}</strong>
          {!exact && calls.length > 1 && (
            <span className="muted" title="The server did not say which request this belongs to">
              {' '}
              ({calls.map((c) => `${c.kind} ${c.name}`).join(', ')})
            </span>
          )}
        </span>
        <span className="muted">{item.era === 'modern' ? 'MRTR, 2026-07-28' : 'push, 2025-11-25 era'}</span>
        <span>
          <span className="muted">Received </span>
          {clockTime(item.receivedAt)}
        </span>
        <span data-testid="item-waited">
          <span className="muted">{item.outcome ? 'Took ' : 'Waiting '}</span>
          {duration(elicitationWaitedMs(item, now))}
        </span>
      </div>
    </header>
  );
}

function SecretWarning({ item }: { item: ElicitationItemView }) {
  if (item.secretWarning) {
    return (
      <Banner tone="error" title="This looks like a request for a password, key or other secret" testId="elicitation-warning">
        Servers must never ask for passwords, API keys, tokens or payment details through this form. Decline unless you are sure what is asked is not a secret.
      </Banner>
    );
  }
  return (
    <Banner tone="warn" testId="elicitation-warning">
      Servers must never ask for passwords or API keys. Only answer what you are willing to share with <strong>{item.serverId}</strong>.
    </Banner>
  );
}

function AnswerView({ item }: { item: ElicitationItemView }) {
  const answer = item.answer;
  if (!answer) return <p className="muted small">No answer was sent to the server{item.source === 'error' ? ' (nothing was waiting for one)' : ''}.</p>;
  const content = answer.content ?? {};
  const names = Object.keys(content);
  return (
    <div data-testid="elicitation-answer">
      <Facts rows={[['Action', <span className="mono">{answer.action}</span>]]} />
      {names.length > 0 && (
        <table className="elicitation-answer-table">
          <tbody>
            {names.map((n) => (
              <tr key={n}>
                <th scope="row" className="mono">
                  {n}
                </th>
                <td className="mono">{Array.isArray(content[n]) ? (content[n] as string[]).join(', ') : String(content[n])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function Finished({ item }: { item: ElicitationItemView }) {
  const items = useItems();
  const elicitations = useElicitations();
  const selectItem = useConsole((s) => s.selectItem);
  const look = ELICITATION_STATUS[item.status];
  const dismiss = useAction(async () => {
    const entries = mergeQueue(items, elicitations);
    const index = entries.findIndex((e) => e.id === item.id);
    await getApi().dismissItem({ itemId: item.id });
    const next = entries[index + 1] ?? entries[index - 1];
    selectItem(next && next.id !== item.id ? next.id : null);
  });
  return (
    <>
      <Banner tone={look.tone === 'warn' ? 'warn' : look.tone} title={look.label} testId="elicitation-outcome">
        {item.outcome?.message}
        {item.outcome && <span className="muted"> at {clockTime(item.outcome.at)}</span>}
      </Banner>
      <Section title="What was answered">
        <AnswerView item={item} />
      </Section>
      <footer className="action-bar">
        <ActionError error={dismiss.error} />
        <button type="button" data-testid="dismiss-item" disabled={dismiss.pending} onClick={() => void dismiss.run()}>
          Dismiss
        </button>
      </footer>
    </>
  );
}

/** The review screen of one elicitation item (`elicitation-review`). */
export function ElicitationReview({ item }: { item: ElicitationItemView }) {
  const params = item.params;
  const waiting = item.status === 'awaiting_input';
  return (
    <div className="review elicitation-review" data-testid="elicitation-review" data-mode={params.mode ?? 'form'} data-status={item.status}>
      <ElicitationHeader item={item} />
      <SecretWarning item={item} />
      <Section title="Message from the server">
        <div className="elicitation-message" data-testid="elicitation-message">
          <Markdown text={params.message || '(no message)'} />
        </div>
      </Section>
      <RawJson value={params} label="Raw JSON: params as the server sent them" />
      {waiting && params.mode === 'url' && <ElicitationUrl item={item} params={params} />}
      {waiting && params.mode !== 'url' && <ElicitationForm item={item} params={params} />}
      {!waiting && params.mode === 'url' && (
        <Section title="The page">
          <code className="elicitation-full-url mono">{params.url}</code>
        </Section>
      )}
      {!waiting && <Finished item={item} />}
    </div>
  );
}
