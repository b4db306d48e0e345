/**
 * What a benchmark scenario reports, and how the runner prints it. Figures are printed, never
 * asserted: machines are noisy. A scenario's own sanity checks (counts match, every request
 * answered) throw instead.
 */

/** A goal a figure is compared against: `value op target` should hold. */
export interface Target {
  op: '<=' | '>=';
  value: number;
}

/** One measured number. */
export interface Figure {
  /**
   * Stable id, `<area>.<what>_<unit>[_<size>]` (e.g. `p1.cpu_ms_per_request`), kept across commits so
   * `--json` files of two runs can be compared figure by figure; unique within a run.
   */
  id: string;
  /** What was measured, e.g. "full-text search p95". */
  name: string;
  value: number;
  /** Unit of `value` and of the target: "ms", "entries/s", "MB", … */
  unit: string;
  target?: Target;
  /**
   * Id of the figure of the same run this one is read against: its floor (the same work without
   * the console, e.g. `p1.floor_p50_ms` for `p1.console_p50_ms`) or its peer.
   */
  peer?: string;
  /** One line of context (sample size, what dominates). */
  note?: string;
}

/** A benchmark scenario: a module in bench/scenarios/ whose default export is one of these. */
export interface Scenario {
  /** Short id, used by `--only NAME` and in the table. */
  name: string;
  /** One line: what it measures and against what. */
  description: string;
  /** Runs the scenario and returns its figures. @throws when a sanity check fails. */
  run(): Promise<Figure[]>;
}

/** A scenario's result as the runner records it (and writes with `--json`). */
export interface ScenarioResult {
  scenario: string;
  description: string;
  /** Wall time of the whole scenario, in ms. */
  durationMs: number;
  figures: Figure[];
  /** Set when the scenario threw; `figures` is then empty. */
  error?: string;
  /** The machine's 1-minute load average when the scenario started and when it ended. */
  load?: [number, number];
}

/** The machine a run was made on, as `npm run bench` records it. */
export interface BenchMachine {
  /** `process.version`, e.g. "v22.23.0". */
  node: string;
  /** OS, release and architecture. */
  platform: string;
  /** The first CPU's model name. */
  cpu: string;
  cores: number;
  memoryGB: number;
}

/** A whole run, as `npm run bench -- --json FILE` writes it and `--from-json FILE` reads it. */
export interface BenchRun {
  machine: BenchMachine;
  /** When the run ended, ISO 8601. */
  at: string;
  results: ScenarioResult[];
}

/** Figure ids that occur more than once across `results` (a scenario bug: ids must be unique). */
export function duplicateIds(results: readonly ScenarioResult[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const f of results.flatMap((r) => r.figures)) (seen.has(f.id) ? dup : seen).add(f.id);
  return [...dup];
}

/** Whether a figure meets its target (undefined when it has none). */
export function meets(f: Figure): boolean | undefined {
  if (!f.target) return undefined;
  return f.target.op === '<=' ? f.value <= f.target.value : f.value >= f.target.value;
}

/** The `p`-th percentile (0..100) of `samples` by nearest rank; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

/** Rounds for display: 3 significant digits below 100, whole numbers above. */
export function formatValue(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Math.abs(v) >= 100) return Math.round(v).toLocaleString('en-US');
  return Number(v.toPrecision(3)).toString();
}

/** A plain-text table of every figure, one row each, with target and verdict columns. */
export function formatTable(results: readonly ScenarioResult[]): string {
  const rows: string[][] = [['id', 'figure', 'value', 'unit', 'target', '']];
  for (const r of results) {
    if (r.error) rows.push([r.scenario, `FAILED: ${r.error}`, '', '', '', '✗']);
    for (const f of r.figures) {
      const ok = meets(f);
      rows.push([
        f.id,
        f.note ? `${f.name} (${f.note})` : f.name,
        formatValue(f.value),
        f.unit,
        f.target ? `${f.target.op} ${formatValue(f.target.value)}` : '',
        ok === undefined ? '' : ok ? 'ok' : 'MISSED',
      ]);
    }
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  const line = (row: string[]) =>
    row.map((cell, c) => (c === 2 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  ').trimEnd();
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}
