/**
 * `npm run bench [-- --only NAME[,NAME…]] [-- --json FILE]`: runs every scenario module in
 * bench/scenarios/ (each default-exports a {@link Scenario}), one after another, and prints one
 * table of figures with units and targets, preceded by the machine's Node version, CPU and core
 * count. `--json FILE` also writes `{machine, results}` to FILE for comparison between commits
 * (each figure carries its stable `id`). Exit code 1 when a scenario threw (a sanity check failed)
 * or two figures share an id; a missed target is only reported.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { duplicateIds, formatTable, type Scenario, type ScenarioResult } from './figures.js';

const SCENARIO_DIR = path.join(import.meta.dirname, 'scenarios');

/** Parsed command line. @throws Error on an unknown flag or a flag without its value. */
function parseArgs(argv: readonly string[]): { json?: string; only?: string[] } {
  const out: { json?: string; only?: string[] } = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if ((flag === '--json' || flag === '--only') && (value === undefined || value.startsWith('--'))) {
      throw new Error(`${flag} needs a value`);
    }
    if (flag === '--json') out.json = value;
    else if (flag === '--only') out.only = value!.split(',');
    else throw new Error(`unknown argument ${flag}; usage: npm run bench -- [--only NAME,…] [--json FILE]`);
    i++;
  }
  return out;
}

/** Every scenario module in bench/scenarios, sorted by file name. */
async function loadScenarios(): Promise<Scenario[]> {
  const files = readdirSync(SCENARIO_DIR).filter((f) => /\.ts$/.test(f)).sort();
  const out: Scenario[] = [];
  for (const f of files) {
    const mod = (await import(pathToFileURL(path.join(SCENARIO_DIR, f)).href)) as { default?: Scenario };
    if (!mod.default || typeof mod.default.run !== 'function') throw new Error(`${f} has no default Scenario export`);
    out.push(mod.default);
  }
  return out;
}

function machine() {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpu: cpus[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGB: Math.round(os.totalmem() / 2 ** 30),
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const m = machine();
  console.log(`Node ${m.node} · ${m.platform} · ${m.cpu} · ${m.cores} cores · ${m.memoryGB} GB`);
  let scenarios = await loadScenarios();
  if (args.only) {
    const unknown = args.only.filter((n) => !scenarios.some((s) => s.name === n));
    if (unknown.length > 0) throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${scenarios.map((s) => s.name).join(', ')}`);
    scenarios = scenarios.filter((s) => args.only!.includes(s.name));
  }
  const results: ScenarioResult[] = [];
  for (const s of scenarios) {
    console.log(`\n▶ ${s.name}: ${s.description}`);
    const started = performance.now();
    try {
      const figures = await s.run();
      results.push({ scenario: s.name, description: s.description, durationMs: performance.now() - started, figures });
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      console.error(err);
      results.push({ scenario: s.name, description: s.description, durationMs: performance.now() - started, figures: [], error });
    }
    console.log(`  done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  console.log(`\n${formatTable(results)}`);
  const dup = duplicateIds(results);
  if (dup.length > 0) {
    console.error(`figure ids used twice: ${dup.join(', ')}`);
    process.exitCode = 1;
  }
  if (args.json) {
    writeFileSync(args.json, `${JSON.stringify({ machine: m, at: new Date().toISOString(), results }, null, 2)}\n`);
    console.log(`\nwrote ${args.json}`);
  }
  if (results.some((r) => r.error)) process.exitCode = 1;
}

await main();
