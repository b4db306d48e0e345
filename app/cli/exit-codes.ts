/**
 * Exit codes of `mcp-approval-console`, the same for every command: 0 done (help and version
 * too), 1 failed, 2 a usage error (the message on stderr), 3 no console runs on the data folder
 * (`status`, `open`), as `systemctl status` and LSB init scripts use 3 for "not running".
 */
export const EXIT = { ok: 0, failure: 1, usage: 2, notRunning: 3 } as const;
