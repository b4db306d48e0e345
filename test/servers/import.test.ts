/**
 * Import from Claude Desktop, Claude Code, Windsurf, VS Code and Cursor with sample config files of each format
 * (test/servers/fixtures): standard locations per OS, what the preview shows (new / duplicate /
 * invalid with reasons, `${input:…}` asked for, other variables resolved or refused), and the
 * import itself through the manager (selected only, never duplicated, the file's other content kept).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonc } from '../../main/servers/import/jsonc.js';
import { standardLocations } from '../../main/servers/import/locations.js';
import { planImport, scanImports, type ImportDeps } from '../../main/servers/import/scan.js';
import { startManager } from './support.js';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');

describe('standard locations', () => {
  it('per OS, with injected home and environment', () => {
    const mac = standardLocations({ home: '/Users/ana', platform: 'darwin', env: {} }, '/Users/ana/proj');
    expect(mac.map((l) => l.path)).toEqual([
      '/Users/ana/Library/Application Support/Claude/claude_desktop_config.json',
      '/Users/ana/Library/Application Support/Code/User/mcp.json',
      '/Users/ana/.cursor/mcp.json',
      '/Users/ana/.claude.json',
      '/Users/ana/.codeium/windsurf/mcp_config.json',
      '/Users/ana/proj/.vscode/mcp.json',
      '/Users/ana/proj/.cursor/mcp.json',
      '/Users/ana/proj/.mcp.json',
    ]);
    const win = standardLocations({ home: 'C:\\Users\\ana', platform: 'win32', env: { APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' } });
    expect(win.map((l) => l.path)).toEqual([
      'C:\\Users\\ana\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
      'C:\\Users\\ana\\AppData\\Roaming\\Code\\User\\mcp.json',
      'C:\\Users\\ana\\.cursor\\mcp.json',
      'C:\\Users\\ana\\.claude.json',
      'C:\\Users\\ana\\.codeium\\windsurf\\mcp_config.json',
    ]);
    const linux = standardLocations({ home: '/home/ana', platform: 'linux', env: { XDG_CONFIG_HOME: '/home/ana/.xdg' } });
    expect(linux[0]!.path).toBe('/home/ana/.xdg/Claude/claude_desktop_config.json');
    expect(linux[1]!.path).toBe('/home/ana/.xdg/Code/User/mcp.json');
  });
});

describe('JSONC', () => {
  it('drops comments and trailing commas but not inside strings', () => {
    expect(parseJsonc('{ "a": "x // y, ]", /* c */ "b": [1, 2,], // end\n }')).toEqual({ a: 'x // y, ]', b: [1, 2] });
  });
});

/** Files at the macOS locations, read through an injected reader. */
function macDeps(existing: Record<string, unknown>): ImportDeps {
  const files: Record<string, string> = {
    '/Users/ana/Library/Application Support/Claude/claude_desktop_config.json': fixture('claude_desktop_config.json'),
    '/Users/ana/proj/.vscode/mcp.json': fixture('vscode-mcp.json'),
    '/Users/ana/.cursor/mcp.json': fixture('cursor-mcp.json'),
    '/Users/ana/.claude.json': fixture('claude-code.json'),
    '/Users/ana/.codeium/windsurf/mcp_config.json': fixture('windsurf-mcp_config.json'),
  };
  return {
    env: { home: '/Users/ana', platform: 'darwin', env: { TOOL_BIN: '/usr/local/bin/tool' } },
    existing: () => existing,
    readFile: (p) => files[p],
  };
}

const EXISTING = {
  everything: { command: 'node', args: ['/elsewhere/index.js', 'stdio'] },
  'remote-docs': { url: 'https://mcp.example.com/mcp' },
};

