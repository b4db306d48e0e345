/**
 * Add or edit a server: name, transport (stdio: command, arguments, environment, working
 * directory; Streamable HTTP: URL, headers; HTTP+SSE: the same, with a note that it is deprecated),
 * and the console's options. Every field is checked as the person types, with the schema main uses
 * again before it writes mcp-servers.json. Credential-looking values of an existing entry arrive
 * masked; left as they are, the stored values are kept.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SECRET_PLACEHOLDER } from '../../../shared/contract/servers';
import { ActionError, Banner } from '../../components/common';
import type { ActionState } from '../../hooks';
import type { EditorForm, FormField } from './editor-form';
import { useServerEditor, type ServerFormBinding } from './useServerEditor';

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

/**
 * A labelled text field (`server-<field>`, test id `editor-<field>`) with its help and error.
 * `example` is a placeholder that is an example value (a command, a path), not language;
 * `multiline` makes it a monospace textarea of that many rows.
 */
function TextField({
  bind,
  field,
  label,
  help,
  ...props
}: {
  bind: ServerFormBinding;
  field: FormField;
  label: string;
  help: ReactNode;
  placeholder?: string;
  example?: string;
  multiline?: number;
  mono?: boolean;
}) {
  const error = bind.errorOf(field);
  const common = {
    id: `server-${field}`,
    'data-testid': `editor-${field}`,
    value: String(bind.form[field]),
    placeholder: props.example ?? props.placeholder,
    ...(props.example !== undefined && { translate: 'no' as const }),
    'aria-invalid': error ? true : undefined,
    className: props.mono ? 'mono' : undefined,
    onChange: (e: { target: { value: string } }) => bind.set(field, e.target.value),
  };
  return (
    <Field id={common.id} label={label} error={error} help={help}>
      {props.multiline ? <textarea {...common} className="editor mono" rows={props.multiline} /> : <input type="text" {...common} />}
    </Field>
  );
}

/** " Kept: …" after a help text when credential values under `what` (env or headers) arrived masked, else null. */
function useMaskedNote(masked: string[], what: 'env' | 'headers'): string | null {
  const { t } = useTranslation('servers');
  const names = masked.filter((m) => m.startsWith(`${what}.`)).map((m) => m.slice(what.length + 1));
  return names.length > 0 ? ` ${t('editor.maskedKept', { names: names.join(', '), placeholder: SECRET_PLACEHOLDER })}` : null;
}

