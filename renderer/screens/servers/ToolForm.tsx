/**
 * A tool's description and the form generated from its `inputSchema` (string, number/integer,
 * boolean, enum; other types as JSON), with a Raw JSON mode, and the Call tool button. What the
 * person types is kept per server and tool (./servers-ui.ts) while the page lives; a call started
 * here has its result brought into view once it ends.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ServerView, ToolView } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { ActionError } from '../../components/common';
import { prettyJson } from '../../format';
import { useAction } from '../../hooks';
import { ToolEraControl } from './ToolEra';
import { buildArgs, initialValues, parseRawArgs, schemaFields, type FormField, type FormValues } from './schema-form';
import { pageOf, useServersUi } from './servers-ui';

/** What `parseRawArgs` makes of the Raw JSON text. */
type ParsedRaw = ReturnType<typeof parseRawArgs>;

/** JSON boolean values, as the boolean select offers them (protocol values, not language text). */
const BOOLEANS = ['true', 'false'] as const;

function FieldInput({ field, value, onChange, id }: { field: FormField; value: string; onChange: (v: string) => void; id: string }) {
  const { t } = useTranslation('servers');
  const common = { id, 'data-testid': `tool-field-${field.name}`, 'aria-required': field.required };
  switch (field.kind) {
    case 'boolean':
      return (
        <select {...common} value={value} onChange={(e) => onChange(e.target.value)}>
          {!field.required && <option value="">{t('tools.notSet')}</option>}
          {BOOLEANS.map((b) => (
            <option key={b} value={b}>
              {b}
            </option>
          ))}
        </select>
      );
    case 'enum':
      return (
        <select {...common} value={value} onChange={(e) => onChange(e.target.value)}>
          {(!field.required || value === '') && <option value="">{t('tools.notSet')}</option>}
          {(field.options ?? []).map((o) => (
            <option key={JSON.stringify(o)} value={JSON.stringify(o)}>
              {typeof o === 'string' ? o : JSON.stringify(o)}
            </option>
          ))}
        </select>
      );
    case 'json':
      return <textarea {...common} className="editor mono" rows={3} value={value} onChange={(e) => onChange(e.target.value)} />;
    default:
      return (
        <input
          {...common}
          type={field.kind === 'string' ? 'text' : 'number'}
          step={field.kind === 'integer' ? 1 : 'any'}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
}

/** The form of one tool, with what the person typed into it before (the schema's defaults the first time). */
export function ToolForm({ server, tool }: { server: ServerView; tool: ToolView }) {
  const { t } = useTranslation('servers');
  const fields = useMemo(() => schemaFields(tool.inputSchema), [tool.inputSchema]);
  const kept = useServersUi((s) => pageOf(s, server.id).args[tool.name]);
  const values = useMemo(() => ({ ...initialValues(fields), ...kept?.values }), [fields, kept?.values]);
  const raw = kept?.raw ?? null;
  const setValues = (next: FormValues) => useServersUi.getState().setArgs(server.id, tool.name, { values: next, raw });
  const setRaw = (next: string | null) => useServersUi.getState().setArgs(server.id, tool.name, { values, raw: next });
  const [attempted, setAttempted] = useState(false);
  const built = buildArgs(fields, values);
  const parsedRaw = raw === null ? null : parseRawArgs(raw);
  const call = useAction(async (args: Record<string, unknown>) => {
    const { callId } = await getApi().callTool({ serverId: server.id, name: tool.name, arguments: args });
    useServersUi.getState().revealWhenDone(callId);
  });
  const args = parsedRaw ? (parsedRaw.ok ? parsedRaw.args : null) : built.ok ? built.args : null;
  const ready = server.status === 'ready';

  const toggleRaw = () => {
    if (raw === null) setRaw(prettyJson(built.ok ? built.args : {}));
    else setRaw(null);
  };

  return (
    <form
      className="tool-form"
      data-testid="tool-form"
      aria-label={t('tools.formAria', { name: tool.name })}
      onSubmit={(e) => {
        e.preventDefault();
        setAttempted(true);
        if (args && ready) void call.run(args);
      }}
    >
      <ToolFormHead tool={tool} raw={raw !== null} onToggleRaw={toggleRaw} />
      {tool.description && <p className="tool-description">{tool.description}</p>}
      <ToolEraControl server={server} tool={tool.name} />
      {raw !== null ? (
        <RawArgsField raw={raw} parsed={parsedRaw} onChange={setRaw} />
      ) : fields.length === 0 ? (
        <p className="muted small">{t('tools.noArguments')}</p>
      ) : (
        <ToolFields tool={tool.name} fields={fields} values={values} errors={built.ok || !attempted ? undefined : built.errors} onChange={setValues} />
      )}
      <div className="form-actions">
        <ActionError error={call.error} />
        {!ready && <span className="muted small">{t('form.serverNotReady')}</span>}
        <button type="submit" className="btn-primary" data-testid="call-tool" disabled={!ready || call.pending || (parsedRaw !== null && !parsedRaw.ok)}>
          {t('tools.call')}
        </button>
      </div>
    </form>
  );
}

/** The form's heading (the tool's title and name) and the Raw JSON switch. */
function ToolFormHead({ tool, raw, onToggleRaw }: { tool: ToolView; raw: boolean; onToggleRaw: () => void }) {
  const { t } = useTranslation('servers');
  return (
    <div className="tool-form-head">
      <h4>
        {tool.title && tool.title !== tool.name && <span>{tool.title} </span>}
        <span className="mono">{tool.name}</span>
      </h4>
      <label className="toggle">
        <input type="checkbox" checked={raw} onChange={onToggleRaw} data-testid="tool-raw-toggle" /> {t('tools.rawJson')}
      </label>
    </div>
  );
}

/** The Raw JSON mode: the arguments as one JSON text, with why it does not parse. */
function RawArgsField({ raw, parsed, onChange }: { raw: string; parsed: ParsedRaw | null; onChange: (raw: string) => void }) {
  const { t } = useTranslation('servers');
  return (
    <div className="field">
      <label htmlFor="tool-raw">{t('tools.rawLabel')}</label>
      <textarea id="tool-raw" className="editor mono" rows={6} value={raw} data-testid="tool-raw" onChange={(e) => onChange(e.target.value)} />
      {parsed && !parsed.ok && (
        <p className="field-error" role="alert" data-testid="tool-raw-error">
          {parsed.error}
        </p>
      )}
    </div>
  );
}

/** The generated fields of the tool's arguments; `errors` is set once a call was attempted with invalid values. */
function ToolFields(props: { tool: string; fields: FormField[]; values: FormValues; errors: Record<string, string> | undefined; onChange: (values: FormValues) => void }) {
  const { t } = useTranslation('servers');
  const { tool, fields, values, errors, onChange } = props;
  return (
    <div className="tool-fields">
      {fields.map((f) => {
        const id = `tool-${tool}-${f.name}`;
        const error = errors?.[f.name];
        return (
          <div className="field" key={f.name}>
            <label htmlFor={id}>
              <span className="mono">{f.title ?? f.name}</span>
              {f.required && (
                <span className="required" aria-label={t('form.required')} title={t('form.required')}>
                  {' '}
                  *
                </span>
              )}
              <span className="muted small"> {f.kind}</span>
            </label>
            <FieldInput field={f} id={id} value={values[f.name] ?? ''} onChange={(v) => onChange({ ...values, [f.name]: v })} />
            {f.description && <span className="field-help">{f.description}</span>}
            {error && <span className="field-error">{error}</span>}
          </div>
        );
      })}
    </div>
  );
}
