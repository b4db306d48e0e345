/** The bench's command line (`npm run bench -- …`), parsed with Node's `util.parseArgs`. */
import { parseArgs } from 'node:util';

/** The bench's usage text (`--help`, usage errors). */
export const USAGE = `usage: npm run bench -- [--only NAME[,NAME…]] [--json FILE] [--report FILE]
       npm run bench -- --from-json FILE [--report FILE]

  --only NAMES      run only these scenarios (comma-separated)
  --json FILE       also write the run's figures as JSON
  --report FILE     also write the performance page (Markdown) rendered from the run
  --from-json FILE  run nothing: read a run --json wrote (print it, or render it with --report)
  -h, --help        show this help`;

/** The command line. */
export interface BenchArgs {
  only?: string[];
  json?: string;
  report?: string;
  fromJson?: string;
  help: boolean;
}

/**
 * Parses the command line with Node's `util.parseArgs`.
 * @throws TypeError (code `ERR_PARSE_ARGS_*`) on an unknown option, a missing value or a positional;
 *   Error when `--from-json` is combined with `--only` or `--json`.
 */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      only: { type: 'string' },
      json: { type: 'string' },
      report: { type: 'string' },
      'from-json': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const fromJson = values['from-json'];
  if (fromJson !== undefined && (values.only !== undefined || values.json !== undefined)) {
    throw new Error('--from-json runs nothing: it takes only --report');
  }
  return {
    ...(values.only !== undefined && { only: values.only.split(',').filter(Boolean) }),
    ...(values.json !== undefined && { json: values.json }),
    ...(values.report !== undefined && { report: values.report }),
    ...(fromJson !== undefined && { fromJson }),
    help: values.help,
  };
}
