/**
 * The files a person may edit by hand, driven through the console's API as the renderer drives it:
 * every UI write against every file broken in each way (at start, and by hand after start) is
 * refused with the file's problem and leaves the file byte for byte as it was; a good file keeps
 * its unknown fields, key order and indentation through every write, and the previous version is
 * left as `<name>.bak`, with no temp files behind.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsole, type ConsoleHandle } from '../../main/console.js';
import { RULES_FILE_VERSION } from '../../shared/contract/rules.js';

type Service = ConsoleHandle['service'];

let handle: ConsoleHandle | null = null;
afterEach(async () => {
  await handle?.dispose();
  handle = null;
});

/** A disabled stdio server (never starts) for the server-file writes; `r`, a process that exits, has roots. */
const SERVERS = { mcpServers: { s: { command: 'node', args: ['-e', 'setInterval(() => {}, 1000)'], disabled: true }, r: { command: process.execPath, args: ['-e', 'process.exit(0)'] } } };

async function start(files: Record<string, string> = {}): Promise<{ dir: string; service: Service }> {
  const dir = mkdtempSync(join(tmpdir(), 'user-files-'));
  writeFileSync(join(dir, 'mcp-servers.json'), JSON.stringify(SERVERS));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  handle = await createConsole({ host: 'test', userDataDir: dir, nodeRuntime: { command: process.execPath }, env: {} });
  return { dir, service: handle.service };
}

const folder = mkdtempSync(join(tmpdir(), 'root-folder-'));

