/**
 * Add or edit a server: name, transport (stdio: command, arguments, environment, working
 * directory; Streamable HTTP: URL, headers; HTTP+SSE: the same, with a note that it is deprecated),
 * and the console's options. Every field is checked as the person types, with the schema main uses
 * again before it writes mcp-servers.json. Credential-looking values of an existing entry arrive
 * masked; left as they are, the stored values are kept.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SECRET_PLACEHOLDER } from '../../../shared/contract/servers';
import { getApi } from '../../api';
import { ActionError, Banner } from '../../components/common';
import { useAction } from '../../hooks';
import { emptyForm, entryFromForm, formFromEntry, type EditorForm, type FormField } from './editor-form';

// Example values shown as placeholders: commands, paths, URLs and config syntax (not language text).
const EXAMPLE = {
  command: 'npx',
  args: '-y\n@modelcontextprotocol/server-filesystem\n/home/me/Documents',
  env: 'API_KEY=…',
  cwd: '/home/me/project',
  url: 'https://example.com/mcp',
  headers: 'X-Team: blue',
  timeoutMs: '600000',
  maxToolRounds: '10',
  protocol: 'auto',
};

function Field({ id, label, error, help, children }: { id: string; label: string; error?: string; help?: ReactNode; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {help && <span className="field-help">{help}</span>}
      {error && (
        <span className="field-error" data-testid={`editor-error-${id.replace('server-', '')}`}>
          {error}
        </span>
      )}
    </div>
  );
}

/** The variables a server launched with the provider gateway gets (names, not language). */
const GATEWAY_VARIABLES = ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY'];

/** The stdio entry's "Provider gateway" checkbox, with the variables it sets. */
function ProviderGatewayChoice({ checked, onChange }: { checked: boolean; onChange(checked: boolean): void }) {
  const { t } = useTranslation('servers');
  return (
    <div className="field">
      <label className="toggle" htmlFor="server-providerGateway">
        <input id="server-providerGateway" type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} aria-describedby="server-providerGateway-help" data-testid="editor-providerGateway" />{' '}
        {t('editor.providerGateway')}
      </label>
      <span className="field-help" id="server-providerGateway-help">
        {t('editor.providerGatewayHelp')}{' '}
        {GATEWAY_VARIABLES.map((name, i) => (
          <span key={name}>
            {i > 0 && ', '}
            <code translate="no">{name}</code>
          </span>
        ))}
      </span>
    </div>
  );
}

