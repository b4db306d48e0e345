/**
 * The desktop's rule book, `rules.json` in the data folder (main/policy/rule-book.ts over
 * main/policy/rules-store.ts), against the shared rule-book tests: two stores on one folder stand
 * for the console and a hand edit (or a second window); the folder's watcher carries changes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import { openFileRuleBook, type RuleBookStore } from '../../main/policy/rule-book.js';
import { RULES_FILE } from '../../main/policy/rules-store.js';
import { silentLogger } from '../../main/ports.js';
import { ruleBookContract } from './rule-book-contract.js';

describe('rule book in rules.json', () => {
  ruleBookContract(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rule-book-'));
    const open: RuleBookStore[] = [];
    return {
      open: async () => {
        const store = openFileRuleBook(dir, { logger: silentLogger });
        open.push(store);
        await store.ready;
        return store;
      },
      writeRaw: async (body) => writeFileSync(join(dir, RULES_FILE), `${JSON.stringify(body, null, 2)}\n`),
      readRaw: async () => JSON.parse(readFileSync(join(dir, RULES_FILE), 'utf8')) as unknown,
      close: async () => {
        for (const s of open) s.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});
