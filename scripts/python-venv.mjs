#!/usr/bin/env node
// Creates (or reuses) the project's Python virtual environment in `.venv` with the pinned packages
// of test/python/requirements.txt: the Python MCP servers/clients and provider SDKs the
// integration tests talk to. Idempotent: a stamp file holds the hash of the requirements, so an
// unchanged environment costs one file read. Prints the interpreter's path on success.
//
// Usage: node scripts/python-venv.mjs          (exit 1 with one clear line when Python 3 is missing)
// As a module: `ensurePythonVenv()` → { python } or throws Error with the reason.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const venv = join(root, '.venv');
const requirements = join(root, 'test', 'python', 'requirements.txt');
const stampFile = join(venv, '.requirements-sha256');

/** The venv's interpreter path for this OS. */
export function venvPython() {
  return process.platform === 'win32' ? join(venv, 'Scripts', 'python.exe') : join(venv, 'bin', 'python');
}

function findSystemPython() {
  const names = process.env.PYTHON ? [process.env.PYTHON] : process.platform === 'win32' ? ['py', 'python'] : ['python3', 'python'];
  for (const name of names) {
    try {
      const out = execFileSync(name, ['-c', 'import sys; print(sys.version_info >= (3, 10))'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      if (out.trim() === 'True') return name;
    } catch {
      /* try the next name */
    }
  }
  return null;
}

/**
 * Makes sure `.venv` exists with the pinned requirements installed.
 * @returns {{ python: string }} the venv interpreter's absolute path
 * @throws Error when no Python ≥ 3.10 is found or pip fails (message says what to do)
 */
export function ensurePythonVenv() {
  const wanted = createHash('sha256').update(readFileSync(requirements)).digest('hex');
  const python = venvPython();
  if (existsSync(python) && existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === wanted) {
    return { python };
  }
  if (!existsSync(python)) {
    const system = findSystemPython();
    if (!system) throw new Error('Python 3.10 or newer is needed for the Python MCP peers in the tests: install it (or set PYTHON to its path) and run the tests again.');
    execFileSync(system, ['-m', 'venv', venv], { stdio: 'inherit' });
  }
  // PIP_RETRIES=0: a machine with a local package mirror only must not wait minutes on the default index.
  execFileSync(python, ['-m', 'pip', 'install', '--disable-pip-version-check', '-q', '-r', requirements], {
    stdio: 'inherit',
    env: { ...process.env, PIP_RETRIES: process.env.PIP_RETRIES ?? '0' },
  });
  writeFileSync(stampFile, wanted);
  return { python };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(ensurePythonVenv().python);
  } catch (error) {
    console.error(String(error instanceof Error ? error.message : error));
    process.exit(1);
  }
}
