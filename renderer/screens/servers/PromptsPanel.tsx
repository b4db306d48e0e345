/**
 * A server's prompts: the list, and for the selected prompt a form of its arguments (strings;
 * required ones marked and checked) and "Get prompt" (`prompts/get` through the call list, so a
 * sampling request it causes is tied to it).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PromptView, ServerView } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { ActionError, Empty } from '../../components/common';
import { useAction } from '../../hooks';

/** One argument's field: its label (marked when required), input, description, and the error once a get was tried without it. */
function PromptArgField({ prompt, arg: a, value, onChange, missing }: { prompt: PromptView; arg: PromptView['arguments'][number]; value: string; onChange: (value: string) => void; missing: boolean }) {
  const { t } = useTranslation('servers');
  const id = `prompt-${prompt.name}-${a.name}`;
  return (
    <div className="field">
      <label htmlFor={id}>
        <span className="mono">{a.title ?? a.name}</span>
        {a.required && (
          <span className="required" aria-label={t('form.required')} title={t('form.required')}>
            {' '}
            *
          </span>
        )}
      </label>
      <input
        id={id}
        type="text"
        data-testid={`prompt-field-${a.name}`}
        aria-required={a.required}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {a.description && <span className="field-help">{a.description}</span>}
      {missing && <span className="field-error">{t('prompts.argRequired', { name: a.name })}</span>}
    </div>
  );
}

/** The selected prompt's form: its title, name and description, a field per argument, and "Get prompt" (once the server is ready and required arguments are given). */
function PromptForm({ server, prompt }: { server: ServerView; prompt: PromptView }) {
  const { t } = useTranslation('servers');
  const [values, setValues] = useState<Record<string, string>>({});
  const [attempted, setAttempted] = useState(false);
  const missing = prompt.arguments.filter((a) => a.required && !(values[a.name] ?? '').trim()).map((a) => a.name);
  const get = useAction(async () => {
    const args = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
    await getApi().getPrompt({ serverId: server.id, name: prompt.name, arguments: args });
  });
  const ready = server.status === 'ready';
  return (
    <form
      className="tool-form"
      data-testid="prompt-form"
      aria-label={t('prompts.formAria', { name: prompt.name })}
      onSubmit={(e) => {
        e.preventDefault();
        setAttempted(true);
        if (missing.length === 0 && ready) void get.run();
      }}
    >
      <div className="tool-form-head">
        <h4>
          {prompt.title && prompt.title !== prompt.name && <span>{prompt.title} </span>}
          <span className="mono">{prompt.name}</span>
        </h4>
      </div>
      {prompt.description && <p className="tool-description">{prompt.description}</p>}
      {prompt.arguments.length === 0 ? (
        <p className="muted small">{t('prompts.noArguments')}</p>
      ) : (
        <div className="tool-fields">
          {prompt.arguments.map((a) => (
            <PromptArgField
              key={a.name}
              prompt={prompt}
              arg={a}
              value={values[a.name] ?? ''}
              onChange={(value) => setValues({ ...values, [a.name]: value })}
              missing={attempted && missing.includes(a.name)}
            />
          ))}
        </div>
      )}
      <div className="form-actions">
        <ActionError error={get.error} />
        {!ready && <span className="muted small">{t('form.serverNotReady')}</span>}
        <button type="submit" className="btn-primary" data-testid="get-prompt" disabled={!ready || get.pending}>
          {t('prompts.get')}
        </button>
      </div>
    </form>
  );
}

/** The prompts of a server with the form of the selected one. */
export function PromptsPanel({ server }: { server: ServerView }) {
  const { t } = useTranslation('servers');
  const prompts = server.prompts ?? [];
  const [selected, setSelected] = useState<string | null>(null);
  const prompt = prompts.find((p) => p.name === selected);
  if (prompts.length === 0) {
    return <p className="muted small">{server.status === 'ready' ? t('prompts.noneOffered') : t('prompts.notReady')}</p>;
  }
  return (
    <div className="tools">
      <ul className="tool-list" aria-label={t('prompts.listAria')}>
        {prompts.map((p) => (
          <li key={p.name}>
            <button
              type="button"
              className={`tool-item${p.name === selected ? ' is-selected' : ''}`}
              aria-current={p.name === selected ? 'true' : undefined}
              data-testid="prompt-item"
              onClick={() => setSelected(p.name)}
              title={p.description}
            >
              {p.name}
            </button>
          </li>
        ))}
      </ul>
      <div className="tool-panel">{prompt ? <PromptForm key={`${server.id}/${prompt.name}`} server={server} prompt={prompt} /> : <Empty>{t('prompts.selectOne')}</Empty>}</div>
    </div>
  );
}
