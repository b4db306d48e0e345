/**
 * Roots of one server: the folders the person exposes to it (`file://` URIs with names, from
 * `ServerView.roots`, or `BridgedServerView.roots` for a server an agent host runs through the
 * bridge). Add a folder by its absolute path (main checks that it is an existing
 * folder and says why not), remove one; every change replaces the list with `setServerRoots` and
 * main announces it to the server with `notifications/roots/list_changed`.
 */
import { useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import type { ServerView } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { ActionError, Section } from '../../components/common';
import { useAction } from '../../hooks';
import './roots.css';

/** A `file://` URI as a readable path (falls back to the URI). */
export function rootPath(uri: string): string {
  try {
    const u = new URL(uri);
    if (u.protocol !== 'file:') return uri;
    const path = decodeURIComponent(u.pathname);
    // file:///C:/dir → C:/dir on Windows-style URIs
    return /^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path;
  } catch {
    return uri;
  }
}

/** A root as the state carries it (`ServerView.roots`, `BridgedServerView.roots`). */
type RootView = { uri: string; name?: string };

/** The "Roots" section of a server's page (`roots-panel`). */
export function RootsPanel({ server }: { server: ServerView }) {
  const { t } = useTranslation('servers');
  const roots = server.roots ?? [];
  return (
    <Section title={t('roots.title', { n: roots.length })} testId="roots-panel">
      <p className="muted small">
        <Trans t={t} i18nKey="roots.intro" components={{ mono: <span className="mono" /> }} />
      </p>
      <RootsEditor serverId={server.id} roots={roots} />
    </Section>
  );
}

/** The roots as a list, each with Remove (or a line saying there are none). */
function RootsList({ serverId, roots, busy, onRemove }: { serverId: string; roots: RootView[]; busy: boolean; onRemove(uri: string): void }) {
  const { t } = useTranslation('servers');
  if (roots.length === 0) {
    return (
      <p className="small" data-testid="roots-empty">
        <Trans t={t} i18nKey="roots.empty" values={{ server: serverId }} components={{ strong: <strong /> }} />
      </p>
    );
  }
  return (
    <ul className="roots-list" aria-label={t('roots.listAria', { server: serverId })}>
      {roots.map((r) => (
        <li key={r.uri} className="roots-item" data-testid="root-item" data-uri={r.uri}>
          <span className="roots-text">
            <strong>{r.name ?? rootPath(r.uri)}</strong>
            <span className="mono small muted roots-uri">{r.uri}</span>
          </span>
          <button
            type="button"
            className="btn-small btn-danger"
            data-testid="root-remove"
            aria-label={t('roots.removeAria', { name: r.name ?? rootPath(r.uri) })}
            disabled={busy}
            onClick={() => onRemove(r.uri)}
          >
            {t('roots.remove')}
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * The list of a server's roots with Remove on each, and "Add a folder". `compact`: laid out for a
 * narrow column (the Servers list's bridged rows), the path field above its button.
 */
export function RootsEditor({ serverId, roots, compact }: { serverId: string; roots: RootView[]; compact?: boolean }) {
  const { t } = useTranslation('servers');
  const [folder, setFolder] = useState('');
  const save = useAction(async (folders: string[]) => {
    await getApi().setServerRoots({ serverId, folders });
  });
  const add = useAction(async () => {
    const path = folder.trim();
    if (!path) throw new Error(t('roots.typePath'));
    await getApi().setServerRoots({ serverId, folders: [...roots.map((r) => r.uri), path] });
    setFolder('');
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void add.run();
  };
  const busy = save.pending || add.pending;
  const fieldId = `roots-add-${compact ? 'bridged-' : ''}${serverId}`;
  return (
    <div className={`roots-editor${compact ? ' is-compact' : ''}`}>
      <RootsList serverId={serverId} roots={roots} busy={busy} onRemove={(uri) => void save.run(roots.filter((x) => x.uri !== uri).map((x) => x.uri))} />
      <form className="roots-add" onSubmit={submit}>
        <label htmlFor={fieldId}>{t('roots.addLabel')}</label>
        <div className="roots-add-row">
          <input
            id={fieldId}
            className="mono"
            data-testid="root-add-input"
            placeholder={t('roots.addPlaceholder')}
            value={folder}
            onChange={(e) => {
              setFolder(e.target.value);
              add.clearError();
            }}
          />
          <button type="submit" className="btn-small" data-testid="root-add" disabled={busy}>
            {t('roots.add')}
          </button>
        </div>
        {add.error && (
          <p className="field-error small" role="alert" data-testid="root-add-error">
            {add.error}
          </p>
        )}
      </form>
      <ActionError error={save.error} />
    </div>
  );
}
