/**
 * Limits (main/policy/limits.ts: token bucket, waiting, tokens/day, spend/day, global cap) with an
 * injected clock, and the rules file (main/policy/rules-store.ts): a bad file is reported with its
 * line and left untouched while the previous rules stay in force; hand edits are picked up and
 * versioned; export/import round-trips.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { RATE_LIMITED_CODE, RulesFileSchema, type RulesFile } from '../../shared/contract/rules.js';
import { createLimiter } from '../../main/policy/limits.js';
import { openRulesStore, RULES_FILE } from '../../main/policy/rules-store.js';
import { silentLogger } from '../../main/ports.js';

const file = (servers: Record<string, unknown> = {}, global: Record<string, unknown> = {}): RulesFile => RulesFileSchema.parse({ version: 1, servers, global });
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('limits', () => {
  it('requests per minute: a bucket of N, refilled evenly', () => {
    const l = createLimiter();
    const f = file({ s: { limits: { requestsPerMinute: 3, maxWaiting: 100 } } });
    const admitted = () => [0, 1, 2, 3, 4].map(() => l.admit('s', f, T0).ok);
    expect(admitted()).toEqual([true, true, true, false, false]);
    expect(l.admit('s', f, T0 + 19_000).ok).toBe(false); // 0.95 of a request refilled
    expect(l.admit('s', f, T0 + 20_000).ok).toBe(true); // one request per 20 s
    expect(l.counters().s).toMatchObject({ rateLimited: 3, waiting: 4 });
    const refused = l.admit('s', f, T0 + 20_001);
    expect(refused).toMatchObject({ ok: false, code: RATE_LIMITED_CODE, rule: 'limit.rpm', message: expect.stringMatching(/^Rate limited: more than 3 requests per minute from "s"/) });
  });

  it('requests waiting: refused while N are open, admitted again when one ends', () => {
    const l = createLimiter();
    const f = file({ s: { limits: { maxWaiting: 2 } } });
    expect([l.admit('s', f, T0).ok, l.admit('s', f, T0).ok, l.admit('s', f, T0).ok]).toEqual([true, true, false]);
    l.settled('s', { tokens: 0, costUsd: 0 }, T0);
    expect(l.admit('s', f, T0)).toMatchObject({ ok: true });
    expect(l.admit('s', f, T0)).toMatchObject({ ok: false, rule: 'limit.waiting' });
  });

  it('servers are limited apart; the global cap counts all of them', () => {
    const l = createLimiter();
    const f = file({ a: { limits: { maxWaiting: 1 } } }, { maxWaiting: 3 });
    expect(l.admit('a', f, T0).ok).toBe(true);
    expect(l.admit('a', f, T0).ok).toBe(false);
    expect([l.admit('b', f, T0).ok, l.admit('b', f, T0).ok, l.admit('c', f, T0).ok]).toEqual([true, true, false]);
    expect(l.admit('c', f, T0)).toMatchObject({ rule: 'limit.global.waiting' });
    expect(l.globalRateLimited()).toBe(2);
  });

  it('tokens per day: refused once reached, reset at midnight UTC', () => {
    const l = createLimiter();
    const f = file({ s: { limits: { tokensPerDay: 1000 } } });
    expect(l.admit('s', f, T0).ok).toBe(true);
    l.settled('s', { tokens: 1000, costUsd: null }, T0);
    expect(l.admit('s', f, T0)).toMatchObject({ ok: false, rule: 'limit.tokens', message: expect.stringContaining('used 1000 of 1000 tokens today (UTC)') });
    expect(l.admit('s', f, Date.UTC(2026, 10, 22, 23, 59, 59)).ok).toBe(false);
    expect(l.admit('s', f, Date.UTC(2026, 10, 23, 0, 0, 1)).ok).toBe(true);
    expect(l.counters().s).toMatchObject({ day: '2026-11-23', tokensToday: 0 });
  });

  it('usage counts for the UTC day the request arrived: a request from yesterday settling today adds nothing to today', () => {
    const l = createLimiter();
    const tomorrow = Date.UTC(2026, 10, 23, 0, 0, 5);
    l.settled('s', { tokens: 500, costUsd: 0.5, receivedAt: T0 }, tomorrow);
    expect(l.today('s', tomorrow)).toMatchObject({ tokens: 0, costUsd: 0 });
    l.settled('s', { tokens: 7, costUsd: 0.01, receivedAt: tomorrow }, tomorrow);
    expect(l.today('s', tomorrow)).toMatchObject({ tokens: 7, costUsd: 0.01 });
  });

  it('spend per day: from known costs; usage of models without a price is counted apart and does not switch the limit off', () => {
    const l = createLimiter();
    const f = file({ s: { limits: { spendPerDayUsd: 0.5 } } });
    l.admit('s', f, T0);
    l.settled('s', { tokens: 10, costUsd: 0.3 }, T0);
    l.settled('s', { tokens: 99, costUsd: null }, T0);
    expect(l.admit('s', f, T0).ok).toBe(true);
    l.settled('s', { tokens: 10, costUsd: 0.3 }, T0);
    expect(l.admit('s', f, T0)).toMatchObject({ ok: false, rule: 'limit.spend', message: expect.stringContaining('spent $0.60 of $0.5 today (UTC)') });
    expect(l.counters().s).toMatchObject({ tokensToday: 119, unpricedTokensToday: 99 });
    expect(l.counters().s!.spendTodayUsd).toBeCloseTo(0.6);
  });

  it('reservations: auto-approved requests hold their estimate until they settle', () => {
    const l = createLimiter();
    l.reserve('s', 'a', { tokens: 300, costUsd: 0.2 }, T0);
    l.reserve('s', 'b', { tokens: 100, costUsd: 0.1 }, T0);
    l.reserve('other', 'c', { tokens: 5, costUsd: 5 }, T0);
    expect(l.today('s', T0)).toMatchObject({ tokens: 0, pendingTokens: 400 });
    expect(l.today('s', T0).pendingUsd).toBeCloseTo(0.3);
    l.settled('s', { tokens: 250, costUsd: 0.15, id: 'a', receivedAt: T0 }, T0);
    expect(l.today('s', T0)).toMatchObject({ tokens: 250, pendingTokens: 100 });
    expect(l.counters().s).toMatchObject({ tokensToday: 250, pendingTokens: 100 });
  });

  it('console-wide spend per day: the sum over servers (seeded ones included) refuses every server once reached', () => {
    const l = createLimiter();
    const f = file({}, { spendPerDayUsd: 1 });
    l.seed('2026-11-22', { a: { tokens: 10, costUsd: 0.7, unpricedTokens: 0 } });
    l.settled('b', { tokens: 10, costUsd: 0.2 }, T0);
    expect(l.admit('c', f, T0).ok).toBe(true);
    l.settled('c', { tokens: 10, costUsd: 0.1 }, T0); // 0.7 + 0.2 + 0.1 is 0.9999999999999999 in floating point: still the limit
    expect(l.todayAll(T0)).toMatchObject({ tokens: 30 });
    expect(l.admit('d', f, T0)).toMatchObject({ ok: false, rule: 'limit.global.spend', message: expect.stringContaining('the console spent $1.00 of $1 today (UTC)') });
    expect(l.globalRateLimited()).toBe(1);
    expect(l.admit('d', f, Date.UTC(2026, 10, 23, 1)).ok).toBe(true); // a new day
  });

  it('seed: today starts from what history recorded (a restart keeps the totals); another day starts at zero', () => {
    const l = createLimiter();
    const f = file({ s: { limits: { tokensPerDay: 1000, spendPerDayUsd: 1 } } });
    l.seed('2026-11-22', { s: { tokens: 1000, costUsd: 0.4, unpricedTokens: 0 } });
    expect(l.counters().s).toMatchObject({ tokensToday: 1000, spendTodayUsd: 0.4, day: '2026-11-22' });
    expect(l.admit('s', f, T0)).toMatchObject({ ok: false, rule: 'limit.tokens' });
    expect(l.admit('s', f, Date.UTC(2026, 10, 23, 1)).ok).toBe(true);
    expect(l.counters().s).toMatchObject({ tokensToday: 0, spendTodayUsd: 0 });
  });

  it('defaults apply when nothing is configured (120/min per server)', () => {
    const l = createLimiter();
    const results = Array.from({ length: 130 }, () => {
      const r = l.admit('s', file(), T0);
      l.settled('s', { tokens: 0, costUsd: 0 }, T0);
      return r.ok;
    });
    expect(results.filter(Boolean)).toHaveLength(120);
  });
});

describe('rules file', () => {
  const setup = () => {
    const dir = mkdtempSync(join(tmpdir(), 'rules-'));
    let changes = 0;
    const store = openRulesStore(dir, { logger: silentLogger, onChange: () => changes++, watch: false });
    return { dir, store, path: join(dir, RULES_FILE), changes: () => changes };
  };
  const oneRule = { version: 1, servers: { s: { rules: [{ id: 'r', name: 'small', when: { maxTokensAtMost: 100 }, action: { kind: 'approve_all' } }] } } };

  it('no file: no rules, no problems; save writes a versioned file', () => {
    const t = setup();
    expect(t.store.current().servers).toEqual({});
    const saved = t.store.save(oneRule);
    expect(saved.servers.s!.rules[0]).toMatchObject({ id: 'r', version: 1, enabled: true });
    expect(JSON.parse(readFileSync(t.path, 'utf8'))).toMatchObject({ version: 1, servers: { s: { rules: [{ id: 'r', version: 1 }] } } });
    const edited = t.store.save({ ...saved, servers: { s: { ...saved.servers.s!, rules: [{ ...saved.servers.s!.rules[0]!, when: { maxTokensAtMost: 50 } }] } } });
    expect(edited.servers.s!.rules[0]!.version).toBe(2);
  });

  it('a pattern the linear-time engine refuses is not saved, says why, and leaves the file as it was', () => {
    const t = setup();
    t.store.save(oneRule);
    const before = readFileSync(t.path, 'utf8');
    const lookAhead = { version: 1, servers: { s: { rules: [{ id: 'r', name: 'x', when: { messageText: { pattern: 'secret(?!ok)' } }, action: { kind: 'approve_all' } }] } } };
    expect(() => t.store.save(lookAhead)).toThrow(/^Rules not saved: servers\.s\.rules\.0\.when\.messageText\.pattern: look-ahead .* not supported/);
    const backRef = { ...oneRule, redaction: { patterns: [{ id: 'twice', label: 'Twice', regex: '(\\w+) \\1' }] } };
    expect(() => t.store.save(backRef)).toThrow(/^Rules not saved: redaction\.patterns\.0\.regex: back-references .* not supported/);
    expect(readFileSync(t.path, 'utf8')).toBe(before);
  });

  it('a broken file is reported with its line, left untouched, and the previous rules stay in force', () => {
    const t = setup();
    t.store.save(oneRule);
    const broken = '{\n  "version": 1,\n  "servers": {\n    "s": { "rules": [ }\n  }\n}\n';
    writeFileSync(t.path, broken);
    t.store.reload();
    expect(t.store.problems()[0]).toMatch(/^rules\.json line 4, column \d+: /);
    expect(readFileSync(t.path, 'utf8')).toBe(broken);
    expect(t.store.current().servers.s!.rules[0]!.id).toBe('r');
    expect(t.changes()).toBe(1);
  });

  it('a schema problem names the line and the field', () => {
    const t = setup();
    const bad = JSON.stringify({ version: 1, servers: { s: { rules: [{ id: 'r', name: 'x', action: { kind: 'approve_everything' } }] } } }, null, 2);
    writeFileSync(t.path, bad);
    t.store.reload();
    const line = bad.split('\n').findIndex((l) => l.includes('"kind"')) + 1;
    expect(t.store.problems()[0]).toContain(`rules.json line ${line}`);
    expect(t.store.problems()[0]).toContain('servers.s.rules.0.action.kind');
    expect(t.store.current().servers).toEqual({});
  });

  it('a hand edit is picked up; a changed rule gets its version bumped and written back', () => {
    const t = setup();
    t.store.save(oneRule);
    const onDisk = JSON.parse(readFileSync(t.path, 'utf8')) as { servers: { s: { rules: Array<{ when: unknown }> } } };
    onDisk.servers.s.rules[0]!.when = { maxTokensAtMost: 999 };
    writeFileSync(t.path, JSON.stringify(onDisk));
    t.store.reload();
    expect(t.store.problems()).toEqual([]);
    expect(t.store.current().servers.s!.rules[0]).toMatchObject({ version: 2, when: { maxTokensAtMost: 999 } });
    expect(JSON.parse(readFileSync(t.path, 'utf8')).servers.s.rules[0].version).toBe(2);
  });

  it('is watched: an edit by hand applies without a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rules-'));
    let changed!: () => void;
    const seen = new Promise<void>((r) => (changed = r));
    const store = openRulesStore(dir, { logger: silentLogger, onChange: () => changed() });
    try {
      writeFileSync(join(dir, RULES_FILE), JSON.stringify({ version: 1, paused: true }));
      await seen;
      expect(store.current().paused).toBe(true);
    } finally {
      store.close();
    }
  });

  it('a rules file deleted while running takes its rules and notes out of force', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rules-'));
    const file = join(dir, RULES_FILE);
    writeFileSync(file, JSON.stringify({ ...oneRule, mine: 'kept and ignored' }));
    let changes = 0;
    const store = openRulesStore(dir, { logger: silentLogger, onChange: () => changes++ });
    try {
      expect(store.current().servers.s!.rules[0]!.id).toBe('r');
      expect(store.notes()).not.toEqual([]);
      rmSync(file);
      // the watcher reloads 100 ms after the last event; give it a few seconds on a busy machine
      await vi.waitFor(() => expect(store.current().servers).toEqual({}), { timeout: 3000, interval: 50 });
      expect(changes).toBe(1);
      expect(store.notes()).toEqual([]);
      expect(store.problems()).toEqual([]);
      // put back with the rule changed: versions still count from the rules last in force
      writeFileSync(file, JSON.stringify({ ...oneRule, servers: { s: { rules: [{ ...oneRule.servers.s.rules[0]!, when: { maxTokensAtMost: 5 } }] } } }));
      await vi.waitFor(() => expect(store.current().servers.s?.rules[0]).toMatchObject({ version: 2, when: { maxTokensAtMost: 5 } }), { timeout: 3000, interval: 50 });
    } finally {
      store.close();
    }
  });

  it('parse (import) reports problems with lines and changes nothing', () => {
    const t = setup();
    expect(t.store.parse('{"version": 2}', 'imported file')).toEqual({ ok: false, problems: [expect.stringMatching(/^imported file line 1, column \d+: version: /)] });
    const exported = JSON.stringify(t.store.save(oneRule));
    const parsed = t.store.parse(exported);
    expect(parsed.ok && parsed.rules.servers.s!.rules[0]!.name).toBe('small');
  });
});
