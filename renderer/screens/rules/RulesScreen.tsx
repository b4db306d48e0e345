/**
 * The Rules screen: the pause switch, problems with rules.json, servers (each with its rules,
 * default action, limits and counters), the rule editor, redaction settings, export and import.
 */
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { PolicyView, RuleInput, RulesFile } from '../../../shared/contract/rules';
import { getApi } from '../../api';
import { ActionError, Banner, Empty, Section } from '../../components/common';
import { clockTime } from '../../format';
import { useAction } from '../../hooks';
import { tokenCallerId } from '../../../shared/contract/gateway';
import { useConsole, useProviders, useServers } from '../../store';
import { AutoApprovalSwitch } from './AutoApprovalIndicator';
import { RedactionSettingsForm } from './RedactionSettingsForm';
import { RuleEditor } from './RuleEditor';
import { useRuleDraft, type RuleDraft } from './rule-draft';
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

/** Export and import of the rules file, and the line saying what the last import brought in. */
function useRulesFileTransfer() {
  const { t } = useTranslation('rules');
  const [imported, setImported] = useState<string | null>(null);
  const exportRules = useAction(async () => {
    const { fileName, text } = await getApi().exportRules({});
    download(fileName, text);
  });
  const importRules = useAction(async (file: File) => {
    const { rules } = await getApi().importRules({ text: await file.text() });
    setImported(t('screen.imported', { count: rules, file: file.name }));
  });
  return { imported, exportRules, importRules };
}

/**
 * What a save names as the rule book it started from: the revision on screen. Main refuses the save
 * (`error.rulesChanged`) when the book changed since — someone else saved, on another instance of a
 * team or by editing rules.json — instead of overwriting that change.
 */
const baseOf = (policy: PolicyView | undefined) => (policy?.revision !== undefined ? { baseRevision: policy.revision } : {});

/** Saving the rule open in the editor into `file` (replacing the one it edits, or first); the editor closes once saved. */
function useSaveRule(policy: PolicyView | undefined, draft: RuleDraft | null, close: () => void) {
  const file = policy?.rules;
  return useAction(async (rule: RuleInput) => {
    if (!draft || !file) return;
    const existing = file.servers[draft.serverId] ?? { defaultAction: { kind: 'ask' }, defaultVersion: 1, rules: [] };
    const rules = [...existing.rules] as RuleInput[];
    if (draft.index !== undefined) rules[draft.index] = rule;
    else rules.unshift(rule);
    await getApi().saveRules({ rules: { ...file, servers: { ...file.servers, [draft.serverId]: { ...existing, rules } } } as RulesFile, ...baseOf(policy) });
    close(); // only once saved: on failure the editor stays open with the error
  });
}

/** The ids rules can be kept for, sorted: the console's servers, bridged servers, gateway callers and those in the file. */
function useRuleServerIds(file: RulesFile | undefined): string[] {
  const servers = useServers();
  // Rules and limits apply to every source of requests: bridged servers and gateway callers too.
  const bridged = useConsole((s) => s.mirror?.bridged);
  const gatewayTokens = useConsole((s) => s.mirror?.gateway?.tokens);
  return [...new Set([...servers.map((s) => s.id), ...(bridged ?? []).map((b) => b.serverId), ...(gatewayTokens ?? []).map((t) => tokenCallerId(t.name)), ...Object.keys(file?.servers ?? {})])].sort();
}

/** The editor's heading: a new or an edited rule for the server, and the request it was prefilled from. */
function editorTitle(t: TFunction<'rules'>, draft: RuleDraft): string {
  const title = draft.index === undefined ? t('screen.newRuleFor', { server: draft.serverId }) : t('screen.editRuleFor', { server: draft.serverId });
  return draft.fromRequestAt === undefined ? title : t('screen.fromRequest', { title, time: clockTime(draft.fromRequestAt) });
}

