/**
 * The Python interpreter of the project's test venv (.venv, pinned packages from
 * test/python/requirements.txt), prepared by the vitest global setup.
 * @throws Error saying why there is none (no Python ≥ 3.10 on this machine, pip failed)
 */
export function pythonForTests(): string {
  const python = process.env.MCP_TEST_PYTHON;
  if (python) return python;
  throw new Error(process.env.MCP_TEST_PYTHON_ERROR ?? 'The Python test venv was not prepared (vitest global setup did not run).');
}
