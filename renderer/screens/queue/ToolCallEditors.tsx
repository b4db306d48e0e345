/**
 * Tool calls on the response review: the model's tool_use blocks with their inputs editable as
 * JSON (checked as the person types, the error shown beside the editor), and, for a hand-written
 * response, tool calls the person adds from the tools the request offered.
 */
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import type { SamplingContent, SamplingTool, ToolUseContent } from '../../../shared/contract/sampling';
import { BlockView, EditableText } from '../../components/Blocks';
import { Section } from '../../components/common';
import { ToolUseView } from '../../components/ToolBlocks';
import { prettyJson } from '../../format';
import '../../components/review.css';
import { blockKey, parseToolInput } from './drafts';
import { newToolUseId, type AddedToolCall } from './edits';

/** A JSON editor for one tool input, with its validation error. */
function InputEditor({ label, value, onChange, testId }: { label: string; value: string; onChange: (text: string) => void; testId: string }) {
  const parsed = parseToolInput(value);
  return (
    <div className="field">
      <textarea
        className="editor tool-input-editor"
        aria-label={label}
        aria-invalid={!parsed.ok}
        data-testid={testId}
        spellCheck={false}
        rows={Math.min(12, Math.max(3, value.split('\n').length + 1))}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {!parsed.ok && (
        <p className="field-error" role="alert" data-testid="tool-input-error">
          {parsed.error}
        </p>
      )}
    </div>
  );
}

/** A tool_use block of a generated response, its input editable as JSON. */
export function ToolUseEditor({
  block,
  value,
  onChange,
  scope,
}: {
  block: ToolUseContent;
  /** The edited JSON text, or undefined while unedited. */
  value: string | undefined;
  onChange: (text: string | undefined) => void;
  scope: string;
}) {
  const { t } = useTranslation('queue');
  const original = prettyJson(block.input);
  const edited = value !== undefined && value !== original;
  return (
    <ToolUseView block={block} scope={scope}>
      <div className="tool-edit-row">
        <span className="small muted">{t('tools.inputJson')}</span>
        {edited && <span className="badge tone-warn">{t('tools.edited')}</span>}
        {edited && (
          <button type="button" className="btn-link" onClick={() => onChange(undefined)} aria-label={t('tools.revertLabel', { name: block.name })}>
            {t('tools.revert')}
          </button>
        )}
      </div>
      <InputEditor label={t('tools.inputOf', { name: block.name, id: block.id })} value={value ?? original} onChange={onChange} testId="tool-use-editor" />
    </ToolUseView>
  );
}

/** The blocks of a generated response that is not plain text: text editable, tool_use inputs editable. */
export function ResponseBlocks({
  blocks,
  texts,
  editing,
  onText,
  onToggle,
  toolInputs,
  onToolInput,
  scope,
}: {
  blocks: SamplingContent[];
  texts: Record<string, string>;
  editing: Record<string, boolean>;
  onText: (key: string, text: string | undefined) => void;
  onToggle: (key: string) => void;
  toolInputs: Record<string, string>;
  onToolInput: (id: string, text: string | undefined) => void;
  scope: string;
}) {
  const { t } = useTranslation('queue');
  return (
    <>
      {blocks.map((b, j) => {
        const key = blockKey(0, j);
        if (b.type === 'tool_use') return <ToolUseEditor key={j} block={b} value={toolInputs[b.id]} onChange={(t) => onToolInput(b.id, t)} scope={scope} />;
        if (b.type !== 'text') return <BlockView key={j} block={b as { type: string } & Record<string, unknown>} scope={scope} />;
        return (
          <EditableText
            key={j}
            original={b.text}
            value={texts[key]}
            editing={editing[key] === true}
            onToggle={() => onToggle(key)}
            onChange={(t) => onText(key, t)}
            label={t('tools.textBlock', { n: j + 1 })}
            ids={{ editor: `response-editor-0-${j}`, toggle: `response-edit-0-${j}`, text: `response-text-0-${j}` }}
          />
        );
      })}
    </>
  );
}

/** A skeleton input for a tool: its required properties with empty values of their type. */
export function inputSkeleton(tool: SamplingTool | undefined): string {
  const schema = tool?.inputSchema as { properties?: Record<string, { type?: string }>; required?: string[] } | undefined;
  const empty: Record<string, unknown> = {};
  for (const name of schema?.required ?? []) {
    const type = schema?.properties?.[name]?.type;
    empty[name] = type === 'number' || type === 'integer' ? 0 : type === 'boolean' ? false : type === 'array' ? [] : type === 'object' ? {} : '';
  }
  return prettyJson(empty);
}

/** Tool calls the person adds to a hand-written response (only tools the request offered). */
export function ManualToolCalls({ tools, added, onChange }: { tools: SamplingTool[]; added: AddedToolCall[]; onChange: (added: AddedToolCall[]) => void }) {
  const { t } = useTranslation('queue');
  const [name, setName] = useState(tools[0]?.name ?? '');
  const [input, setInput] = useState(() => inputSkeleton(tools[0]));
  const parsed = parseToolInput(input);
  const pick = (next: string) => {
    setName(next);
    setInput(inputSkeleton(tools.find((t) => t.name === next)));
  };
  const update = (id: string, text: string) => onChange(added.map((c) => (c.id === id ? { ...c, input: text } : c)));
  return (
    <Section title={t('tools.calls', { count: added.length })} testId="manual-tool-calls">
      <p className="small muted">
        <Trans t={t} i18nKey="tools.manualHelp" components={{ code: <code /> }} />
      </p>
      {added.map((c) => (
        <ToolUseView key={c.id} block={{ type: 'tool_use', id: c.id, name: c.name }} scope="manual">
          <InputEditor label={t('tools.inputOf', { name: c.name, id: c.id })} value={c.input} onChange={(t) => update(c.id, t)} testId="added-tool-input" />
          <div className="tool-edit-row">
            <button type="button" className="btn-small btn-danger" data-testid="added-tool-remove" onClick={() => onChange(added.filter((x) => x.id !== c.id))}>
              {t('tools.removeCall')}
            </button>
          </div>
        </ToolUseView>
      ))}
      <div className="add-tool-call">
        <select aria-label={t('tools.toolToCall')} data-testid="add-tool-name" value={name} onChange={(e) => pick(e.target.value)}>
          {tools.map((tool) => (
            <option key={tool.name} value={tool.name}>
              {tool.name}
            </option>
          ))}
        </select>
        <InputEditor label={t('tools.newInput')} value={input} onChange={setInput} testId="add-tool-input" />
        <button
          type="button"
          data-testid="add-tool-call"
          disabled={!name || !parsed.ok}
          onClick={() => {
            onChange([...added, { id: newToolUseId(), name, input }]);
            setInput(inputSkeleton(tools.find((t) => t.name === name)));
          }}
        >
          {t('tools.addCall')}
        </button>
      </div>
    </Section>
  );
}
