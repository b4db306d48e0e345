/**
 * What every rule-book store promises (main/policy/rule-book.ts), run against each: the desktop's
 * `rules.json` (test/policy/rule-book-file.test.ts) and a team's database
 * (test/team/policy-rules.test.ts). Two stores on one backing stand for two consoles (or a console
 * and a hand edit): a change made through one is in force on the other; two saves from the same
 * revision store one book and tell the other; a stale save changes nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/contract/api.js';
import type { RulesFile } from '../../shared/contract/rules.js';
import type { RuleBookStore } from '../../main/policy/rule-book.js';

/** One backing shared by the stores a test opens. */
export interface RuleBookBackend {
  /** Opens another store on the backing (another console). */
  open(): Promise<RuleBookStore>;
  /** Writes the stored book directly (by hand, or by another program), as it is given. */
  writeRaw(body: Record<string, unknown>): Promise<void>;
  /** The newest stored book as stored. */
  readRaw(): Promise<unknown>;
  /** Closes every store it opened and removes the backing. */
  close(): Promise<void>;
}

const until = async (what: string, ok: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

const rule = (id: string, name: string, kind: 'approve_all' | 'ask' = 'approve_all') => ({ id, name, action: { kind } });
const book = (rules: unknown[], extra: Record<string, unknown> = {}) => ({ version: 1, servers: { s: { rules } }, ...extra });
const rulesOf = (b: RulesFile) => b.servers.s?.rules.map((r) => `${r.id}:${r.name}@v${r.version}`) ?? [];
const same = (a: RuleBookStore, b: RuleBookStore) => JSON.stringify(a.current()) === JSON.stringify(b.current());

/** The refusal of a stale save: `invalid_state` with the `error.rulesChanged` message code. */
const isRulesChanged = (err: unknown) => err instanceof ApiError && err.code === 'invalid_state' && err.ui?.code === 'error.rulesChanged';

/** Registers the shared tests for a backing made by `make`. */
export function ruleBookContract(make: () => Promise<RuleBookBackend>): void {
  let backend: RuleBookBackend;
  beforeEach(async () => {
    backend = await make();
  });
  afterEach(async () => backend.close());

  describe('one console', () => {
    it('starts empty; a save is in force when it resolves, versions the rules that changed, and raises the revision', async () => {
      const a = await backend.open();
      expect(a.current().servers).toEqual({});
      const r0 = a.revision();
      await a.save(book([rule('r1', 'One'), rule('r2', 'Two')]), { baseRevision: r0 });
      expect(rulesOf(a.current())).toEqual(['r1:One@v1', 'r2:Two@v1']);
      const r1 = a.revision();
      expect(r1).toBeGreaterThan(r0);
      await a.save(book([rule('r1', 'One, renamed'), rule('r2', 'Two')]), { baseRevision: r1 });
      expect(rulesOf(a.current())).toEqual(['r1:One, renamed@v2', 'r2:Two@v1']);
      expect(a.revision()).toBeGreaterThan(r1);
    });

    it('a save from an older revision is refused, saying so, and changes nothing; saved from the current one it goes through', async () => {
      const a = await backend.open();
      const start = a.revision();
      await a.save(book([rule('r1', 'First')]), { baseRevision: start });
      const err = await a.save(book([rule('r1', 'Stale edit')]), { baseRevision: start }).catch((e: unknown) => e);
      expect(isRulesChanged(err)).toBe(true);
      expect((err as ApiError).message).toMatch(/changed elsewhere .* nothing was saved/);
      expect(rulesOf(a.current())).toEqual(['r1:First@v1']);
      expect(await backend.readRaw()).toMatchObject({ servers: { s: { rules: [{ name: 'First' }] } } });
      await a.save(book([rule('r1', 'Fresh edit')]), { baseRevision: a.revision() });
      expect(rulesOf(a.current())).toEqual(['r1:Fresh edit@v2']);
    });

    it('a book that does not fit the schema is refused with invalid_input and nothing is stored', async () => {
      const a = await backend.open();
      await a.save(book([rule('r1', 'Kept')]));
      const raw = await backend.readRaw();
      await expect(a.save({ version: 1, servers: { s: { rules: [{ id: 'x', name: 'Bad', action: { kind: 'approve_everything' } }] } } })).rejects.toMatchObject({ code: 'invalid_input' });
      expect(await backend.readRaw()).toEqual(raw);
      expect(rulesOf(a.current())).toEqual(['r1:Kept@v1']);
    });
  });

  describe('two consoles on one book', () => {
    it('a change made on one is in force on the other, which tells its listeners', async () => {
      const [a, b] = [await backend.open(), await backend.open()];
      let told = 0;
      b.onChange(() => told++);
      await a.save(book([rule('r1', 'From A')]), { baseRevision: a.revision() });
      await until('B has the book', () => same(a, b));
      expect(rulesOf(b.current())).toEqual(['r1:From A@v1']);
      expect(told).toBeGreaterThan(0);
      await b.save(book([rule('r1', 'From A'), rule('r2', 'From B')]), { baseRevision: b.revision() });
      await until('A has it back', () => same(a, b));
      expect(rulesOf(a.current())).toEqual(['r1:From A@v1', 'r2:From B@v1']);
    });

    it('two saves from the same revision: one is stored, the other is told and then sees the winner', async () => {
      const [a, b] = [await backend.open(), await backend.open()];
      await a.save(book([rule('r1', 'Start')]));
      await until('B has the start', () => same(a, b));
      const outcomes = await Promise.allSettled([
        a.save(book([rule('r1', 'A wins')]), { baseRevision: a.revision() }),
        b.save(book([rule('r1', 'B wins')]), { baseRevision: b.revision() }),
      ]);
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(isRulesChanged(lost[0]!.reason)).toBe(true);
      const winner = outcomes[0]!.status === 'fulfilled' ? 'A wins' : 'B wins';
      expect(await backend.readRaw()).toMatchObject({ servers: { s: { rules: [{ name: winner, version: 2 }] } } });
      await until('both show the winner', () => same(a, b));
      expect(rulesOf(a.current())).toEqual([`r1:${winner}@v2`]);
    });

    it('an import replaces whatever is in force; the pause switch changes only `paused` of the newest book', async () => {
      const [a, b] = [await backend.open(), await backend.open()];
      await a.save(book([rule('r1', 'Old')]));
      await b.save(book([rule('r9', 'Imported')]), { how: 'import' }); // no base: whatever B has seen
      expect(rulesOf(b.current())).toEqual(['r9:Imported@v1']);
      await until('A has the import', () => same(a, b));
      await a.save(book([rule('r9', 'Imported'), rule('r10', 'Added on A')]), { baseRevision: a.revision() });
      const paused = await b.setPaused(true); // B may not have seen A's save yet: it is kept all the same
      expect(paused.paused).toBe(true);
      expect(rulesOf(paused)).toEqual(['r9:Imported@v1', 'r10:Added on A@v1']);
      await until('A is paused', () => a.current().paused);
      expect(rulesOf(a.current())).toEqual(['r9:Imported@v1', 'r10:Added on A@v1']);
    });

    it('fields the console does not know, in the stored book, are kept by later saves', async () => {
      const [a] = [await backend.open()];
      await backend.writeRaw({ version: 1, owner: 'platform team', servers: { s: { rules: [{ ...rule('r1', 'One'), version: 1, ticket: 'SEC-12' }], reviewedBy: 'ana' } } });
      await until('the hand-written book is in force', () => a.current().servers.s?.rules[0]?.name === 'One');
      expect(a.notes().join(' ')).toMatch(/owner/);
      await a.save(book([rule('r1', 'One, renamed')]), { baseRevision: a.revision() });
      expect(await backend.readRaw()).toMatchObject({ owner: 'platform team', servers: { s: { reviewedBy: 'ana', rules: [{ name: 'One, renamed', version: 2, ticket: 'SEC-12' }] } } });
    });
  });
}
