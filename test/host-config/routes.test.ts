/**
 * The routing methods over a temp user-data folder: a route is recorded (owner-only file) so it
 * can be undone after a restart; without a bridge launcher routing is refused and nothing is written.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../main/ports.js';
import { textDigest } from '../../main/host-config/route.js';
import { createHostRouting, ROUTES_FILE } from '../../main/host-config/routes.js';

const text = '{\n  "mcpServers": {\n    "notes": { "command": "uvx", "args": ["notes-mcp"] }\n  }\n}\n';
const launcher = { command: '/usr/bin/node', args: ['/opt/console/out/bridge/cli.js'] };

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'routes-'));
  const host = join(dir, 'claude_desktop_config.json');
  writeFileSync(host, text);
  return { dir, host };
}

describe('host routing methods', () => {
  it('route, list (also from a fresh start), undo', async () => {
    const { dir, host } = setup();
    const routing = createHostRouting({ dir, now: () => 5, logger: silentLogger, launcher });
    const route = await routing.routeServer({ path: host, format: 'claude-desktop', name: 'notes', seen: textDigest(text) });
    expect(route).toMatchObject({ path: host, name: 'notes', at: 5 });
    expect(JSON.parse(readFileSync(host, 'utf8')).mcpServers.notes.args).toEqual(['/opt/console/out/bridge/cli.js', 'bridge', '--', 'uvx', 'notes-mcp']);
    expect(statSync(join(dir, ROUTES_FILE)).mode & 0o777).toBe(0o600);
    const restarted = createHostRouting({ dir, now: () => 6, logger: silentLogger, launcher });
    expect((await restarted.listRoutes({})).routes).toEqual([route]);
    await restarted.unrouteServer({ id: route.id });
    expect(JSON.parse(readFileSync(host, 'utf8'))).toEqual(JSON.parse(text));
    expect((await restarted.listRoutes({})).routes).toEqual([]);
  });

  it('without a bridge launcher: refused, the host file untouched', async () => {
    const { dir, host } = setup();
    const routing = createHostRouting({ dir, now: () => 5, logger: silentLogger });
    await expect(routing.routeServer({ path: host, format: 'claude-desktop', name: 'notes' })).rejects.toMatchObject({ code: 'invalid_state' });
    expect(readFileSync(host, 'utf8')).toBe(text);
  });

  it("the URL form: the console's URL and token in a Cursor file, recorded and undone; refused while the console does not serve", async () => {
    const { dir } = setup();
    const host = join(dir, 'cursor-mcp.json');
    writeFileSync(host, text);
    const target = { base: 'http://127.0.0.1:47615', token: 't'.repeat(64), served: (name: string) => name === 'notes' };
    const off = createHostRouting({ dir, now: () => 5, logger: silentLogger, urlTarget: () => undefined });
    await expect(off.routeServer({ path: host, format: 'cursor', name: 'notes', how: 'url' })).rejects.toMatchObject({ code: 'invalid_state' });
    const routing = createHostRouting({ dir, now: () => 5, logger: silentLogger, urlTarget: () => target });
    const route = await routing.routeServer({ path: host, format: 'cursor', name: 'notes', how: 'url', seen: textDigest(text) });
    expect(JSON.parse(readFileSync(host, 'utf8')).mcpServers.notes).toEqual({ url: 'http://127.0.0.1:47615/mcp/notes', headers: { Authorization: `Bearer ${'t'.repeat(64)}` } });
    await routing.unrouteServer({ id: route.id });
    expect(JSON.parse(readFileSync(host, 'utf8'))).toEqual(JSON.parse(text));
  });
});
