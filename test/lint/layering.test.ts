/**
 * The layering rules of `npm run lint` (.dependency-cruiser.cjs) catch what they promise, whatever
 * the import path's depth: a throwaway tree with one offending import per rule is cruised with the
 * project's own config, and each rule must report its file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult } from 'dependency-cruiser';

const require = createRequire(import.meta.url);
const config = require('../../.dependency-cruiser.cjs') as { forbidden: unknown[]; options: Record<string, unknown> };

const tree: Record<string, string> = {
  'shared/leaf.ts': 'export const a = 1;\n',
  'shared/uses-node.ts': "import { readFileSync } from 'node:fs';\nexport const b = readFileSync;\n",
  'shared/deep/uses-main.ts': "import type { X } from '../../main/service.js';\nexport type Y = X;\n",
  'main/service.ts': 'export interface X { x: number }\n',
  'main/deep/deeper/uses-renderer.ts': "import { view } from '../../../renderer/view.js';\nexport const c = view;\n",
  'renderer/view.ts': 'export const view = 1;\n',
  'renderer/a/b/c/uses-main.ts': "import type { X } from '../../../../main/service.js';\nexport type Z = X;\n",
  'main/cycle-a.ts': "import type { B } from './cycle-b.js';\nexport interface A { b?: B }\n",
  'main/cycle-b.ts': "import type { A } from './cycle-a.js';\nexport interface B { a?: A }\n",
};

let root = '';
let result: ICruiseResult;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'layering-'));
  for (const [file, text] of Object.entries(tree)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  const cwd = process.cwd();
  process.chdir(root);
  try {
    const { tsConfig: _ts, ...options } = config.options;
    const out = await cruise(['shared', 'main', 'renderer'], { ...options, validate: true, ruleSet: { forbidden: config.forbidden } } as never);
    result = out.output as ICruiseResult;
  } finally {
    process.chdir(cwd);
  }
}, 60_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

const violations = () => result.summary.violations.map((v) => `${v.rule.name}: ${v.from}`);

describe('layering rules', () => {
  it('shared/ may not import Node built-ins', () => {
    expect(violations()).toContain('shared-no-node: shared/uses-node.ts');
  });
  it('shared/ may not import main/, even type-only and from a deeper folder', () => {
    expect(violations()).toContain('shared-is-pure-types: shared/deep/uses-main.ts');
  });
  it('main/ may not import renderer/, at any depth', () => {
    expect(violations()).toContain('main-no-electron-ui: main/deep/deeper/uses-renderer.ts');
  });
  it('renderer/ may not import main/, at any depth', () => {
    expect(violations()).toContain('renderer-only-api: renderer/a/b/c/uses-main.ts');
  });
  it('type-only import cycles are errors', () => {
    expect(violations().some((v) => v.startsWith('no-cycles: main/cycle-'))).toBe(true);
  });
  it('a clean module is not reported', () => {
    expect(violations().some((v) => v.endsWith('shared/leaf.ts'))).toBe(false);
  });
});