/** The transport radio buttons: stdio, Streamable HTTP, HTTP+SSE. */
function TransportChoice({ transport, onChange }: { transport: EditorForm['transport']; onChange(transport: EditorForm['transport']): void }) {
  const { t } = useTranslation('servers');
  const transports: Array<[EditorForm['transport'], string]> = [
    ['stdio', t('editor.transportStdio')],
    ['http', t('transport.http')],
    ['sse', t('transport.sse')],
  ];
  return (
    <fieldset className="transport-choice">
      <legend>{t('editor.transport')}</legend>
      {transports.map(([value, label]) => (
        <label key={value} className="toggle">
          <input type="radio" name="transport" value={value} checked={transport === value} onChange={() => onChange(value)} data-testid={`editor-transport-${value}`} /> {label}
        </label>
      ))}
    </fieldset>
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

/** The stdio transport's fields: command, arguments, environment, working directory, provider gateway. */
function StdioFields({ bind, masked }: { bind: ServerFormBinding; masked: string[] }) {
  const { t } = useTranslation('servers');
  const envNote = useMaskedNote(masked, 'env');
  return (
    <>
      <TextField bind={bind} field="command" label={t('editor.command')} help={t('editor.commandHelp')} example={EXAMPLE.command} mono />
      <TextField bind={bind} field="args" label={t('editor.args')} help={t('editor.argsHelp')} multiline={3} example={EXAMPLE.args} />
      <TextField
        bind={bind}
        field="env"
        label={t('editor.env')}
        help={
          <>
            {t('editor.envHelp')}
            {envNote}
          </>
        }
        multiline={3}
        example={EXAMPLE.env}
      />
      <TextField bind={bind} field="cwd" label={t('editor.cwd')} help={t('editor.cwdHelp')} example={EXAMPLE.cwd} mono />
      <ProviderGatewayChoice checked={bind.form.providerGateway} onChange={(v) => bind.set('providerGateway', v)} />
    </>
  );
}

/** The HTTP transports' fields (Streamable HTTP and HTTP+SSE): URL and headers. */
function RemoteFields({ bind, masked }: { bind: ServerFormBinding; masked: string[] }) {
  const { t } = useTranslation('servers');
  const headersNote = useMaskedNote(masked, 'headers');
  return (
    <>
      <TextField bind={bind} field="url" label={t('editor.url')} help={bind.form.transport === 'http' ? t('editor.urlHelpHttp') : t('editor.urlHelpSse')} example={EXAMPLE.url} mono />
      <TextField
        bind={bind}
        field="headers"
        label={t('editor.headers')}
        help={
          <>
            {t('editor.headersHelp')}
            {headersNote}
          </>
        }
        multiline={3}
        example={EXAMPLE.headers}
      />
    </>
  );
}

/** The console's options for the server, folded away: timeout, tool rounds, protocol version. */
function OptionsFields({ bind }: { bind: ServerFormBinding }) {
  const { t } = useTranslation('servers');
  return (
    <details className="advanced">
      <summary>{t('editor.options')}</summary>
      <TextField bind={bind} field="timeoutMs" label={t('editor.timeout')} help={t('editor.timeoutHelp')} example={EXAMPLE.timeoutMs} />
      <TextField bind={bind} field="maxToolRounds" label={t('editor.toolRounds')} help={t('editor.toolRoundsHelp')} example={EXAMPLE.maxToolRounds} />
      <TextField bind={bind} field="protocol" label={t('editor.protocol')} help={t('editor.protocolHelp')} example={EXAMPLE.protocol} />
    </details>
  );
}

/** Cancel and Save (Add for a new server), with the save's error. */
function EditorActions({ adding, save, onCancel }: { adding: boolean; save: ActionState<[]>; onCancel(): void }) {
  const { t } = useTranslation('servers');
  return (
    <div className="form-actions">
      <ActionError error={save.error} />
      <button type="button" onClick={onCancel} data-testid="editor-cancel">
        {t('editor.cancel')}
      </button>
      <button type="submit" className="btn-primary" disabled={save.pending} data-testid="editor-save">
        {adding ? t('editor.add') : t('editor.save')}
      </button>
    </div>
  );
}

/** The editor. `editing`: the server's current name, or undefined to add one. */
export function ServerEditor({ editing, onDone }: { editing?: string; onDone(savedName?: string): void }) {
  const { t } = useTranslation('servers');
  const { form, info, loadError, set, errorOf, save, submit } = useServerEditor(editing, onDone);

  if (loadError) return <Banner tone="error" title={t('editor.cannotEdit')}>{loadError}</Banner>;
  if (!form) return <p className="muted">{t('editor.loading')}</p>;
  const bind: ServerFormBinding = { form, set, errorOf };

  return (
    <form className="server-editor" data-testid="server-editor" onSubmit={submit}>
      <h2>{editing ? t('editor.titleEdit', { server: editing }) : t('editor.titleAdd')}</h2>
      <TextField bind={bind} field="name" label={t('editor.name')} help={t('editor.nameHelp')} placeholder={t('editor.namePlaceholder')} />
      <TransportChoice transport={form.transport} onChange={(v) => set('transport', v)} />
      {form.transport === 'sse' && (
        <Banner tone="warn" testId="sse-note">
          {t('editor.sseNote')}
        </Banner>
      )}
      {form.transport === 'stdio' ? <StdioFields bind={bind} masked={info.masked} /> : <RemoteFields bind={bind} masked={info.masked} />}
      <OptionsFields bind={bind} />
      <label className="toggle">
        <input type="checkbox" checked={form.disabled} onChange={(e) => set('disabled', e.target.checked)} data-testid="editor-disabled" /> {t('editor.disabled')}
      </label>
      {info.otherKeys.length > 0 && <p className="muted small">{t('editor.otherKeys', { keys: info.otherKeys.join(', ') })}</p>}
      <EditorActions adding={!editing} save={save} onCancel={() => onDone()} />
    </form>
  );
}
