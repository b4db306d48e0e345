/**
 * A server's resources: listed resources with "Read" (`resources/read`), and resource templates
 * with a field per URI variable, the expanded URI shown live, and "Read" for it.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ResourceTemplateView, ResourceView, ServerView } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { ActionError } from '../../components/common';
import { useAction } from '../../hooks';
import { expandTemplate, templateVariables } from './uri-template';

function ResourceRow({ server, resource }: { server: ServerView; resource: ResourceView }) {
  const { t } = useTranslation('servers');
  const read = useAction(() => getApi().readResource({ serverId: server.id, uri: resource.uri }));
  return (
    <li className="resource-row" data-testid="resource-item" data-uri={resource.uri}>
      <div className="resource-main">
        <span className="strong">{resource.title ?? resource.name}</span>
        <span className="mono small break muted">{resource.uri}</span>
        {resource.description && <span className="small">{resource.description}</span>}
      </div>
      <span className="muted small">{[resource.mimeType, resource.size !== undefined ? `${resource.size} B` : undefined].filter(Boolean).join(' · ')}</span>
      <ActionError error={read.error} />
      <button type="button" className="btn-small" data-testid="read-resource" disabled={server.status !== 'ready' || read.pending} onClick={() => void read.run()}>
        {t('resources.read')}
      </button>
    </li>
  );
}

function TemplateForm({ server, template }: { server: ServerView; template: ResourceTemplateView }) {
  const { t } = useTranslation('servers');
  const names = templateVariables(template.uriTemplate);
  const [values, setValues] = useState<Record<string, string>>({});
  const [attempted, setAttempted] = useState(false);
  const uri = expandTemplate(template.uriTemplate, values);
  const missing = names.filter((n) => !(values[n] ?? '').trim());
  const read = useAction(() => getApi().readResource({ serverId: server.id, uri }));
  return (
    <form
      className="template-form"
      data-testid="template-form"
      data-template={template.uriTemplate}
      onSubmit={(e) => {
        e.preventDefault();
        setAttempted(true);
        if (missing.length === 0) void read.run();
      }}
    >
      <div className="resource-main">
        <span className="strong">{template.title ?? template.name}</span>
        <span className="mono small break muted">{template.uriTemplate}</span>
        {template.description && <span className="small">{template.description}</span>}
      </div>
      <div className="template-fields">
        {names.map((n) => (
          <label key={n} className="template-field">
            <span className="mono small">{n}</span>
            <input type="text" data-testid={`template-field-${n}`} value={values[n] ?? ''} onChange={(e) => setValues({ ...values, [n]: e.target.value })} />
          </label>
        ))}
      </div>
      <div className="form-actions">
        <span className="mono small break" data-testid="template-uri">
          {uri}
        </span>
        {attempted && missing.length > 0 && <span className="field-error">{t('resources.fillIn', { names: missing.join(', ') })}</span>}
        <ActionError error={read.error} />
        <button type="submit" className="btn-small" data-testid="read-template" disabled={server.status !== 'ready' || read.pending}>
          {t('resources.read')}
        </button>
      </div>
    </form>
  );
}

/** Resources and templates of a server. */
export function ResourcesPanel({ server }: { server: ServerView }) {
  const { t } = useTranslation('servers');
  const resources = server.resources ?? [];
  const templates = server.resourceTemplates ?? [];
  const [filter, setFilter] = useState('');
  const q = filter.trim().toLowerCase();
  const shown = q ? resources.filter((r) => `${r.name} ${r.uri} ${r.title ?? ''}`.toLowerCase().includes(q)) : resources;
  if (resources.length === 0 && templates.length === 0) {
    return <p className="muted small">{server.status === 'ready' ? t('resources.noneOffered') : t('resources.notReady')}</p>;
  }
  return (
    <div className="resources">
      {templates.length > 0 && (
        <>
          <h4 className="subhead">{t('resources.templates', { n: templates.length })}</h4>
          <div className="templates">
            {templates.map((tpl) => (
              <TemplateForm key={`${server.id}/${tpl.uriTemplate}`} server={server} template={tpl} />
            ))}
          </div>
        </>
      )}
      <h4 className="subhead">
        {t('resources.resources', { n: resources.length })}
        {resources.length > 8 && (
          <input className="inline-search" type="search" placeholder={t('resources.filterPlaceholder')} value={filter} onChange={(e) => setFilter(e.target.value)} aria-label={t('resources.filterAria')} />
        )}
      </h4>
      <ul className="resource-list">
        {shown.map((r) => (
          <ResourceRow key={r.uri} server={server} resource={r} />
        ))}
      </ul>
    </div>
  );
}
