/**
 * `npm run bench -- [--only NAME[,NAME…]] [--json FILE] [--report FILE] [--from-json FILE]`: runs
 * every scenario module in bench/scenarios/ (each default-exports a {@link Scenario}), one after
 * another, and prints one table of figures with units and targets, preceded by the machine's Node
 * version, CPU and core count. `--json FILE` also writes the run ({@link BenchRun}: machine, date,
 * results with each scenario's load average) for comparison between commits (each figure carries
 * its stable `id`); `--report FILE` writes the performance page rendered from it
 * (bench/report.ts). `--from-json FILE` runs nothing: it reads a saved run and prints it, or with
 * `--report` renders it. Exit code 1 when a scenario threw (a sanity check failed) or two figures
 * share an id, 2 on a usage error; a missed target is only reported.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { duplicateIds, formatTable, type BenchMachine, type BenchRun, type Scenario, type ScenarioResult } from './figures.js';
import { parseBenchArgs, USAGE, type BenchArgs } from './args.js';
import { renderReport } from './report.js';

const SCENARIO_DIR = path.join(import.meta.dirname, 'scenarios');

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

function machine(): BenchMachine {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpu: cpus[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGB: Math.round(os.totalmem() / 2 ** 30),
  };
}

/** The 1-minute load average now. */
const load1 = (): number => os.loadavg()[0]!;

/** Runs `scenarios` one after another; a scenario that throws is recorded with its error. */
async function runScenarios(scenarios: readonly Scenario[]): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const s of scenarios) {
    console.log(`\n▶ ${s.name}: ${s.description}`);
    const started = performance.now();
    const loadAtStart = load1();
    let figures: ScenarioResult['figures'] = [];
    let error: string | undefined;
    try {
      figures = await s.run();
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
      console.error(err);
    }
    const durationMs = performance.now() - started;
    results.push({ scenario: s.name, description: s.description, durationMs, figures, ...(error !== undefined && { error }), load: [loadAtStart, load1()] });
    console.log(`  done in ${(durationMs / 1000).toFixed(1)} s`);
  }
  return results;
}

/** The scenarios `only` names (all when undefined). @throws Error naming an unknown scenario. */
async function selectScenarios(only: readonly string[] | undefined): Promise<Scenario[]> {
  const scenarios = await loadScenarios();
  if (!only) return scenarios;
  const unknown = only.filter((n) => !scenarios.some((s) => s.name === n));
  if (unknown.length > 0) throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${scenarios.map((s) => s.name).join(', ')}`);
  return scenarios.filter((s) => only.includes(s.name));
}

/** The run a `--json` file holds. @throws Error when the file is not one. */
function readRun(file: string): BenchRun {
  const run = JSON.parse(readFileSync(file, 'utf8')) as Partial<BenchRun>;
  if (!run.machine || typeof run.at !== 'string' || !Array.isArray(run.results)) throw new Error(`${file} is not a bench run (--json output)`);
  return run as BenchRun;
}

async function main(): Promise<void> {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (args.help) {
    console.log(USAGE);
    return;
  }
  let run: BenchRun;
  if (args.fromJson) {
    run = readRun(args.fromJson);
  } else {
    const m = machine();
    console.log(`Node ${m.node} · ${m.platform} · ${m.cpu} · ${m.cores} cores · ${m.memoryGB} GB`);
    const results = await runScenarios(await selectScenarios(args.only));
    run = { machine: m, at: new Date().toISOString(), results };
  }
  console.log(`\n${formatTable(run.results)}`);
  const dup = duplicateIds(run.results);
  if (dup.length > 0) {
    console.error(`figure ids used twice: ${dup.join(', ')}`);
    process.exitCode = 1;
  }
  if (args.json) {
    writeFileSync(args.json, `${JSON.stringify(run, null, 2)}\n`);
    console.log(`\nwrote ${args.json}`);
  }
  if (args.report) {
    writeFileSync(args.report, renderReport(run));
    console.log(`wrote ${args.report}`);
  }
  if (run.results.some((r) => r.error)) process.exitCode = 1;
}

await main();