describe('scan (the preview)', () => {
  const scan = scanImports({ workspaceFolder: '/Users/ana/proj' }, macDeps(EXISTING));
  const source = (label: string) => scan.sources.find((s) => s.label === label)!;
  const cand = (label: string, name: string) => source(label).candidates.find((c) => c.name === name)!;

  it('finds the files that exist and says which do not', () => {
    expect(scan.sources.map((s) => [s.label, s.found])).toEqual([
      ['Claude Desktop', true],
      ['VS Code (user)', false],
      ['Cursor', true],
      ['Claude Code', true],
      ['Windsurf', true],
      ['VS Code (workspace)', true],
      ['Cursor (project)', false],
      ['Claude Code (project)', false],
    ]);
  });

  it('Claude Desktop: new, duplicate by name, invalid; strings taken literally; secrets masked', () => {
    expect(source('Claude Desktop').candidates.map((c) => [c.name, c.status])).toEqual([
      ['filesystem', 'new'],
      ['github', 'new'],
      ['everything', 'duplicate'],
      ['literal', 'new'],
      ['broken', 'invalid'],
    ]);
    expect(cand('Claude Desktop', 'everything').reason).toBe('a server with this name is already configured');
    expect(cand('Claude Desktop', 'broken').reason).toMatch(/neither "command" nor "url"/);
    expect(cand('Claude Desktop', 'literal').target).toBe('echo ${not-expanded-by-claude}');
    expect(cand('Claude Desktop', 'github').maskedKeys).toEqual(['env.GITHUB_PERSONAL_ACCESS_TOKEN']);
    expect(JSON.stringify(scan)).not.toContain('ghp_example');
  });

  it('VS Code: ${input:…} is asked for (password flagged), other variables resolved or refused', () => {
    const perplexity = cand('VS Code (workspace)', 'perplexity');
    expect(perplexity.status).toBe('new');
    expect(perplexity.inputs).toEqual([{ id: 'perplexity-key', description: 'Perplexity API Key', password: true, key: '/Users/ana/proj/.vscode/mcp.json::perplexity-key' }]);
    expect(cand('VS Code (workspace)', 'remote')).toMatchObject({ status: 'new', transport: 'http', inputs: [{ id: 'region', password: false }] });
    expect(cand('VS Code (workspace)', 'legacy-sse')).toMatchObject({ status: 'new', transport: 'sse' });
    expect(cand('VS Code (workspace)', 'home-tool')).toMatchObject({ status: 'new', target: '/Users/ana/bin/tool' });
    expect(cand('VS Code (workspace)', 'home-tool').warnings[0]).toMatch(/envFile/);
    expect(cand('VS Code (workspace)', 'needs-config')).toMatchObject({ status: 'invalid', unresolved: ['${config:editor.fontSize}'] });
  });

  it('Cursor: same command line or URL as an existing or earlier entry is a duplicate; ${env:…} resolved or refused', () => {
    expect(cand('Cursor', 'filesystem-copy')).toMatchObject({ status: 'duplicate', reason: 'same command line as "filesystem"' });
    expect(cand('Cursor', 'web')).toMatchObject({ status: 'duplicate', reason: 'same URL as "remote-docs"' });
    expect(cand('Cursor', 'env-user')).toMatchObject({ status: 'new', target: '/usr/local/bin/tool serve' });
    expect(cand('Cursor', 'env-missing')).toMatchObject({ status: 'invalid', reason: 'uses ${env:NOT_SET_ANYWHERE}, which cannot be resolved here' });
  });

  it('Claude Code: ${VAR} and ${VAR:-default} from the environment; an unset one without a default is refused', () => {
    expect(cand('Claude Code', 'notes')).toMatchObject({ status: 'new', transport: 'stdio', target: '/usr/local/bin/tool notes --db /tmp/notes.db' });
    expect(cand('Claude Code', 'remote')).toMatchObject({ status: 'invalid', unresolved: ['${CC_TOKEN}'] });
  });

  it('Windsurf: a remote server named by serverUrl; ${env:…} resolved', () => {
    expect(cand('Windsurf', 'docs')).toMatchObject({ status: 'new', transport: 'http', target: 'https://windsurf.example.com/mcp' });
    expect(cand('Windsurf', 'local')).toMatchObject({ status: 'new', target: '/usr/local/bin/tool serve --port 7' });
  });
});

describe('planImport', () => {
  it('imports only picks that are new and complete; inputs substituted; others skipped with a reason', () => {
    const vscode = '/Users/ana/proj/.vscode/mcp.json';
    const plan = planImport(
      { workspaceFolder: '/Users/ana/proj' },
      [
        { path: vscode, name: 'perplexity' },
        { path: vscode, name: 'remote' },
        { path: '/Users/ana/.cursor/mcp.json', name: 'env-missing' },
      ],
      { [`${vscode}::perplexity-key`]: 'pplx-secret' },
      macDeps(EXISTING),
    );
    expect(plan.add).toEqual([['perplexity', { command: 'npx', args: ['-y', 'server-perplexity-ask'], env: { PERPLEXITY_API_KEY: 'pplx-secret' }, cwd: '/Users/ana/proj' }]]);
    expect(plan.skipped.map(({ name, reason }) => ({ name, reason }))).toEqual([
      { name: 'remote', reason: 'needs a value for ${input:region}' },
      { name: 'env-missing', reason: 'uses ${env:NOT_SET_ANYWHERE}, which cannot be resolved here' },
    ]);
  });
});

describe('import into mcp-servers.json (Linux locations on disk)', () => {
  it('writes the selected entries once, keeps everything else, and a second import skips them', async () => {
    const original = { theme: 'dark', mcpServers: { everything: { command: 'node', args: ['/x.js'], autoApprove: ['echo'] } } };
    const f = await startManager(JSON.stringify(original, null, 2));
    const home = join(f.dir, 'home');
    mkdirSync(join(home, '.config', 'Claude'), { recursive: true });
    writeFileSync(join(home, '.config', 'Claude', 'claude_desktop_config.json'), fixture('claude_desktop_config.json'));
    const deps: ImportDeps = { env: { home, platform: 'linux', env: {} }, existing: () => f.manager.fileEntries() };
    const claude = join(home, '.config', 'Claude', 'claude_desktop_config.json');
    const picks = ['filesystem', 'github', 'everything'].map((name) => ({ path: claude, name }));

    const first = planImport({}, picks, {}, deps);
    f.manager.addEntries(first.add);
    expect(first.skipped).toEqual([{ name: 'everything', reason: 'a server with this name is already configured', reasonUi: { code: 'import.nameConfigured' } }]);
    const written = JSON.parse(readFileSync(f.path, 'utf8'));
    expect(written.theme).toBe('dark');
    expect(Object.keys(written.mcpServers)).toEqual(['everything', 'filesystem', 'github']);
    expect(written.mcpServers.everything).toEqual(original.mcpServers.everything);
    expect(written.mcpServers.github.env).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_exampleexampleexample' });
    expect(f.live('filesystem')?.connects).toBe(1);
    expect(f.live('everything')?.n).toBe(1); // untouched: not reconnected

    const again = planImport({}, picks, {}, deps);
    expect(again.add).toEqual([]);
    expect(again.skipped.map((s) => s.name)).toEqual(['filesystem', 'github', 'everything']);
    const scan = scanImports({}, deps);
    expect(scan.sources[0]!.candidates.find((c) => c.name === 'filesystem')!.status).toBe('duplicate');
    await f.manager.dispose();
  });
});
