/**
 * Where other MCP hosts keep their server configs, per OS (home, platform and environment are
 * injected so tests can point them anywhere):
 *
 * | host | macOS | Windows | Linux |
 * | --- | --- | --- | --- |
 * | Claude Desktop | `~/Library/Application Support/Claude/claude_desktop_config.json` | `%APPDATA%\Claude\claude_desktop_config.json` | `$XDG_CONFIG_HOME/Claude/claude_desktop_config.json` (default `~/.config`) |
 * | VS Code (user) | `~/Library/Application Support/Code/User/mcp.json` | `%APPDATA%\Code\User\mcp.json` | `$XDG_CONFIG_HOME/Code/User/mcp.json` |
 * | VS Code (workspace) | `<folder>/.vscode/mcp.json` | same | same |
 * | Cursor | `~/.cursor/mcp.json` (and `<folder>/.cursor/mcp.json`) | same | same |
 * | Claude Code | `~/.claude.json` (user scope; and `<folder>/.mcp.json`) | same | same |
 * | Windsurf | `~/.codeium/windsurf/mcp_config.json` | same | same |
 */
import path from 'node:path';
import type { ImportFormat } from '../../../shared/contract/servers.js';
import { english, ui, type UiText, type UiTextCode } from '../../../shared/contract/ui-text.js';

/** The machine facts the locations depend on. */
export interface ImportEnvironment {
  home: string;
  platform: NodeJS.Platform;
  /** Environment variables (APPDATA, XDG_CONFIG_HOME; `${env:NAME}` in VS Code / Cursor files). */
  env: Record<string, string | undefined>;
}

/** A config file to look at. */
export interface ImportLocation {
  format: ImportFormat;
  /** In English; `labelUi` its message code when it has words to translate ("VS Code (user)"). */
  label: string;
  labelUi?: UiText;
  path: string;
  /** The folder `${workspaceFolder}` means for this file, when it belongs to one. */
  workspaceFolder?: string;
}

/**
 * The standard locations on this machine, plus the workspace files of `workspaceFolder` when given.
 * Paths use the separators of `env.platform`.
 */
export function standardLocations(env: ImportEnvironment, workspaceFolder?: string): ImportLocation[] {
  const p = env.platform === 'win32' ? path.win32 : path.posix;
  const appData = env.platform === 'win32' ? (env.env.APPDATA ?? p.join(env.home, 'AppData', 'Roaming')) : undefined;
  const configDir =
    env.platform === 'darwin' ? p.join(env.home, 'Library', 'Application Support') : (appData ?? env.env.XDG_CONFIG_HOME ?? p.join(env.home, '.config'));
  const list: ImportLocation[] = [
    { format: 'claude-desktop', label: 'Claude Desktop', path: p.join(configDir, 'Claude', 'claude_desktop_config.json') },
    { format: 'vscode', ...labelled('import.vscodeUser'), path: p.join(configDir, 'Code', 'User', 'mcp.json') },
    { format: 'cursor', label: 'Cursor', path: p.join(env.home, '.cursor', 'mcp.json') },
    { format: 'claude-code', label: 'Claude Code', path: p.join(env.home, '.claude.json') },
    { format: 'windsurf', label: 'Windsurf', path: p.join(env.home, '.codeium', 'windsurf', 'mcp_config.json') },
  ];
  if (workspaceFolder) {
    list.push(
      { format: 'vscode', ...labelled('import.vscodeWorkspace'), path: p.join(workspaceFolder, '.vscode', 'mcp.json'), workspaceFolder },
      { format: 'cursor', ...labelled('import.cursorProject'), path: p.join(workspaceFolder, '.cursor', 'mcp.json'), workspaceFolder },
      { format: 'claude-code', ...labelled('import.claudeCodeProject'), path: p.join(workspaceFolder, '.mcp.json'), workspaceFolder },
    );
  }
  return list;
}

/**
 * The format of a file the person picked by hand: VS Code files are named `mcp.json` under `.vscode`
 * or `Code/User`, or hold `servers`; Claude Desktop's is `claude_desktop_config.json`; Claude
 * Code's `.claude.json` or `.mcp.json`; Windsurf's `windsurf/mcp_config.json`; any other
 * `mcpServers` file is read like Cursor's (the same format).
 */
export function guessFormat(filePath: string, json: unknown): ImportFormat {
  const norm = filePath.replace(/\\/g, '/');
  if (/claude_desktop_config\.json$/.test(norm)) return 'claude-desktop';
  if (/(?:^|\/)\.claude\.json$|(?:^|\/)\.mcp\.json$/.test(norm)) return 'claude-code';
  if (/\/windsurf\/mcp_config\.json$/.test(norm)) return 'windsurf';
  if (/\/\.vscode\/mcp\.json$|\/Code\/User\/mcp\.json$/.test(norm)) return 'vscode';
  const obj = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  if ('servers' in obj && !('mcpServers' in obj)) return 'vscode';
  return 'cursor';
}

/** `{ label, labelUi }` of a location whose label has words to translate. */
function labelled(code: UiTextCode): { label: string; labelUi: UiText } {
  return { label: english(ui(code)), labelUi: ui(code) };
}
