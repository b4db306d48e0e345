/** The Servers screen: every configured server, and the selected one's status, tools and calls. */
import type { ServerStatus, ServerView } from '../../../shared/state';
import { getApi } from '../../api';
import { ActionError, Banner, Empty, Facts, Pill, Section } from '../../components/common';
import { useAction } from '../../hooks';
import { useCalls, useConsole, useServers } from '../../store';
import { CallsList } from './CallsList';
import { ToolForm } from './ToolForm';

const STATUS_TONE: Record<ServerStatus, 'ok' | 'info' | 'error' | 'muted'> = {
  ready: 'ok',
  connecting: 'info',
  error: 'error',
  disconnected: 'muted',
};

/** A server's connection status pill. */
export function ServerStatusPill({ status }: { status: ServerStatus }) {
  return (
    <Pill tone={STATUS_TONE[status]} testId="server-status">
      {status}
    </Pill>
  );
}

function ServerDetail({ server }: { server: ServerView }) {
  const calls = useCalls().filter((c) => c.serverId === server.id);
  const selectedTool = useConsole((s) => s.selectedTool);
  const selectTool = useConsole((s) => s.selectTool);
  const restart = useAction(() => getApi().restartServer({ serverId: server.id }));
  const tool = server.tools.find((t) => t.name === selectedTool);
  return (
    <div className="server-detail" data-testid="server-detail" data-server-id={server.id}>
      <header className="item-header">
        <div className="item-header-top">
          <h2 className="mono">{server.id}</h2>
          <ServerStatusPill status={server.status} />
          <span className="spacer" />
          <ActionError error={restart.error} />
          <button type="button" onClick={() => void restart.run()} disabled={restart.pending} data-testid="restart-server">
            Restart
          </button>
        </div>
        <Facts
          rows={[
            ['Transport', server.transport],
            ['Target', <span key="t" className="mono break">{server.target}</span>],
            ['Protocol', server.protocolVersion ? `${server.protocolVersion}${server.era ? ` (${server.era === 'modern' ? 'MRTR era' : 'push era'})` : ''}` : '—'],
            server.serverInfo && ['Server', `${server.serverInfo.title ?? server.serverInfo.name} ${server.serverInfo.version}`],
            ['In flight', String(server.inFlight)],
          ]}
        />
      </header>
      {(server.status === 'error' || server.status === 'disconnected') && server.error && (
        <Banner tone={server.status === 'error' ? 'error' : 'muted'} title={server.status === 'error' ? 'Connection failed' : 'Disconnected'} testId="server-error">
          {server.error}
        </Banner>
      )}
      {server.stderrTail.length > 0 && (
        <Section title="stderr (last lines)">
          <pre className="mono-box stderr" data-testid="server-stderr">
            {server.stderrTail.join('\n')}
          </pre>
        </Section>
      )}
      <Section title={`Tools (${server.tools.length})`}>
        {server.tools.length === 0 ? (
          <p className="muted small">{server.status === 'ready' ? 'This server offers no tools.' : 'Tools appear once the server is ready.'}</p>
        ) : (
          <div className="tools">
            <ul className="tool-list" aria-label="Tools">
              {server.tools.map((t) => (
                <li key={t.name}>
                  <button
                    type="button"
                    className={`tool-item${t.name === selectedTool ? ' is-selected' : ''}`}
                    aria-current={t.name === selectedTool ? 'true' : undefined}
                    data-testid="tool-item"
                    onClick={() => selectTool(t.name)}
                    title={t.description}
                  >
                    {t.name}
                  </button>
                </li>
              ))}
            </ul>
            <div className="tool-panel">
              {tool ? <ToolForm key={`${server.id}/${tool.name}`} server={server} tool={tool} /> : <Empty>Select a tool to call it.</Empty>}
            </div>
          </div>
        )}
      </Section>
      <Section title={`Calls (${calls.length})`}>
        <CallsList calls={calls} />
      </Section>
    </div>
  );
}

/** The Servers screen. */
export function ServersScreen() {
  const servers = useServers();
  const selectedId = useConsole((s) => s.selectedServerId);
  const selectServer = useConsole((s) => s.selectServer);
  const selected = servers.find((s) => s.id === selectedId) ?? servers[0];
  return (
    <div className="split" data-testid="servers-screen">
      <div className="split-list narrow">
        <div className="pane-title">
          <h2>Servers</h2>
          <span className="muted small">{servers.length}</span>
        </div>
        {servers.length === 0 ? (
          <Empty>No servers configured.</Empty>
        ) : (
          <ul className="server-list">
            {servers.map((s) => (
              <li key={s.id}>
                <button
                  type="button"
                  className={`server-row${s.id === selected?.id ? ' is-selected' : ''}`}
                  aria-current={s.id === selected?.id ? 'true' : undefined}
                  data-testid="server-item"
                  data-server-id={s.id}
                  onClick={() => selectServer(s.id)}
                >
                  <span className="server-row-top">
                    <span className="mono strong">{s.id}</span>
                    <ServerStatusPill status={s.status} />
                  </span>
                  <span className="muted small">
                    {s.transport} · {s.tools.length} tools{s.inFlight ? ` · ${s.inFlight} in flight` : ''}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="split-detail">{selected ? <ServerDetail server={selected} /> : <Empty>Select a server.</Empty>}</div>
    </div>
  );
}
