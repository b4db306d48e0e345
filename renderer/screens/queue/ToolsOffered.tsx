/**
 * Tools in sampling, on the request review: the tools the server offers the model for this one
 * request (name, description, inputSchema collapsible), each removable, and the tool choice
 * (auto / required / none). Edits flow into the approved params through {@link RequestExtras}.
 */
import { useTranslation } from 'react-i18next';
import type { SamplingTool, ToolChoice } from '../../../shared/contract/sampling';
import { Section } from '../../components/common';
import { prettyJson } from '../../format';
import '../../components/review.css';
import type { RequestExtras, ToolChoiceMode } from './edits';

const CHOICES = [
  { mode: 'auto', label: 'tools.choiceAuto' },
  { mode: 'required', label: 'tools.choiceRequired' },
  { mode: 'none', label: 'tools.choiceNone' },
] as const satisfies ReadonlyArray<{ mode: ToolChoiceMode; label: string }>;

/** One tool offered: name, title, description, its inputSchema collapsible, and Remove (or Restore once removed). */
function ToolOffer({ tool, removed, onToggle }: { tool: SamplingTool; removed: boolean; onToggle: () => void }) {
  const { t } = useTranslation('queue');
  return (
    <li className={`tool-offer${removed ? ' is-removed' : ''}`} data-testid="tool-offer" data-tool-name={tool.name} data-removed={removed ? 'true' : undefined}>
      <div className="tool-offer-head">
        <strong className="mono tool-offer-name">{tool.name}</strong>
        {tool.title && <span className="muted">{tool.title}</span>}
        {removed && <span className="badge tone-warn">{t('tools.removed')}</span>}
        <button type="button" className="btn-small" data-testid="tool-offer-remove" aria-label={removed ? t('tools.restoreLabel', { name: tool.name }) : t('tools.removeLabel', { name: tool.name })} onClick={onToggle}>
          {removed ? t('tools.restore') : t('tools.remove')}
        </button>
      </div>
      {tool.description ? <p>{tool.description}</p> : <p className="small">{t('tools.noDescription')}</p>}
      <details>
        {/* eslint-disable-next-line i18next/no-literal-string -- the protocol field's name */}
        <summary>inputSchema</summary>
        <pre className="mono-box" data-testid="tool-offer-schema">
          {prettyJson(tool.inputSchema)}
        </pre>
      </details>
    </li>
  );
}

/**
 * The tool choice select (disabled when every tool is removed): choosing the server's mode again
 * drops the change; a change is marked, and a server that set none is said so.
 */
function ToolChoiceField({ toolChoice, extras, onChange, disabled }: { toolChoice: ToolChoice | undefined; extras: RequestExtras; onChange: (extras: RequestExtras) => void; disabled: boolean }) {
  const { t } = useTranslation('queue');
  const serverMode = toolChoice?.mode ?? 'auto';
  const mode = extras.toolChoice ?? serverMode;
  return (
    <div className="tool-choice">
      <label htmlFor="tool-choice">{t('tools.choice')}</label>
      <select
        id="tool-choice"
        data-testid="tool-choice"
        value={mode}
        disabled={disabled}
        onChange={(e) => {
          const next = e.target.value as ToolChoiceMode;
          onChange({ ...extras, toolChoice: next === serverMode ? undefined : next });
        }}
      >
        {CHOICES.map((c) => (
          <option key={c.mode} value={c.mode}>
            {t(c.label)}
          </option>
        ))}
      </select>
      {extras.toolChoice !== undefined && <span className="badge tone-warn">{t('tools.changed', { mode: serverMode })}</span>}
      {toolChoice === undefined && extras.toolChoice === undefined && <span className="muted small">{t('tools.serverSetNone')}</span>}
    </div>
  );
}

/** The tools offered with this request, and the tool choice. */
export function ToolsOffered({
  tools,
  toolChoice,
  extras,
  onChange,
}: {
  tools: SamplingTool[];
  toolChoice: ToolChoice | undefined;
  extras: RequestExtras;
  onChange: (extras: RequestExtras) => void;
}) {
  const { t } = useTranslation('queue');
  const kept = tools.filter((t) => !extras.removedTools[t.name]).length;
  const toggle = (name: string) => onChange({ ...extras, removedTools: { ...extras.removedTools, [name]: !extras.removedTools[name] } });
  return (
    <Section title={t('tools.offered', { kept, total: tools.length })} testId="tools-offered">
      <ul className="tools-offered">
        {tools.map((tool) => (
          <ToolOffer key={tool.name} tool={tool} removed={extras.removedTools[tool.name] === true} onToggle={() => toggle(tool.name)} />
        ))}
      </ul>
      <ToolChoiceField toolChoice={toolChoice} extras={extras} onChange={onChange} disabled={kept === 0} />
      {kept === 0 && <p className="small warn-text">{t('tools.allRemoved')}</p>}
    </Section>
  );
}
