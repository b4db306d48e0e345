/**
 * Where the audit trail's anchors go, how often, and which key signs them: `audit-settings.json`
 * in the data folder (a person's file, main/user-file.ts: unknown fields kept and ignored, a broken
 * file reported and defaults used), each field overridable from the environment — what a team
 * server's operator sets:
 *
 * | file               | environment                        | default                              |
 * |--------------------|------------------------------------|--------------------------------------|
 * | `anchorFolder`     | `MCP_CONSOLE_AUDIT_ANCHORS`        | none: anchored only on demand        |
 * | `anchorEveryMinutes` | `MCP_CONSOLE_AUDIT_ANCHOR_MINUTES` | 60                                 |
 * | `signingKeyFile`   | `MCP_CONSOLE_AUDIT_KEY_FILE`       | `audit-signing-key.pem` in the data folder |
 *
 * Relative paths are taken from the data folder.
 */
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { readUserFile, type UserFileSpec } from '../user-file.js';
import { SIGNING_KEY_FILE } from './anchor-files.js';

/** File name inside the data folder. */
export const AUDIT_SETTINGS_FILE = 'audit-settings.json';

/** Default time between two scheduled anchors, in minutes. */
export const DEFAULT_ANCHOR_MINUTES = 60;

const FileSchema = z.object({
  anchorFolder: z.string().min(1).nullable().optional(),
  anchorEveryMinutes: z.number().min(1).max(10_080).optional(),
  signingKeyFile: z.string().min(1).optional(),
});

const spec: UserFileSpec<typeof FileSchema> = { label: AUDIT_SETTINGS_FILE, schema: FileSchema };

/** The audit settings in force. */
export interface AuditSettings {
  /** Absolute folder anchors are written to; undefined: none is configured (only `audit anchor --to`). */
  anchorFolder?: string;
  /** Time between two scheduled anchors, in ms. */
  anchorEveryMs: number;
  /** Absolute path of the signing key (made on first use when it is the default one). */
  signingKeyFile: string;
  /** Whether `signingKeyFile` is the default one in the data folder (then it is made when missing). */
  defaultKey: boolean;
}

/**
 * The settings for data folder `dir` under `env`. Never throws: a broken file or a bad number in
 * the environment gives the defaults for those fields and a `problem` (one readable line).
 */
export function loadAuditSettings(dir: string, env: Readonly<Record<string, string | undefined>>): { settings: AuditSettings; problem?: string } {
  const read = readUserFile(join(dir, AUDIT_SETTINGS_FILE), spec);
  const file = read.state === 'ok' ? read.value : {};
  const problems = read.state === 'broken' ? [...read.problems] : [];
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(dir, p));
  const folder = env.MCP_CONSOLE_AUDIT_ANCHORS?.trim() || file.anchorFolder || undefined;
  let minutes = file.anchorEveryMinutes ?? DEFAULT_ANCHOR_MINUTES;
  const fromEnv = env.MCP_CONSOLE_AUDIT_ANCHOR_MINUTES?.trim();
  if (fromEnv) {
    const n = Number(fromEnv);
    if (Number.isFinite(n) && n >= 1 && n <= 10_080) minutes = n;
    else problems.push(`MCP_CONSOLE_AUDIT_ANCHOR_MINUTES=${fromEnv} is not a number of minutes from 1 to 10080; using ${minutes}`);
  }
  const keyFile = env.MCP_CONSOLE_AUDIT_KEY_FILE?.trim() || file.signingKeyFile;
  const settings: AuditSettings = {
    ...(folder && { anchorFolder: abs(folder) }),
    anchorEveryMs: minutes * 60_000,
    signingKeyFile: keyFile ? abs(keyFile) : join(dir, SIGNING_KEY_FILE),
    defaultKey: !keyFile,
  };
  return problems.length > 0 ? { settings, problem: problems.join('; ') } : { settings };
}
