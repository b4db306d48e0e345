/**
 * A bridged server whose derived name changed (`index` → `server-everything`) keeps the rules,
 * elicitation policy and limits written under its former name, until the person writes some under
 * the new one; other servers are not affected.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CreateMessageParams } from '../../shared/contract/sampling.js';
import type { SamplingItemView } from '../../shared/contract/state.js';
import { createFormerNames } from '../../main/policy/former-names.js';
import { createPolicyService } from '../../main/policy/policy.js';
import { silentLogger } from '../../main/ports.js';
import { createStateHub } from '../../main/state-hub.js';

const NOW = Date.UTC(2026, 0, 5, 12, 0);
const params: CreateMessageParams = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 };

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'former-names-'));
  const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: dir, serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
  const former = createFormerNames();
  const svc = createPolicyService({ dir, hub, logger: silentLogger, now: () => NOW, watch: false, formerNames: (id) => former.of(id) });
  let n = 0;
  const decide = (serverId: string) => {
    const item = { id: `i${++n}`, origin: 'server', conversationId: 'c', round: 1, serverId, era: 'legacy', association: { exact: false, calls: [] }, status: 'awaiting_request_review', receivedAt: NOW, updatedAt: NOW, original: params, model: { providerId: 'llm', modelId: 'm', reason: 'test' } } as SamplingItemView;
    return svc.policy.decide({ serverId, item, params, model: item.model, now: NOW });
  };
  return { svc, former, decide };
}

describe('rules and limits written under a former name', () => {
  it('apply to the server that says it was called so', () => {
    const t = setup();
    t.svc.saveRules({ version: 1, servers: { index: { defaultAction: { kind: 'reject', reason: 'not this one' }, elicitation: { action: 'decline' } } } });
    expect(t.decide('server-everything').kind).toBe('ask'); // nobody said it was "index" yet
    t.former.note('server-everything', ['index']);
    expect(t.decide('server-everything')).toMatchObject({ kind: 'reject', reason: 'not this one' });
    expect(t.svc.decideElicitation('server-everything').kind).toBe('decline');
    expect(t.decide('weather').kind).toBe('ask');
  });

  it("limits too: the former name's requests-per-minute holds the renamed server", () => {
    const t = setup();
    t.svc.saveRules({ version: 1, servers: { index: { limits: { requestsPerMinute: 1 } } } });
    t.former.note('server-everything', ['index']);
    expect(t.decide('server-everything').kind).toBe('ask');
    expect(t.decide('server-everything')).toMatchObject({ kind: 'refuse', rule: 'limit.rpm' });
  });

  it('an entry under the new name wins', () => {
    const t = setup();
    t.svc.saveRules({ version: 1, servers: { index: { defaultAction: { kind: 'reject', reason: 'old' } }, 'server-everything': { defaultAction: { kind: 'approve_all' } } } });
    t.former.note('server-everything', ['index']);
    expect(t.decide('server-everything').kind).toBe('approve_all');
  });

  it('the record keeps each former name once and never the name itself', () => {
    const former = createFormerNames();
    former.note('a', ['x', 'a', 'x']);
    former.note('a', ['y', 'x']);
    expect(former.of('a')).toEqual(['x', 'y']);
    expect(former.of('b')).toEqual([]);
  });
});
