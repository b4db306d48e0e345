// Vitest global setup: makes the pinned Python venv (.venv) ready once per run, so specs that run
// Python MCP servers/clients or provider SDKs find it through `pythonForTests()`.
// @ts-expect-error -- plain ESM script without type declarations
import { ensurePythonVenv } from '../../scripts/python-venv.mjs';

/** Sets MCP_TEST_PYTHON (the venv interpreter) or MCP_TEST_PYTHON_ERROR (why there is none). */
export default function setup(): void {
  try {
    process.env.MCP_TEST_PYTHON = (ensurePythonVenv() as { python: string }).python;
  } catch (error) {
    process.env.MCP_TEST_PYTHON_ERROR = error instanceof Error ? error.message : String(error);
  }
}
