/**
 * Import servers from Claude Desktop, Claude Code, Windsurf, VS Code and Cursor: the console looks
 * in their standard places (plus a project folder or a file the person names), shows each server
 * with what will happen to it — importable, or skipped as a duplicate / invalid with the reason —
 * asks for the values of VS Code `${input:…}` variables, and imports the ones ticked. Each entry
 * can also be routed through the console in the host's own file (the host then launches the
 * console's bridge, so the server's sampling is reviewed here) — or, for a host that takes URLs and
 * a name the console also has, pointed at the console's loopback HTTP serving of that server —
 * and the route undone.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HostRouteView, ImportCandidate, ImportFormat, ImportOutcome, ImportScan, ImportSource } from '../../../shared/contract/servers';
import { getApi } from '../../api';
import { ActionError, Banner, Pill } from '../../components/common';
import { useAction } from '../../hooks';
import { useSay } from '../../i18n/say';
import { useServers } from '../../store';

const pickKey = (path: string, name: string) => `${path}\n${name}`;

// Example paths shown as placeholders (not language text).
const EXAMPLE_PROJECT = '/home/me/project';
const EXAMPLE_FILE = '/path/to/mcp.json';

/** Hosts whose config file takes a URL entry, so "Route as a URL" applies (Claude Desktop's takes commands only). */
const URL_FORM_HOSTS: ReadonlySet<ImportFormat> = new Set<ImportFormat>(['vscode', 'claude-code', 'cursor', 'windsurf']);

/**
 * "Route through the console" for one host entry (the command form: the host launches the bridge),
 * "Route as a URL" where that form applies (a host that takes URLs, and `served`: the console has
 * a server of the entry's name, which the URL then runs), or "Undo" for a route the console made.
 */
function RouteControl({ source, c, route, served, onChanged }: { source: ImportSource; c: ImportCandidate; route?: HostRouteView; served: boolean; onChanged(): Promise<void> }) {
  const { t } = useTranslation('servers');
  const act = useAction(async (how?: 'url') => {
    if (route) await getApi().unrouteServer({ id: route.id });
    else await getApi().routeServer({ path: source.path, format: source.format, name: c.name, seen: source.digest, ...(how && { how }) });
    await onChanged();
  });
  if (c.routed && !route) return <div className="muted small" data-testid="import-routed">{t('import.routedElsewhere')}</div>;
  const urlForm = !route && !c.routed && served && URL_FORM_HOSTS.has(source.format);
  if (!route && !c.target && !urlForm) return null; // nothing to run: nothing to route
  return (
    <div className="import-route" data-testid="import-route">
      {route && <Pill tone="ok">{t('import.routedPill')}</Pill>}
      {(route || c.target) && (
        <button type="button" disabled={act.pending} onClick={() => void act.run()} title={route ? t('import.unrouteTitle') : t('import.routeTitle')} data-testid={route ? 'import-unroute' : 'import-route-run'}>
          {route ? t('import.unroute') : t('import.route')}
        </button>
      )}
      {urlForm && (
        <button type="button" disabled={act.pending} onClick={() => void act.run('url')} title={t('import.routeUrlTitle', { name: c.name })} data-testid="import-route-url">
          {t('import.routeUrl')}
        </button>
      )}
      <ActionError error={act.error} />
    </div>
  );
}

