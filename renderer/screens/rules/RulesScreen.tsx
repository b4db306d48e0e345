/**
 * The Rules screen: the pause switch, problems with rules.json, servers (each with its rules,
 * default action, limits and counters), the rule editor, redaction settings, export and import.
 */
import { useState } from 'react';
import type { RuleInput, RulesFile } from '../../../shared/rules';
import { getApi } from '../../api';
import { ActionError, Banner, Empty, Section } from '../../components/common';
import { useAction } from '../../hooks';
import { useConsole, useProviders, useServers } from '../../store';
import { AutoApprovalSwitch } from './AutoApprovalIndicator';
import { RedactionSettingsForm } from './RedactionSettingsForm';
import { RuleEditor } from './RuleEditor';
import { useRuleDraft } from './rule-draft';
import { ServerPolicyView } from './ServerPolicyView';
import './rules.css';

function download(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The Rules screen. */
export function RulesScreen() {
  const policy = useConsole((s) => s.mirror?.policy);
  const servers = useServers();
  const providers = useProviders();
  const { draft, selectedServer, selectServer, close } = useRuleDraft();
  const [imported, setImported] = useState<string | null>(null);
  const saveFile = useAction(async (next: RulesFile) => {
    await getApi().saveRules({ rules: next });
  });
  const exportRules = useAction(async () => {
    const { fileName, text } = await getApi().exportRules({});
    download(fileName, text);
  });
  const importRules = useAction(async (file: File) => {
    const { rules } = await getApi().importRules({ text: await file.text() });
    setImported(`Imported ${rules} rule${rules === 1 ? '' : 's'} from ${file.name}.`);
  });
  const file = policy?.rules;
  const saveRule = useAction(async (rule: RuleInput) => {
    if (!draft || !file) return;
    const existing = file.servers[draft.serverId] ?? { defaultAction: { kind: 'ask' }, defaultVersion: 1, rules: [] };
    const rules = [...existing.rules] as RuleInput[];
    if (draft.index !== undefined) rules[draft.index] = rule;
    else rules.unshift(rule);
    await getApi().saveRules({ rules: { ...file, servers: { ...file.servers, [draft.serverId]: { ...existing, rules } } } as RulesFile });
    close(); // only once saved: on failure the editor stays open with the error
  });

  if (!policy || !file) return <Empty>Rules are not available from this console.</Empty>;
  const ids = [...new Set([...servers.map((s) => s.id), ...Object.keys(file.servers)])].sort();
  const current = draft?.serverId ?? selectedServer ?? ids[0] ?? null;

  return (
    <div className="split" data-testid="rules-screen">
      <div className="split-list">
        <div className="pane-title">
          <h2>Rules</h2>
        </div>
        <AutoApprovalSwitch />
        <ul className="rule-servers" aria-label="Servers">
          {ids.map((id) => {
            const n = file.servers[id]?.rules.length ?? 0;
            const limited = policy.counters[id]?.rateLimited ?? 0;
            return (
              <li key={id}>
                <button type="button" className={`queue-row${id === current ? ' is-selected' : ''}`} data-testid={`rules-server-${id}`} onClick={() => selectServer(id)}>
                  <strong>{id}</strong>
                  <span className="muted small">
                    {n} rule{n === 1 ? '' : 's'}
                    {limited > 0 && <span className="badge tone-warn"> {limited} rate limited</span>}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
        {policy.globalRateLimited > 0 && <p className="small warn-text">{policy.globalRateLimited} refused by the console-wide cap.</p>}
        <Section title="Rules file">
          <p className="small muted mono break">{policy.path}</p>
          <div className="inline-fields">
            <button type="button" className="btn-small" data-testid="rules-export" onClick={() => void exportRules.run()}>
              Export…
            </button>
            <label className="btn-small file-button">
              Import…
              <input
                type="file"
                accept="application/json,.json"
                data-testid="rules-import"
                onChange={(e) => {
                  const f = e.target.files?.[0];
                  if (f) void importRules.run(f);
                  e.target.value = '';
                }}
              />
            </label>
          </div>
          {imported && <p className="small">{imported}</p>}
          <ActionError error={exportRules.error ?? importRules.error} />
        </Section>
      </div>
      <div className="split-detail">
        {policy.problems.length > 0 && (
          <Banner tone="error" title="rules.json has a problem" testId="rules-problems">
            <ul className="plain-list">
              {policy.problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </Banner>
        )}
        <ActionError error={saveFile.error ?? saveRule.error} />
        {draft ? (
          <RuleEditor
            key={`${draft.serverId}:${draft.rule.id}`}
            initial={draft.rule}
            providers={providers}
            title={`${draft.index === undefined ? 'New rule' : 'Edit rule'} for ${draft.serverId}${draft.origin ? ` — ${draft.origin}` : ''}`}
            saving={saveRule.pending}
            onSave={(rule) => void saveRule.run(rule)}
            onCancel={close}
          />
        ) : current ? (
          <ServerPolicyView serverId={current} file={file} counters={policy.counters[current]} pricesKnown={policy.pricesKnown} save={(next) => saveFile.run(next)} />
        ) : (
          <Empty>No servers configured.</Empty>
        )}
        <RedactionSettingsForm file={file} save={(next) => saveFile.run(next)} />
      </div>
    </div>
  );
}
