/**
 * Add or edit a server: name, transport (stdio: command, arguments, environment, working
 * directory; Streamable HTTP: URL, headers; HTTP+SSE: the same, with a note that it is deprecated),
 * and the console's options. Every field is checked as the person types, with the schema main uses
 * again before it writes mcp-servers.json. Credential-looking values of an existing entry arrive
 * masked; left as they are, the stored values are kept.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { SECRET_PLACEHOLDER } from '../../../shared/servers';
import { getApi } from '../../api';
import { ActionError, Banner } from '../../components/common';
import { useAction } from '../../hooks';
import { emptyForm, entryFromForm, formFromEntry, type EditorForm, type FormField } from './editor-form';

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

/** The editor. `editing`: the server's current name, or undefined to add one. */
export function ServerEditor({ editing, onDone }: { editing?: string; onDone(savedName?: string): void }) {
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

  if (loadError) return <Banner tone="error" title="This server cannot be edited">{loadError}</Banner>;
  if (!form) return <p className="muted">Loading…</p>;

  const set = (field: FormField, value: string | boolean) => {
    setForm({ ...form, [field]: value });
    setTouched({ ...touched, [field]: true });
  };
  const errorOf = (field: FormField) => (built && !built.ok && (attempted || touched[field]) ? built.errors[field] : undefined);
  const text = (field: FormField, props: { placeholder?: string; multiline?: number; mono?: boolean } = {}) => {
    const common = {
      id: `server-${field}`,
      'data-testid': `editor-${field}`,
      value: String(form[field]),
      placeholder: props.placeholder,
      'aria-invalid': errorOf(field) ? true : undefined,
      className: props.mono ? 'mono' : undefined,
      onChange: (e: { target: { value: string } }) => set(field, e.target.value),
    };
    return props.multiline ? <textarea {...common} className="editor mono" rows={props.multiline} /> : <input type="text" {...common} />;
  };
  const maskedIn = (what: 'env' | 'headers') => info.masked.filter((m) => m.startsWith(`${what}.`)).map((m) => m.slice(what.length + 1));

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
      <h2>{editing ? `Edit ${editing}` : 'Add a server'}</h2>
      <Field id="server-name" label="Name" error={errorOf('name')} help="The key under mcpServers in mcp-servers.json.">
        {text('name', { placeholder: 'e.g. filesystem' })}
      </Field>
      <fieldset className="transport-choice">
        <legend>Transport</legend>
        {(
          [
            ['stdio', 'stdio (a local program)'],
            ['http', 'Streamable HTTP'],
            ['sse', 'HTTP+SSE (deprecated)'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="toggle">
            <input type="radio" name="transport" value={value} checked={form.transport === value} onChange={() => set('transport', value)} data-testid={`editor-transport-${value}`} /> {label}
          </label>
        ))}
      </fieldset>
      {form.transport === 'sse' && (
        <Banner tone="warn" testId="sse-note">
          HTTP+SSE is deprecated: Streamable HTTP replaced it in protocol 2025-03-26. Use it only for servers that offer nothing else.
        </Banner>
      )}
      {form.transport === 'stdio' ? (
        <>
          <Field id="server-command" label="Command" error={errorOf('command')} help='One program, e.g. "npx" or "node" ("node" runs the console’s own Node).'>
            {text('command', { placeholder: 'npx', mono: true })}
          </Field>
          <Field id="server-args" label="Arguments" error={errorOf('args')} help="One per line, passed as they are (no shell quoting).">
            {text('args', { multiline: 3, placeholder: '-y\n@modelcontextprotocol/server-filesystem\n/home/me/Documents' })}
          </Field>
          <Field
            id="server-env"
            label="Environment"
            error={errorOf('env')}
            help={
              <>
                KEY=value, one per line.
                {maskedIn('env').length > 0 && ` ${maskedIn('env').join(', ')}: stored value kept while it shows ${SECRET_PLACEHOLDER}.`}
              </>
            }
          >
            {text('env', { multiline: 3, placeholder: 'API_KEY=…' })}
          </Field>
          <Field id="server-cwd" label="Working directory" error={errorOf('cwd')} help="Optional; an absolute path.">
            {text('cwd', { placeholder: '/home/me/project', mono: true })}
          </Field>
        </>
      ) : (
        <>
          <Field id="server-url" label="URL" error={errorOf('url')} help={form.transport === 'http' ? 'The MCP endpoint, e.g. https://example.com/mcp.' : 'The SSE endpoint, e.g. https://example.com/sse.'}>
            {text('url', { placeholder: 'https://example.com/mcp', mono: true })}
          </Field>
          <Field
            id="server-headers"
            label="Headers"
            error={errorOf('headers')}
            help={
              <>
                Name: value, one per line. For OAuth servers leave Authorization out and use Sign in.
                {maskedIn('headers').length > 0 && ` ${maskedIn('headers').join(', ')}: stored value kept while it shows ${SECRET_PLACEHOLDER}.`}
              </>
            }
          >
            {text('headers', { multiline: 3, placeholder: 'X-Team: blue' })}
          </Field>
        </>
      )}
      <details className="advanced">
        <summary>Options</summary>
        <Field id="server-timeoutMs" label="Call timeout (ms)" error={errorOf('timeoutMs')} help="How long a call you start may run; default 600000 (10 minutes).">
          {text('timeoutMs', { placeholder: '600000' })}
        </Field>
        <Field id="server-maxToolRounds" label="Sampling tool rounds" error={errorOf('maxToolRounds')} help="Rounds of one sampling tool loop before the console ends it; default 10.">
          {text('maxToolRounds', { placeholder: '10' })}
        </Field>
        <Field id="server-protocol" label="Protocol" error={errorOf('protocol')} help='"auto" (default), "legacy", or a version such as 2026-07-28.'>
          {text('protocol', { placeholder: 'auto' })}
        </Field>
      </details>
      <label className="toggle">
        <input type="checkbox" checked={form.disabled} onChange={(e) => set('disabled', e.target.checked)} data-testid="editor-disabled" /> Disabled (listed, not connected)
      </label>
      {info.otherKeys.length > 0 && <p className="muted small">Kept as they are in the file: {info.otherKeys.join(', ')}.</p>}
      <div className="form-actions">
        <ActionError error={save.error} />
        <button type="button" onClick={() => onDone()} data-testid="editor-cancel">
          Cancel
        </button>
        <button type="submit" className="btn-primary" disabled={save.pending} data-testid="editor-save">
          {editing ? 'Save' : 'Add server'}
        </button>
      </div>
    </form>
  );
}