/** One server of a config file: tick to import (when importable), status, target, why skipped, hidden secrets, routing, warnings and `${input:…}` values. */
function CandidateRow({ c, picked, onPick, inputs, onInput, routing }: {
  c: ImportCandidate;
  picked: boolean;
  onPick(on: boolean): void;
  inputs: Record<string, string>;
  onInput(key: string, value: string): void;
  routing: React.ReactNode;
}) {
  const { t } = useTranslation('servers');
  const say = useSay();
  const importable = c.status === 'new';
  return (
    <li className={`import-row status-${c.status}`} data-testid="import-candidate" data-name={c.name} data-status={c.status}>
      <label className="import-pick">
        <input type="checkbox" disabled={!importable} checked={importable && picked} onChange={(e) => onPick(e.target.checked)} aria-label={t('import.pickAria', { name: c.name })} data-testid="import-pick" />
        <span className="mono strong">{c.name}</span>
        <Pill tone={importable ? 'ok' : c.status === 'duplicate' ? 'muted' : 'error'}>{importable ? c.transport : c.routed ? t('import.statusRouted') : c.status === 'duplicate' ? t('import.statusDuplicate') : t('import.statusInvalid')}</Pill>
      </label>
      <div className="mono small break muted">{c.target || '—'}</div>
      {c.reason && (
        <div className="small" data-testid="import-reason">
          {importable ? say(c.reasonUi, c.reason) : t('import.skipped', { reason: say(c.reasonUi, c.reason) })}
        </div>
      )}
      {c.maskedKeys.length > 0 && <div className="muted small">{t('import.secretsHidden', { names: c.maskedKeys.join(', ') })}</div>}
      {routing}
      {c.warnings.map((w) => (
        <div key={w} className="warn-text small">
          {w}
        </div>
      ))}
      {importable && c.inputs.length > 0 && (
        <div className="import-inputs">
          {c.inputs.map((i) => (
            <label key={i.key ?? i.id} className="template-field">
              <span className="small">
                <span className="mono">{`\${input:${i.id}}`}</span> {i.description}
                {i.password && <span className="muted"> {t('import.inputHidden')}</span>}
              </span>
              <input type={i.password ? 'password' : 'text'} value={inputs[i.key ?? i.id] ?? ''} onChange={(e) => onInput(i.key ?? i.id, e.target.value)} data-testid={`import-input-${i.id}`} />
            </label>
          ))}
        </div>
      )}
    </li>
  );
}

/**
 * The import's state: the project folder and file typed, the last scan and the console's routes,
 * which candidates are ticked (every importable one after a look) and the input values typed, the
 * last import's outcome; `look` scans, `refresh` scans again keeping the ticks, `run` imports the ticked.
 */
function useImport() {
  const [workspaceFolder, setWorkspaceFolder] = useState('');
  const [file, setFile] = useState('');
  const [scan, setScan] = useState<ImportScan | null>(null);
  const [picked, setPicked] = useState<Record<string, boolean>>({});
  const [inputs, setInputs] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<ImportOutcome | null>(null);
  const [routes, setRoutes] = useState<HostRouteView[]>([]);
  const options = () => ({ workspaceFolder: workspaceFolder.trim() || undefined, file: file.trim() || undefined });
  /** Reads the files and the console's routes again (after routing or undoing one). */
  const refresh = async () => {
    const [result, listed] = await Promise.all([getApi().scanImports(options()), getApi().listRoutes({})]);
    setScan(result);
    setRoutes(listed.routes);
    return result;
  };

  const look = useAction(async () => {
    const result = await refresh();
    setOutcome(null);
    const next: Record<string, boolean> = {};
    for (const s of result.sources) for (const c of s.candidates) if (c.status === 'new') next[pickKey(s.path, c.name)] = true;
    setPicked(next);
  });
  const selections = (scan?.sources ?? []).flatMap((s) => s.candidates.filter((c) => c.status === 'new' && picked[pickKey(s.path, c.name)]).map((c) => ({ path: s.path, name: c.name })));
  const run = useAction(async () => {
    const result = await getApi().importServers({ ...options(), selections, inputs });
    setOutcome(result);
    setScan(await getApi().scanImports(options()));
  });
  const where = { workspaceFolder, setWorkspaceFolder, file, setFile };
  return { where, scan, picked, setPicked, inputs, setInputs, outcome, routes, refresh, look, selections, run };
}

/** The import's state, as {@link useImport} returns it. */
type ImportState = ReturnType<typeof useImport>;

/** Where else to look (a project folder, a file), Close, and Look (again). */
function ImportOptionsForm({ state, onDone }: { state: ImportState; onDone(): void }) {
  const { t } = useTranslation('servers');
  const { where, look } = state;
  return (
    <form
      className="import-options"
      onSubmit={(e) => {
        e.preventDefault();
        void look.run();
      }}
    >
      <label className="template-field">
        <span className="small">{t('import.projectFolder')}</span>
        <input type="text" className="mono" value={where.workspaceFolder} onChange={(e) => where.setWorkspaceFolder(e.target.value)} placeholder={EXAMPLE_PROJECT} translate="no" data-testid="import-workspace" />
      </label>
      <label className="template-field">
        <span className="small">{t('import.otherFile')}</span>
        <input type="text" className="mono" value={where.file} onChange={(e) => where.setFile(e.target.value)} placeholder={EXAMPLE_FILE} translate="no" data-testid="import-file" />
      </label>
      <div className="form-actions">
        <ActionError error={look.error} />
        <button type="button" onClick={onDone} data-testid="import-close">
          {t('import.close')}
        </button>
        <button type="submit" disabled={look.pending} data-testid="import-scan">
          {state.scan ? t('import.lookAgain') : t('import.look')}
        </button>
      </div>
    </form>
  );
}

