/** Small helpers for tests that start processes and wait on them. */

/** Whether a process with this pid runs (signal 0: nothing is sent). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Polls `ok` every 50 ms until it holds.
 * @throws Error "timed out waiting for <what>" after `ms` (default 30 s)
 */
export async function waitFor(what: string, ok: () => boolean, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
