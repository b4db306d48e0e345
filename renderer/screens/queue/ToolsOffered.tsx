/**
 * Tools in sampling, on the request review: the tools the server offers the model for this one
 * request (name, description, inputSchema collapsible), each removable, and the tool choice
 * (auto / required / none). Edits flow into the approved params through {@link RequestExtras}.
 */
import type { SamplingTool, ToolChoice } from '../../../shared/sampling';
import { Section } from '../../components/common';
import { prettyJson } from '../../format';
import '../../components/review.css';
import type { RequestExtras, ToolChoiceMode } from './edits';

const CHOICES: Array<{ mode: ToolChoiceMode; label: string }> = [
  { mode: 'auto', label: 'auto: the model decides' },
  { mode: 'required', label: 'required: the model must call a tool' },
  { mode: 'none', label: 'none: the model must not call tools' },
];

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
  const kept = tools.filter((t) => !extras.removedTools[t.name]).length;
  const serverMode = toolChoice?.mode ?? 'auto';
  const mode = extras.toolChoice ?? serverMode;
  const toggle = (name: string) => onChange({ ...extras, removedTools: { ...extras.removedTools, [name]: !extras.removedTools[name] } });
  return (
    <Section title={`Tools offered to the model (${kept} of ${tools.length})`} testId="tools-offered">
      <ul className="tools-offered">
        {tools.map((t) => {
          const removed = extras.removedTools[t.name] === true;
          return (
            <li key={t.name} className={`tool-offer${removed ? ' is-removed' : ''}`} data-testid="tool-offer" data-tool-name={t.name} data-removed={removed ? 'true' : undefined}>
              <div className="tool-offer-head">
                <strong className="mono tool-offer-name">{t.name}</strong>
                {t.title && <span className="muted">{t.title}</span>}
                {removed && <span className="badge tone-warn">removed: not offered</span>}
                <button type="button" className="btn-small" data-testid="tool-offer-remove" aria-label={`${removed ? 'Restore' : 'Remove'} tool ${t.name}`} onClick={() => toggle(t.name)}>
                  {removed ? 'Restore' : 'Remove'}
                </button>
              </div>
              {t.description ? <p>{t.description}</p> : <p className="small">(no description)</p>}
              <details>
                <summary>inputSchema</summary>
                <pre className="mono-box" data-testid="tool-offer-schema">
                  {prettyJson(t.inputSchema)}
                </pre>
              </details>
            </li>
          );
        })}
      </ul>
      <div className="tool-choice">
        <label htmlFor="tool-choice">Tool choice</label>
        <select
          id="tool-choice"
          data-testid="tool-choice"
          value={mode}
          disabled={kept === 0}
          onChange={(e) => {
            const next = e.target.value as ToolChoiceMode;
            onChange({ ...extras, toolChoice: next === serverMode ? undefined : next });
          }}
        >
          {CHOICES.map((c) => (
            <option key={c.mode} value={c.mode}>
              {c.label}
            </option>
          ))}
        </select>
        {extras.toolChoice !== undefined && <span className="badge tone-warn">changed (server asked for {serverMode})</span>}
        {toolChoice === undefined && extras.toolChoice === undefined && <span className="muted small">(the server set none: auto)</span>}
      </div>
      {kept === 0 && <p className="small warn-text">Every tool is removed: the request goes to the model without tools.</p>}
    </Section>
  );
}