/** What the last import did: the servers imported, and each one skipped with the reason. */
function ImportOutcomeBanner({ outcome }: { outcome: ImportOutcome }) {
  const { t } = useTranslation('servers');
  const say = useSay();
  return (
    <Banner tone={outcome.imported.length ? 'ok' : 'muted'} title={outcome.imported.length ? t('import.imported', { names: outcome.imported.join(', ') }) : t('import.nothingImported')} testId="import-outcome">
      {outcome.skipped.map((s) => (
        <div key={s.name}>{t('import.skippedServer', { name: s.name, reason: say(s.reasonUi, s.reason) })}</div>
      ))}
    </Banner>
  );
}

/** One config file found: its host and path, its error or that it has no servers, and a row per server with its route control. */
function ImportSourceSection({ source: s, state }: { source: ImportSource; state: ImportState }) {
  const { t } = useTranslation('servers');
  const say = useSay();
  const servers = useServers();
  const { picked, setPicked, inputs, setInputs, routes, refresh } = state;
  return (
    <section className="import-source" data-testid="import-source" data-found={s.found}>
      <h3>{say(s.labelUi, s.label)}</h3>
      <div className="muted small mono break">{s.path}</div>
      {s.error && <p className="error-text small">{say(s.errorUi, s.error)}</p>}
      {!s.error && s.candidates.length === 0 && <p className="muted small">{t('import.noServersInFile')}</p>}
      <ul className="import-list">
        {s.candidates.map((c) => (
          <CandidateRow
            key={c.name}
            c={c}
            picked={!!picked[pickKey(s.path, c.name)]}
            onPick={(on) => setPicked({ ...picked, [pickKey(s.path, c.name)]: on })}
            inputs={inputs}
            onInput={(key, value) => setInputs({ ...inputs, [key]: value })}
            routing={
              <RouteControl
                source={s}
                c={c}
                route={routes.find((r) => r.path === s.path && r.name === c.name)}
                served={servers.some((x) => x.id === c.name)}
                onChanged={async () => void (await refresh())}
              />
            }
          />
        ))}
      </ul>
    </section>
  );
}

/** The places looked in where no config file was found, each named in the active language. */
function NotFoundSources({ sources }: { sources: ImportSource[] }) {
  const { t } = useTranslation('servers');
  const say = useSay();
  return (
    <div className="muted small" data-testid="import-not-found">
      {t('import.notFound')}
      <ul className="plain-list">
        {sources.map((s) => (
          <li key={s.path}>
            {say(s.labelUi, s.label)} <span className="mono break">{s.path}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The import panel. `onDone` closes it. */
export function ImportPanel({ onDone }: { onDone(): void }) {
  const { t } = useTranslation('servers');
  const state = useImport();
  const { scan, outcome, selections, run } = state;

  return (
    <div className="import-panel" data-testid="import-panel">
      <h2>{t('import.title')}</h2>
      <p className="muted small">{t('import.intro')}</p>
      <p className="muted small" data-testid="import-route-forms">
        {t('import.routeForms')}
      </p>
      <ImportOptionsForm state={state} onDone={onDone} />
      {outcome && <ImportOutcomeBanner outcome={outcome} />}
      {scan?.sources
        .filter((s) => s.found)
        .map((s) => <ImportSourceSection key={s.path} source={s} state={state} />)}
      {scan && scan.sources.some((s) => !s.found) && <NotFoundSources sources={scan.sources.filter((s) => !s.found)} />}
      {scan && (
        <div className="form-actions sticky-actions">
          <ActionError error={run.error} />
          <span className="muted small">{t('import.selected', { n: selections.length })}</span>
          <button type="button" className="btn-primary" disabled={selections.length === 0 || run.pending} onClick={() => void run.run()} data-testid="import-run">
            {t('import.importSelected')}
          </button>
        </div>
      )}
    </div>
  );
}
