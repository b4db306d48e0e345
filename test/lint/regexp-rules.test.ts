/**
 * `npm run lint` refuses regular expressions that can backtrack super-linearly, in every folder:
 * the project's ESLint config, run on snippets, reports both rules as errors.
 */
import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const eslint = new ESLint({ cwd: root });

async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${file}` });
  return (result?.messages ?? []).filter((m) => m.severity === 2).map((m) => m.ruleId ?? '');
}

describe('regexp safety rules', () => {
  for (const file of ['shared/x.ts', 'main/x.ts', 'renderer/x.ts', 'test/x.test.ts']) {
    it(`${file}: super-linear backtracking and moves are errors`, async () => {
      expect(await ruleIds(file, "export const a = /^(a+)+$/.test('x');\n")).toContain('regexp/no-super-linear-backtracking');
      expect(await ruleIds(file, "export const b = 'x'.replace(/\\s+$/, '');\n")).toContain('regexp/no-super-linear-move');
      expect(await ruleIds(file, "export const c = 'x'.replace(/(?<!\\s)\\s+$/, '');\n")).toEqual([]);
    });
  }

  // The built-in detectors are literals, so the plugin's analysis (not a stopwatch) proves them
  // linear: the file as it is has no finding, and the e-mail pattern without the look-behind
  // that enters a run only at its start is one (quadratic on a long word with no "@").
  it('the built-in redaction detectors pass the analysis; without its run-start guard the e-mail detector does not', async () => {
    const source = readFileSync(`${root}shared/domain/sensitive-data.ts`, 'utf8');
    expect((await ruleIds('shared/domain/sensitive-data.ts', source)).filter((id) => id.startsWith('regexp/'))).toEqual([]);
    const email = "(?<![\\w.!#$%&'*+/=?^`{|}~-])[\\w.!#$%&'*+/=?^`{|}~-]+@";
    expect(source).toContain(email);
    const unguarded = source.replace(email, "[\\w.!#$%&'*+/=?^`{|}~-]+@");
    const found = await ruleIds('shared/domain/sensitive-data.ts', unguarded);
    expect(found.filter((id) => id === 'regexp/no-super-linear-move')).toHaveLength(1);
  });
});