/** The editor. `editing`: the server's current name, or undefined to add one. */
export function ServerEditor({ editing, onDone }: { editing?: string; onDone(savedName?: string): void }) {
  const { t } = useTranslation('servers');
  const [form, setForm] = useState<EditorForm | null>(editing ? null : emptyForm());
  const [info, setInfo] = useState<{ masked: string[]; otherKeys: string[] }>({ masked: [], otherKeys: [] });
  const [loadError, setLoadError] = useState<string | null>(null);
  const [touched, setTouched] = useState<Partial<Record<FormField, boolean>>>({});
  const [attempted, setAttempted] = useState(false);

  useEffect(() => {
    if (!editing) return;
    let live = true;
    getApi()
      .getServerEntry({ serverId: editing })
      .then(
        (res) => {
          if (!live) return;
          setForm(formFromEntry(editing, res.entry));
          setInfo({ masked: res.masked, otherKeys: res.otherKeys });
        },
        (err: unknown) => live && setLoadError(err instanceof Error ? err.message : String(err)),
      );
    return () => {
      live = false;
    };
  }, [editing]);

  const built = form ? entryFromForm(form) : null;
  const save = useAction(async () => {
    if (!built?.ok) return;
    await getApi().saveServer({ id: built.name, previousId: editing, entry: built.entry });
    onDone(built.name);
  });

  if (loadError) return <Banner tone="error" title={t('editor.cannotEdit')}>{loadError}</Banner>;
  if (!form) return <p className="muted">{t('editor.loading')}</p>;

  const set = (field: FormField, value: string | boolean) => {
    setForm({ ...form, [field]: value });
    setTouched({ ...touched, [field]: true });
  };
  const errorOf = (field: FormField) => (built && !built.ok && (attempted || touched[field]) ? built.errors[field] : undefined);
  /** A text field; `example` is a placeholder that is an example value (a command, a path), not language. */
  const text = (field: FormField, props: { placeholder?: string; example?: string; multiline?: number; mono?: boolean } = {}) => {
    const common = {
      id: `server-${field}`,
      'data-testid': `editor-${field}`,
      value: String(form[field]),
      placeholder: props.example ?? props.placeholder,
      ...(props.example !== undefined && { translate: 'no' as const }),
      'aria-invalid': errorOf(field) ? true : undefined,
      className: props.mono ? 'mono' : undefined,
      onChange: (e: { target: { value: string } }) => set(field, e.target.value),
    };
    return props.multiline ? <textarea {...common} className="editor mono" rows={props.multiline} /> : <input type="text" {...common} />;
  };
  const maskedIn = (what: 'env' | 'headers') => info.masked.filter((m) => m.startsWith(`${what}.`)).map((m) => m.slice(what.length + 1));
  const maskedNote = (what: 'env' | 'headers') => (maskedIn(what).length > 0 ? ` ${t('editor.maskedKept', { names: maskedIn(what).join(', '), placeholder: SECRET_PLACEHOLDER })}` : null);
  const input = {
    name: text('name', { placeholder: t('editor.namePlaceholder') }),
    command: text('command', { example: EXAMPLE.command, mono: true }),
    args: text('args', { multiline: 3, example: EXAMPLE.args }),
    env: text('env', { multiline: 3, example: EXAMPLE.env }),
    cwd: text('cwd', { example: EXAMPLE.cwd, mono: true }),
    url: text('url', { example: EXAMPLE.url, mono: true }),
    headers: text('headers', { multiline: 3, example: EXAMPLE.headers }),
    timeoutMs: text('timeoutMs', { example: EXAMPLE.timeoutMs }),
    maxToolRounds: text('maxToolRounds', { example: EXAMPLE.maxToolRounds }),
    protocol: text('protocol', { example: EXAMPLE.protocol }),
  };
  const transports: Array<[EditorForm['transport'], string]> = [
    ['stdio', t('editor.transportStdio')],
    ['http', t('transport.http')],
    ['sse', t('transport.sse')],
  ];
  const envNote = maskedNote('env');
  const headersNote = maskedNote('headers');

  return (
    <form
      className="server-editor"
      data-testid="server-editor"
      onSubmit={(e) => {
        e.preventDefault();
        setAttempted(true);
        if (built?.ok) void save.run();
      }}
    >
      <h2>{editing ? t('editor.titleEdit', { server: editing }) : t('editor.titleAdd')}</h2>
      <Field id="server-name" label={t('editor.name')} error={errorOf('name')} help={t('editor.nameHelp')}>
        {input.name}
      </Field>
      <fieldset className="transport-choice">
        <legend>{t('editor.transport')}</legend>
        {transports.map(([value, label]) => (
          <label key={value} className="toggle">
            <input type="radio" name="transport" value={value} checked={form.transport === value} onChange={() => set('transport', value)} data-testid={`editor-transport-${value}`} /> {label}
          </label>
        ))}
      </fieldset>
      {form.transport === 'sse' && (
        <Banner tone="warn" testId="sse-note">
          {t('editor.sseNote')}
        </Banner>
      )}
      {form.transport === 'stdio' ? (
        <>
          <Field id="server-command" label={t('editor.command')} error={errorOf('command')} help={t('editor.commandHelp')}>
            {input.command}
          </Field>
          <Field id="server-args" label={t('editor.args')} error={errorOf('args')} help={t('editor.argsHelp')}>
            {input.args}
          </Field>
          <Field
            id="server-env"
            label={t('editor.env')}
            error={errorOf('env')}
            help={
              <>
                {t('editor.envHelp')}
                {envNote}
              </>
            }
          >
            {input.env}
          </Field>
          <Field id="server-cwd" label={t('editor.cwd')} error={errorOf('cwd')} help={t('editor.cwdHelp')}>
            {input.cwd}
          </Field>
          <ProviderGatewayChoice checked={form.providerGateway} onChange={(v) => set('providerGateway', v)} />
        </>
      ) : (
        <>
          <Field id="server-url" label={t('editor.url')} error={errorOf('url')} help={form.transport === 'http' ? t('editor.urlHelpHttp') : t('editor.urlHelpSse')}>
            {input.url}
          </Field>
          <Field
            id="server-headers"
            label={t('editor.headers')}
            error={errorOf('headers')}
            help={
              <>
                {t('editor.headersHelp')}
                {headersNote}
              </>
            }
          >
            {input.headers}
          </Field>
        </>
      )}
      <details className="advanced">
        <summary>{t('editor.options')}</summary>
        <Field id="server-timeoutMs" label={t('editor.timeout')} error={errorOf('timeoutMs')} help={t('editor.timeoutHelp')}>
          {input.timeoutMs}
        </Field>
        <Field id="server-maxToolRounds" label={t('editor.toolRounds')} error={errorOf('maxToolRounds')} help={t('editor.toolRoundsHelp')}>
          {input.maxToolRounds}
        </Field>
        <Field id="server-protocol" label={t('editor.protocol')} error={errorOf('protocol')} help={t('editor.protocolHelp')}>
          {input.protocol}
        </Field>
      </details>
      <label className="toggle">
        <input type="checkbox" checked={form.disabled} onChange={(e) => set('disabled', e.target.checked)} data-testid="editor-disabled" /> {t('editor.disabled')}
      </label>
      {info.otherKeys.length > 0 && <p className="muted small">{t('editor.otherKeys', { keys: info.otherKeys.join(', ') })}</p>}
      <div className="form-actions">
        <ActionError error={save.error} />
        <button type="button" onClick={() => onDone()} data-testid="editor-cancel">
          {t('editor.cancel')}
        </button>
        <button type="submit" className="btn-primary" disabled={save.pending} data-testid="editor-save">
          {editing ? t('editor.save') : t('editor.add')}
        </button>
      </div>
    </form>
  );
}
