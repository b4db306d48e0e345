/**
 * docs/roles.md stays true: its list of every call and the access it needs is the code's
 * API_ACCESS (shared/contract/roles.ts), method for method, and each level names the roles
 * ACCESS_ROLES admits.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACCESS_ROLES, API_ACCESS, type ApiAccess } from '../../shared/contract/roles.js';

const DOC = readFileSync(new URL('../../docs/roles.md', import.meta.url), 'utf8');

/** The doc's list items of "Every call and the access it needs", by access level: the roles text and the methods. */
function documented(): Map<string, { roles: string; methods: string[] }> {
  const section = DOC.split(/^## /m).find((s) => s.startsWith('Every call and the access it needs'));
  if (!section) throw new Error('docs/roles.md has no "Every call and the access it needs" section');
  const out = new Map<string, { roles: string; methods: string[] }>();
  for (const item of section.split(/^- /m).slice(1)) {
    const head = /^\*\*(\w+)\*\* \(([^)]*)\):/.exec(item);
    if (!head) continue;
    out.set(head[1]!, { roles: head[2]!, methods: [...item.slice(head[0].length).matchAll(/`(\w+)`/g)].map((m) => m[1]!) });
  }
  return out;
}

describe('docs/roles.md', () => {
  it('lists every API method under exactly the access API_ACCESS gives it', () => {
    const doc = documented();
    const levels = Object.keys(ACCESS_ROLES) as ApiAccess[];
    expect([...doc.keys()].sort()).toEqual([...levels].sort());
    for (const level of levels) {
      const code = Object.entries(API_ACCESS).filter(([, a]) => a === level).map(([m]) => m).sort();
      expect(doc.get(level)!.methods.sort(), `the methods docs/roles.md lists under ${level}`).toEqual(code);
    }
  });

  it('names, for each access level, the roles it admits', () => {
    for (const [level, { roles }] of documented()) {
      const named = ['admin', 'reviewer', 'auditor'].filter((r) => new RegExp(`\\b${r}\\b`).test(roles));
      const admitted = ACCESS_ROLES[level as ApiAccess];
      if (roles.startsWith('every role')) expect(admitted).toEqual(['admin', 'reviewer', 'auditor']);
      else expect(named, `the roles docs/roles.md names for ${level}`).toEqual([...admitted]);
    }
  });
});