/** The list of servers, each with its rule count and the calls its rate limit refused. */
function ServerList({ ids, current, policy, onSelect }: { ids: string[]; current: string | null; policy: PolicyView; onSelect: (id: string) => void }) {
  const { t } = useTranslation('rules');
  return (
    <ul className="rule-servers" aria-label={t('screen.serversAria')}>
      {ids.map((id) => {
        const n = policy.rules.servers[id]?.rules.length ?? 0;
        const limited = policy.counters[id]?.rateLimited ?? 0;
        return (
          <li key={id}>
            <button type="button" className={`queue-row${id === current ? ' is-selected' : ''}`} data-testid={`rules-server-${id}`} onClick={() => onSelect(id)}>
              <strong>{id}</strong>
              <span className="muted small">
                {t('screen.ruleCount', { count: n })}
                {limited > 0 && ' '}
                {limited > 0 && <span className="badge tone-warn">{t('screen.rateLimited', { n: limited })}</span>}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** The rules file: its path, export and import. */
function RulesFileSection({ policy, transfer }: { policy: PolicyView; transfer: ReturnType<typeof useRulesFileTransfer> }) {
  const { t } = useTranslation('rules');
  const { imported, exportRules, importRules } = transfer;
  const team = policy.source === 'database';
  return (
    <Section title={team ? t('screen.teamBook') : t('screen.file')}>
      <p className="small muted mono break" data-testid="rules-location">
        {policy.path}
      </p>
      {team && <p className="small muted">{t('screen.teamBookNote')}</p>}
      <div className="inline-fields">
        <button type="button" className="btn-small" data-testid="rules-export" onClick={() => void exportRules.run()}>
          {t('screen.export')}
        </button>
        {/* A file input dressed as the button beside it: the label looks like one, the input over it takes clicks and focus. */}
        <label className="btn-small file-button">
          {t('screen.import')}
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
      {imported && (
        <p className="small" data-testid="rules-imported">
          {imported}
        </p>
      )}
      <ActionError error={exportRules.error ?? importRules.error} />
    </Section>
  );
}

/** Problems with rules.json or the team's stored rule book (the previous rules stay in force) and notes on a good one. */
function FileMessages({ policy }: { policy: PolicyView }) {
  const { t } = useTranslation('rules');
  return (
    <>
      {policy.problems.length > 0 && (
        <Banner tone="error" title={policy.source === 'database' ? t('screen.bookProblem') : t('screen.fileProblem')} testId="rules-problems">
          <ul className="plain-list">
            {policy.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </Banner>
      )}
      {policy.notes && policy.notes.length > 0 && (
        <Banner tone="info" title={t('screen.fileNotes')} testId="rules-notes">
          <ul className="plain-list">
            {policy.notes.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </Banner>
      )}
    </>
  );
}

/** The Rules screen. */
export function RulesScreen() {
  const { t } = useTranslation('rules');
  const policy = useConsole((s) => s.mirror?.policy);
  const providers = useProviders();
  const { draft, selectedServer, selectServer, close } = useRuleDraft();
  const transfer = useRulesFileTransfer();
  const saveFile = useAction(async (next: RulesFile) => {
    await getApi().saveRules({ rules: next, ...baseOf(policy) });
  });
  const file = policy?.rules;
  const saveRule = useSaveRule(policy, draft, close);
  const ids = useRuleServerIds(file);

  if (!policy || !file) return <Empty>{t('screen.unavailable')}</Empty>;
  const current = draft?.serverId ?? selectedServer ?? ids[0] ?? null;

  return (
    <div className="split" data-testid="rules-screen">
      <div className="split-list">
        <div className="pane-title">
          <h2>{t('screen.title')}</h2>
        </div>
        <AutoApprovalSwitch />
        <ServerList ids={ids} current={current} policy={policy} onSelect={selectServer} />
        {policy.globalRateLimited > 0 && <p className="small warn-text">{t('screen.globalRefused', { n: policy.globalRateLimited })}</p>}
        <RulesFileSection policy={policy} transfer={transfer} />
      </div>
      <div className="split-detail">
        <FileMessages policy={policy} />
        <ActionError error={saveFile.error ?? saveRule.error} />
        {draft ? (
          <RuleEditor
            key={`${draft.serverId}:${draft.rule.id}`}
            initial={draft.rule}
            providers={providers}
            title={editorTitle(t, draft)}
            saving={saveRule.pending}
            onSave={(rule) => void saveRule.run(rule)}
            onCancel={close}
          />
        ) : current ? (
          <ServerPolicyView serverId={current} file={file} counters={policy.counters[current]} pricesKnown={policy.pricesKnown} save={(next) => saveFile.run(next)} />
        ) : (
          <Empty>{t('screen.noServers')}</Empty>
        )}
        <RedactionSettingsForm file={file} save={(next) => saveFile.run(next)} />
      </div>
    </div>
  );
}
