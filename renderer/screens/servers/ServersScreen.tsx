/**
 * The Servers screen: every configured server (mcp-servers.json, in file order) with "Add server"
 * and "Import"; the selected server's page (ServerHeader, then Tools / Prompts / Resources / Log
 * tabs and its calls), or the editor or import panel in its place. Problems with the config file
 * (edited by hand) are shown on top: the last good config stays in force until it is fixed.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ServerView } from '../../../shared/contract/state';
import { Banner, Empty } from '../../components/common';
import { useCalls, useConsole, useServers } from '../../store';
import { BridgedServers } from './BridgedServers';
import { CallsList } from './CallsList';
import { ImportPanel } from './ImportPanel';
import { InlineReview } from './InlineReview';
import { LogPanel } from './LogPanel';
import { PromptsPanel } from './PromptsPanel';
import { ResourcesPanel } from './ResourcesPanel';
import { RootsPanel } from './RootsPanel';
import { ServerEditor } from './ServerEditor';
import { ServerHeader, ServerStatusPill } from './ServerHeader';
import { ToolForm } from './ToolForm';
import { pageOf, useServersUi, type ServerTab } from './servers-ui';
import { useKeptScroll } from './kept-scroll';
import './servers.css';

export { ServerStatusPill } from './ServerHeader';

type Mode = { kind: 'detail' } | { kind: 'add' } | { kind: 'edit'; id: string } | { kind: 'import' };

const savedPageScroll = (id: string) => pageOf(useServersUi.getState(), id).scrollTop;
const keepPageScroll = (id: string, scrollTop: number) => useServersUi.getState().keepScroll(id, { scrollTop });
const savedToolsScroll = (id: string) => pageOf(useServersUi.getState(), id).toolsScrollTop;
const keepToolsScroll = (id: string, toolsScrollTop: number) => useServersUi.getState().keepScroll(id, { toolsScrollTop });

/** The server's tools: the list (scrolled as the person left it), and the form of the selected tool. */
function ToolsPanel({ server }: { server: ServerView }) {
  const { t } = useTranslation('servers');
  const selectedTool = useServersUi((s) => pageOf(s, server.id).tool);
  const selectTool = useServersUi((s) => s.selectTool);
  const { ref: listRef, onScroll: onListScroll } = useKeptScroll<HTMLUListElement>(server.id, savedToolsScroll, keepToolsScroll);
  const tool = server.tools.find((x) => x.name === selectedTool);
  if (server.tools.length === 0) {
    return <p className="muted small">{server.status === 'ready' ? t('tools.noneOffered') : t('tools.notReady')}</p>;
  }
  return (
    <div className="tools">
      <ul className="tool-list" aria-label={t('tools.listAria')} ref={listRef} onScroll={onListScroll}>
        {server.tools.map((x) => (
          <li key={x.name}>
            <button
              type="button"
              className={`tool-item${x.name === selectedTool ? ' is-selected' : ''}`}
              aria-current={x.name === selectedTool ? 'true' : undefined}
              data-testid="tool-item"
              onClick={() => selectTool(server.id, x.name)}
              title={x.description}
            >
              {x.name}
            </button>
          </li>
        ))}
      </ul>
      <div className="tool-panel">{tool ? <ToolForm key={`${server.id}/${tool.name}`} server={server} tool={tool} /> : <Empty>{t('tools.selectOne')}</Empty>}</div>
    </div>
  );
}

/** The selected server's page: header, stderr tail, the Tools / Prompts / Resources / Log tabs, roots and its calls. */
function ServerDetail({ server, onEdit, onSelect }: { server: ServerView; onEdit(): void; onSelect(id: string | null): void }) {
  const { t } = useTranslation('servers');
  const calls = useCalls().filter((c) => c.serverId === server.id);
  const tab = useServersUi((s) => pageOf(s, server.id).tab);
  const setTab = (to: ServerTab) => useServersUi.getState().setTab(server.id, to);
  const tabs: Array<[ServerTab, string]> = [
    ['tools', t('detail.tabTools', { n: server.tools.length })],
    ['prompts', t('detail.tabPrompts', { n: server.prompts?.length ?? 0 })],
    ['resources', t('detail.tabResources', { n: (server.resources?.length ?? 0) + (server.resourceTemplates?.length ?? 0) })],
    ['log', t('detail.tabLog')],
  ];
  return (
    <div className="server-detail" data-testid="server-detail" data-server-id={server.id}>
      <ServerHeader server={server} onEdit={onEdit} onSelect={onSelect} />
      {server.stderrTail.length > 0 && tab !== 'log' && (
        <details className="raw-json">
          <summary>{t('detail.stderrTail')}</summary>
          <pre className="mono-box stderr" data-testid="server-stderr">
            {server.stderrTail.join('\n')}
          </pre>
        </details>
      )}
      <div className="tabs" role="tablist" aria-label={t('detail.tabsAria', { server: server.id })}>
        {tabs.map(([id, label]) => (
          <button key={id} type="button" role="tab" aria-selected={tab === id} className={`tab${tab === id ? ' is-active' : ''}`} data-testid={`server-tab-${id}`} onClick={() => setTab(id)}>
            {label}
          </button>
        ))}
      </div>
      <div className="tab-panel" role="tabpanel">
        {tab === 'tools' && <InlineReview calls={calls} />}
        {tab === 'tools' && <ToolsPanel server={server} />}
        {tab === 'prompts' && <PromptsPanel server={server} />}
        {tab === 'resources' && <ResourcesPanel server={server} />}
        {tab === 'log' && <LogPanel server={server} />}
      </div>
      {/* Per-server settings of other features (e.g. roots) can go here. */}
      {tab !== 'log' && <RootsPanel server={server} />}
      {tab !== 'log' && (
        <section className="section">
          <header className="section-head">
            <h3>{t('detail.calls', { n: calls.length })}</h3>
          </header>
          <CallsList calls={calls} />
        </section>
      )}
    </div>
  );
}

