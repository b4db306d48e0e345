/**
 * `mcp-approval-console audit verify` and `audit anchor`: the audit trail (main/audit) checked and
 * anchored from the command line, on the desktop's `audit.db`, a team's PostgreSQL
 * (`--database`, else `MCP_CONSOLE_DATABASE_URL`), or (verify only) a History JSONL export
 * (`--file`). Reads never write the trail. docs/audit.md says what the findings mean.
 */
import { join } from 'node:path';
import type { AuditVerifyReport } from '../../shared/contract/audit.js';
import { loadSigningKey, type AnchorFile } from '../../main/audit/anchor-files.js';
import { anchorsToCheck } from '../../main/audit/configured-anchors.js';
import { anchorNow, AuditTamperedError } from '../../main/audit/anchoring.js';
import { readAuditExport } from '../../main/audit/export.js';
import { connectPgAuditStore } from '../../main/audit/pg-store.js';
import { loadAuditSettings } from '../../main/audit/settings.js';
import { AUDIT_FILE, openSqliteAuditStore } from '../../main/audit/sqlite-store.js';
import type { AuditStore } from '../../main/audit/store.js';
import { verifyAuditChain, verifyAuditStore, type VerifyInput } from '../../main/audit/verify.js';
import { EXIT } from './exit-codes.js';

/** What the audit commands run with. */
export interface AuditCommandContext {
  /** The console's data folder (audit.db, audit-settings.json, the default signing key). */
  userDataDir: string;
  env: NodeJS.ProcessEnv;
  out(text: string): void;
  err(text: string): void;
  /** Clock in epoch ms (an anchor's time). */
  now?: () => number;
}

/** Where the trail is read from: `--database`, else the environment's team database, else audit.db (read-only). */
async function openStore(ctx: AuditCommandContext, database: string | undefined): Promise<AuditStore> {
  const url = database ?? (ctx.env.MCP_CONSOLE_DATABASE_URL?.trim() || undefined);
  if (url) return connectPgAuditStore(url);
  return openSqliteAuditStore(join(ctx.userDataDir, AUDIT_FILE), { readOnly: true });
}

/** Options of `audit verify`. */
export interface AuditVerifyOptions {
  json: boolean;
  /** A team database's URL (default: MCP_CONSOLE_DATABASE_URL). */
  database?: string;
  /** A History JSONL export to verify instead of a database. */
  file?: string;
  /** The anchor folder (default: the configured one, if any). */
  anchors?: string;
  /** Public keys (PEM) trusted to sign anchors (default: those in the anchor folder and the data folder's signing key). */
  publicKeys: readonly string[];
}

/** The anchors to check: the folder's files and trusted keys, or undefined when there is no folder. */
function anchorsFor(ctx: AuditCommandContext, opts: AuditVerifyOptions): VerifyInput['anchors'] | undefined {
  return anchorsToCheck({ userDataDir: ctx.userDataDir, env: ctx.env, ...(opts.anchors && { folder: opts.anchors }), publicKeys: opts.publicKeys });
}

/** A file's chain: its head line and records; anchors signed after the export are left out (the export cannot reach them). */
async function verifyFile(path: string, anchors: VerifyInput['anchors'] | undefined): Promise<AuditVerifyReport> {
  const file = await readAuditExport(path);
  if (file.count === 0) throw new Error(`${path} holds no audit trail (it is not a History JSONL export, or one made without it)`);
  const exportedAt = file.head?.exportedAt ?? Number.POSITIVE_INFINITY;
  const before = (f: AnchorFile) => !('anchor' in f) || f.anchor.at <= exportedAt;
  return verifyAuditChain({
    records: file.records(),
    ...(file.head && { storedHead: { before: { seq: file.head.seq, hash: file.head.hash } } }),
    ...(anchors && { anchors: { files: anchors.files.filter(before), trusted: anchors.trusted } }),
  });
}

/** The report for people: a summary line, then each finding. */
function reportText(report: AuditVerifyReport, where: string): string {
  const lines = [`${where}: ${report.records} records, ending at ${report.last.seq}; ${report.anchors.checked} anchors checked.`];
  if (report.anchors.newest) lines.push(`Newest anchor that holds: record ${report.anchors.newest.seq}, ${new Date(report.anchors.newest.at).toISOString()} (${report.anchors.newest.file}).`);
  if (report.anchors.checked === 0) lines.push('No anchors: removing the newest records, or rewriting the whole chain, cannot be detected without them (see docs/audit.md).');
  if (report.intact) lines.push('The audit trail is intact.');
  else for (const f of report.findings) lines.push(`TAMPERED: ${f.message}`);
  return `${lines.join('\n')}\n`;
}

/**
 * `audit verify`: walks the chain, checks it against its head and its anchors, and prints what it
 * found (the first record edited, inserted or removed).
 * @returns exit code: 0 intact, 1 a finding or the trail could not be read
 */
export async function auditVerifyCommand(ctx: AuditCommandContext, opts: AuditVerifyOptions): Promise<number> {
  let report: AuditVerifyReport;
  let where: string;
  try {
    const anchors = anchorsFor(ctx, opts);
    if (opts.file) {
      where = opts.file;
      report = await verifyFile(opts.file, anchors);
    } else {
      const store = await openStore(ctx, opts.database);
      where = store.where;
      try {
        report = await verifyAuditStore(store, anchors);
      } finally {
        await store.close();
      }
    }
  } catch (err) {
    ctx.err(`audit verify: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT.failure;
  }
  ctx.out(opts.json ? `${JSON.stringify(report, null, 2)}\n` : reportText(report, where));
  return report.intact ? EXIT.ok : EXIT.failure;
}

/** Options of `audit anchor`. */
export interface AuditAnchorOptions {
  json: boolean;
  database?: string;
  /** The anchor folder (default: the configured one). */
  to?: string;
  /** The signing key file (default: the configured one, made on first use when it is the data folder's). */
  key?: string;
}

/**
 * `audit anchor`: verifies the chain since the newest anchor in the folder and writes a signed
 * anchor of its head there.
 * @returns exit code: 0 written, 1 the chain does not verify (nothing written) or a failure,
 *   2 no anchor folder given or configured
 */
export async function auditAnchorCommand(ctx: AuditCommandContext, opts: AuditAnchorOptions): Promise<number> {
  const { settings } = loadAuditSettings(ctx.userDataDir, ctx.env);
  const folder = opts.to ?? settings.anchorFolder;
  if (!folder) {
    ctx.err('audit anchor: no anchor folder: give --to <folder>, or set anchorFolder in audit-settings.json or MCP_CONSOLE_AUDIT_ANCHORS\n');
    return EXIT.usage;
  }
  let store: AuditStore | undefined;
  try {
    const key = opts.key ? loadSigningKey(opts.key) : loadSigningKey(settings.signingKeyFile, { create: settings.defaultKey });
    store = await openStore(ctx, opts.database);
    const done = await anchorNow(store, { folder, key, now: (ctx.now ?? Date.now)() });
    ctx.out(opts.json ? `${JSON.stringify({ file: done.file, anchor: done.anchor }, null, 2)}\n` : `Anchored record ${done.head.seq} (${done.head.hash}) in ${done.file}\n`);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof AuditTamperedError) ctx.err(`audit anchor: ${reportText(err.report, store?.where ?? '')}`);
    else ctx.err(`audit anchor: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT.failure;
  } finally {
    await store?.close();
  }
}
