/**
 * The console's structured log sink, in a module of its own so that what `ConsolePorts` refers to
 * (the team's database, the history stores) can log without importing the ports (main/ports.ts
 * re-exports all of it).
 */

/** Structured log sink. Implementations must never receive secrets (API keys are never logged). */
export interface Logger {
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/** A logger that drops everything. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/** A logger that writes one JSON line per entry to stderr. */
export const stderrLogger: Logger = {
  info: (message, data) => process.stderr.write(`${JSON.stringify({ level: 'info', message, ...data })}\n`),
  warn: (message, data) => process.stderr.write(`${JSON.stringify({ level: 'warn', message, ...data })}\n`),
  error: (message, data) => process.stderr.write(`${JSON.stringify({ level: 'error', message, ...data })}\n`),
};