/** Problems with the config file (edited by hand), and its path; nothing when there are none. */
function ConfigProblems() {
  const { t } = useTranslation('servers');
  const problems = useConsole((s) => s.mirror?.settings.serversConfigProblems);
  const configPath = useConsole((s) => s.mirror?.settings.serversConfigPath);
  if (!(problems && problems.length > 0)) return null;
  return (
    <Banner tone="error" title={t('screen.configProblem')} testId="config-problems">
      {problems.map((p) => (
        <div key={p} className="small">
          {p}
        </div>
      ))}
      {configPath && <div className="muted small mono break">{configPath}</div>}
    </Banner>
  );
}

/** One server in the list: name, status, and transport, tools, prompts, calls in flight and reconnection in one line. */
function ServerRow({ server: s, current, highlighted, onPick }: { server: ServerView; current: boolean; highlighted: boolean; onPick(): void }) {
  const { t } = useTranslation('servers');
  const meta = [
    s.transport,
    t('screen.rowTools', { count: s.tools.length }),
    s.prompts?.length && t('screen.rowPrompts', { count: s.prompts.length }),
    s.inFlight && t('screen.rowInFlight', { n: s.inFlight }),
    s.reconnect && !s.reconnect.gaveUp && t('screen.rowReconnecting', { attempt: s.reconnect.attempt, max: s.reconnect.maxAttempts }),
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <button
      type="button"
      className={`server-row${highlighted ? ' is-selected' : ''}`}
      aria-current={current ? 'true' : undefined}
      data-testid="server-item"
      data-server-id={s.id}
      onClick={onPick}
    >
      <span className="server-row-top">
        <span className="mono strong" title={s.id}>
          {s.id}
        </span>
        <ServerStatusPill status={s.status} />
      </span>
      <span className="muted small server-row-meta" title={meta} data-testid="server-row-meta">
        {meta}
      </span>
    </button>
  );
}

/** The Servers screen. */
export function ServersScreen() {
  const { t } = useTranslation('servers');
  const servers = useServers();
  const selectedId = useConsole((s) => s.selectedServerId);
  const selectServer = useConsole((s) => s.selectServer);
  const [mode, setMode] = useState<Mode>({ kind: 'detail' });
  const selected = servers.find((s) => s.id === selectedId) ?? servers[0];
  // A server's page opens scrolled as the person left it; the editor and import panel at the top.
  const { ref: pageRef, onScroll: onPageScroll } = useKeptScroll<HTMLDivElement>(mode.kind === 'detail' ? selected?.id : undefined, savedPageScroll, keepPageScroll);
  const done = (name?: string) => {
    if (name) selectServer(name);
    setMode({ kind: 'detail' });
  };
  let detail;
  if (mode.kind === 'add') detail = <ServerEditor onDone={done} />;
  else if (mode.kind === 'edit') detail = <ServerEditor key={mode.id} editing={mode.id} onDone={done} />;
  else if (mode.kind === 'import') detail = <ImportPanel onDone={() => setMode({ kind: 'detail' })} />;
  else detail = selected ? <ServerDetail key={selected.id} server={selected} onEdit={() => setMode({ kind: 'edit', id: selected.id })} onSelect={selectServer} /> : <Empty>{t('screen.emptyDetail')}</Empty>;

  return (
    <div className="split" data-testid="servers-screen">
      <div className="split-list narrow">
        <div className="pane-title">
          <h2>{t('screen.title')}</h2>
          <span className="muted small">{servers.length}</span>
        </div>
        <div className="server-actions">
          <button type="button" className="btn-primary btn-small" onClick={() => setMode({ kind: 'add' })} data-testid="add-server">
            {t('screen.addServer')}
          </button>
          <button type="button" className="btn-small" onClick={() => setMode({ kind: 'import' })} data-testid="import-servers">
            {t('screen.import')}
          </button>
        </div>
        <ConfigProblems />
        {servers.length === 0 ? (
          <Empty>{t('screen.noServers')}</Empty>
        ) : (
          <ul className="server-list">
            {servers.map((s) => (
              <li key={s.id}>
                <ServerRow
                  server={s}
                  current={s.id === selected?.id}
                  highlighted={s.id === selected?.id && mode.kind === 'detail'}
                  onPick={() => {
                    selectServer(s.id);
                    setMode({ kind: 'detail' });
                  }}
                />
              </li>
            ))}
          </ul>
        )}
        <BridgedServers />
      </div>
      <div className="split-detail" ref={pageRef} onScroll={onPageScroll}>
        {detail}
      </div>
    </div>
  );
}