/** Every UI action that writes each file, as the renderer calls it. */
const WRITES: Record<string, Array<[string, (s: Service) => Promise<unknown>]>> = {
  'rules.json': [
    ['saveRules', async (s) => s.saveRules({ rules: (await s.getState({})).policy!.rules })],
    ['setAutoApprovalPaused (Shift+P)', (s) => s.setAutoApprovalPaused({ paused: true })],
    ['setAutoApprovalPaused (resume)', (s) => s.setAutoApprovalPaused({ paused: false })],
    ['importRules', (s) => s.importRules({ text: JSON.stringify({ version: RULES_FILE_VERSION, paused: true }) })],
  ],
  'providers.json': [
    ['saveProvider', (s) => s.saveProvider({ provider: { id: 'local', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', models: ['m'] } })],
    ['saveModelSettings', (s) => s.saveModelSettings({ families: [{ pattern: 'm', family: 'fast' }] })],
  ],
  'roots.json': [['setServerRoots', (s) => s.setServerRoots({ serverId: 'r', folders: [folder] })]],
  'history-settings.json': [['setHistorySettings', (s) => s.setHistorySettings({ retentionDays: 30 })]],
  'desktop-settings.json': [['setDesktopSettings', (s) => s.setDesktopSettings({ theme: 'dark' })]],
  'mcp-servers.json': [
    ['saveServer (add)', (s) => s.saveServer({ id: 'added', entry: { transport: 'stdio', command: 'node', args: ['added.js'], env: {}, disabled: true } })],
    ['saveServer (edit)', (s) => s.saveServer({ id: 's', previousId: 's', entry: { transport: 'stdio', command: 'node', args: ['edited.js'], env: {}, disabled: true } })],
    ['setServerEnabled', (s) => s.setServerEnabled({ serverId: 's', enabled: false })],
    ['duplicateServer', (s) => s.duplicateServer({ serverId: 's' })],
    ['removeServer', (s) => s.removeServer({ serverId: 's' })],
  ],
};

/** Each file broken two ways: not JSON, and a known field of the wrong type. */
const BROKEN: Record<string, Array<[string, string]>> = {
  'rules.json': [
    ['not JSON', '{"version": 1, "paused": '],
    ['wrong type', '{\n  "version": 1,\n  "paused": "yes"\n}\n'],
  ],
  'providers.json': [
    ['not JSON', '{"providers": [ '],
    ['wrong type', '{\n  "providers": "none"\n}\n'],
  ],
  'roots.json': [
    ['not JSON', '{"s": ["/tmp"'],
    ['wrong type', '{\n  "s": "/tmp"\n}\n'],
  ],
  'history-settings.json': [
    ['not JSON', '{"retentionDays": '],
    ['wrong type', '{\n  "retentionDays": "forever"\n}\n'],
  ],
  'desktop-settings.json': [
    ['not JSON', '{"theme": '],
    ['wrong type', '{\n  "theme": "purple"\n}\n'],
  ],
  'mcp-servers.json': [
    ['not JSON', '{"mcpServers": {'],
    ['wrong type', '{\n  "mcpServers": []\n}\n'],
    // One entry broken: even editing or removing that very entry must not write the file.
    ['wrong type in an entry', '{\n  "mcpServers": {\n    "s": { "command": "node", "disabled": true, "timeoutMs": "soon" }\n  }\n}\n'],
  ],
};

/** Expects `write` to be refused with the file named, and the folder to hold no .bak or temp file of it. */
async function expectRefused(dir: string, name: string, broken: string, write: () => Promise<unknown>): Promise<void> {
  let error: unknown;
  try {
    await write();
  } catch (e) {
    error = e;
  }
  expect(error, 'the write is refused').toBeInstanceOf(Error);
  expect((error as Error).message).toContain(name);
  expect(readFileSync(join(dir, name), 'utf8'), 'the file is left byte for byte').toBe(broken);
  expect(readdirSync(dir).filter((f) => f.startsWith(name) && f !== name).concat(readdirSync(dir).filter((f) => f.startsWith(`.${name}`)))).toEqual([]);
}

describe('a broken file the person wrote is never written by a UI action', () => {
  for (const [name, writes] of Object.entries(WRITES)) {
    for (const [how, broken] of BROKEN[name]!) {
      for (const [action, write] of writes) {
        it(`${name} (${how}, at start): ${action} is refused and the file is unchanged`, async () => {
          const { dir, service } = await start(name === 'mcp-servers.json' ? {} : { [name]: broken });
          if (name === 'mcp-servers.json') writeFileSync(join(dir, name), broken); // the server file must load first
          await expectRefused(dir, name, broken, () => write(service));
        });
      }
      it(`${name} (${how}, broken by hand after start): every write is refused`, async () => {
        const { dir, service } = await start();
        writeFileSync(join(dir, name), broken);
        for (const [, write] of writes) await expectRefused(dir, name, broken, () => write(service));
      });
    }
  }
});

describe('a good file keeps what the person wrote through a UI write', () => {
  const GOOD: Record<string, string> = {
    'rules.json': `{\n    "_comment": "my rules",\n    "servers": {},\n    "version": ${RULES_FILE_VERSION}\n}\n`,
    'providers.json': '{\n    "_comment": "mine",\n    "providers": [\n        { "note": "keep me", "id": "old", "kind": "openai-compatible", "baseURL": "http://127.0.0.1:8/v1", "models": ["x"] }\n    ]\n}\n',
    'roots.json': `{\n    "other": [${JSON.stringify(folder)}]\n}\n`,
    'history-settings.json': '{\n    "_comment": "mine",\n    "retentionSessions": 100\n}\n',
    'desktop-settings.json': '{\n    "_comment": "mine",\n    "sound": true\n}\n',
  };
  for (const [name, text] of Object.entries(GOOD)) {
    it(`${name}: unknown fields, key order and indentation kept; the previous version is ${name}.bak`, async () => {
      const { dir, service } = await start({ [name]: text });
      const [, write] = WRITES[name]![0]!;
      await write(service);
      const after = readFileSync(join(dir, name), 'utf8');
      const before = JSON.parse(text) as Record<string, unknown>;
      const json = JSON.parse(after) as Record<string, unknown>;
      expect(Object.keys(json).slice(0, Object.keys(before).length)).toEqual(Object.keys(before)); // the person's order first
      if ('_comment' in before) expect(json._comment).toBe(before._comment);
      expect(after).toMatch(/^\{\n {4}"/); // four spaces, as written
      expect(readFileSync(join(dir, `${name}.bak`), 'utf8')).toBe(text);
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    });
  }

  it('providers.json: an entry keeps its unknown fields when another provider is added', async () => {
    const { dir, service } = await start({ 'providers.json': GOOD['providers.json']! });
    await WRITES['providers.json']![0]![1](service);
    const json = JSON.parse(readFileSync(join(dir, 'providers.json'), 'utf8')) as { providers: Array<Record<string, unknown>> };
    expect(json.providers[0]).toMatchObject({ note: 'keep me', id: 'old' });
    expect(Object.keys(json.providers[0]!)[0]).toBe('note');
    expect(json.providers.map((p) => p.id)).toEqual(['old', 'local']);
  });

  it('rules.json: an unknown field is kept and ignored (shown as a note), but one inside a condition is an error', async () => {
    const { dir, service } = await start({ 'rules.json': `{"version": ${RULES_FILE_VERSION}, "mine": 1, "servers": {"s": {"rules": [{"id": "r", "name": "R", "when": {"maxTokensAtMost": 5}, "action": {"kind": "approve_all"}, "tag": "x"}]}}}` });
    const policy = (await service.getState({})).policy!;
    expect(policy.problems).toEqual([]);
    expect(policy.notes?.join(' ')).toMatch(/"mine"/);
    expect(policy.notes?.join(' ')).toMatch(/"servers\.s\.rules\.0\.tag"/);
    await service.setAutoApprovalPaused({ paused: true });
    const json = JSON.parse(readFileSync(join(dir, 'rules.json'), 'utf8')) as { mine: number; paused: boolean; servers: { s: { rules: Array<{ tag: string }> } } };
    expect(json).toMatchObject({ mine: 1, paused: true });
    expect(json.servers.s.rules[0]!.tag).toBe('x');

    const strict = await start({ 'rules.json': `{"version": ${RULES_FILE_VERSION}, "servers": {"s": {"rules": [{"id": "r", "name": "R", "when": {"maxTokenAtMost": 5}, "action": {"kind": "approve_all"}}]}}}` });
    expect((await strict.service.getState({})).policy!.problems.join(' ')).toMatch(/maxTokenAtMost/);
  });

  it('mcp-servers.json: the refusal names the entry field at fault, not a bare "Invalid input"', async () => {
    const { dir, service } = await start();
    const broken = '{\n  "mcpServers": {\n    "s": { "command": "node", "disabled": true, "timeoutMs": "soon" }\n  }\n}\n';
    writeFileSync(join(dir, 'mcp-servers.json'), broken);
    await expect(service.removeServer({ serverId: 's' })).rejects.toThrow(/mcp-servers\.json: s\.timeoutMs: .*number/);
    await expect(service.saveServer({ id: 'n', entry: { transport: 'http', url: 'https://n.example/mcp', headers: {} } })).rejects.toMatchObject({ code: 'invalid_state' });
    expect(readFileSync(join(dir, 'mcp-servers.json'), 'utf8')).toBe(broken);
  });

  it('providers.json broken by hand after start: removing a provider is refused too', async () => {
    const good = '{\n  "providers": [{ "id": "old", "kind": "openai-compatible", "baseURL": "http://127.0.0.1:8/v1", "models": ["x"] }]\n}\n';
    const { dir, service } = await start({ 'providers.json': good });
    for (const [, broken] of BROKEN['providers.json']!) {
      writeFileSync(join(dir, 'providers.json'), broken);
      await expectRefused(dir, 'providers.json', broken, () => service.removeProvider({ id: 'old' }));
    }
  });

  it('rules.json: a rule keeps its unknown fields when a rule before it is deleted or the rules are reordered', async () => {
    const rule = (id: string, extra: Record<string, unknown> = {}) => ({ id, name: id, when: {}, action: { kind: 'ask' }, ...extra });
    const text = JSON.stringify({ version: RULES_FILE_VERSION, servers: { s: { rules: [rule('r1'), rule('r2', { tag: 'two' }), rule('r3', { tag: 'three' })] } } }, null, 2);
    const { dir, service } = await start({ 'rules.json': text });
    const rules = (await service.getState({})).policy!.rules;
    const s = rules.servers.s!;
    const byId = (id: string) => s.rules.find((r) => r.id === id)!;
    await service.saveRules({ rules: { ...rules, servers: { s: { ...s, rules: [byId('r3'), byId('r2')] } } } });
    const json = JSON.parse(readFileSync(join(dir, 'rules.json'), 'utf8')) as { servers: { s: { rules: Array<{ id: string; tag?: string }> } } };
    expect(json.servers.s.rules.map((r) => [r.id, r.tag])).toEqual([
      ['r3', 'three'],
      ['r2', 'two'],
    ]);
  });

  it('roots.json: a problem is shown as a notice at start', async () => {
    const { service } = await start({ 'roots.json': '{"s": 3}' });
    expect((await service.getState({})).notices.map((n) => n.message).join(' ')).toMatch(/roots\.json/);
  });

  it('mcp-servers.json keeps the previous version as mcp-servers.json.bak', async () => {
    const { dir, service } = await start();
    const before = readFileSync(join(dir, 'mcp-servers.json'), 'utf8');
    await service.duplicateServer({ serverId: 's' });
    expect(readFileSync(join(dir, 'mcp-servers.json.bak'), 'utf8')).toBe(before);
    expect(existsSync(join(dir, 'mcp-servers.json'))).toBe(true);
  });
});

mkdirSync(folder, { recursive: true });
