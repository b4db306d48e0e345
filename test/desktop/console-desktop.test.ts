/**
 * Desktop life wired into createConsole: the desktop and attention slices, the two API methods,
 * the tray's menu acting on the policy and the settings, and a real sampling request from
 * server-everything turning into one native notification (through recording ports).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsole, type ConsoleHandle } from '../../main/console.js';
import type { ConsoleState } from '../../shared/contract/state.js';
import { everythingStdio } from '../support/console-harness.js';
import { recordingPorts } from './helpers.js';

let handle: ConsoleHandle | null = null;
afterEach(async () => {
  await handle?.dispose();
  handle = null;
});

async function start(servers: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'console-desktop-'));
  writeFileSync(join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: servers }));
  const rec = recordingPorts();
  rec.ports.notices = ['No Node.js was found on this computer.'];
  handle = await createConsole({ host: 'test', userDataDir: dir, nodeRuntime: { command: process.execPath }, env: {}, desktop: rec.ports });
  const service = handle.service;
  const waitFor = async (pred: (s: ConsoleState) => boolean, what: string, ms = 20_000) => {
    const until = Date.now() + ms;
    for (;;) {
      const s = await service.getState({});
      if (pred(s)) return s;
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return { dir, rec, service, waitFor };
}

describe('desktop life in createConsole', () => {
  it('publishes the slices, saves settings, sends the test notification, and runs the tray menu', async () => {
    const t = await start({});
    const first = await t.waitFor((s) => !!s.desktop && !!s.attention, 'desktop slices');
    expect(first.desktop).toMatchObject({ supports: { nativeNotifications: true, tray: true, badge: true, launchAtLogin: true }, settings: { theme: 'system' } });
    expect(first.attention).toMatchObject({ count: 0, notifications: [] });
    expect(first.notices.map((n) => n.message)).toContain('No Node.js was found on this computer.');
    expect(t.rec.trays.at(-1)?.tooltip).toBe('MCP Approval Console — nothing waiting');

    expect(await t.service.setDesktopSettings({ theme: 'dark', sound: true })).toMatchObject({ theme: 'dark', sound: true, notifications: true });
    expect(JSON.parse(readFileSync(join(t.dir, 'desktop-settings.json'), 'utf8'))).toMatchObject({ theme: 'dark', sound: true });
    expect(t.rec.themes.at(-1)).toBe('dark');
    await t.waitFor((s) => s.desktop?.settings.theme === 'dark', 'the theme in state');

    await t.service.sendTestNotification({});
    expect(t.rec.shown.map((s) => s.request.title)).toEqual(['Notifications work']);
    expect(t.rec.shown[0]?.request.silent).toBe(false);

    t.rec.clickTray('do-not-disturb');
    await t.waitFor((s) => s.attention?.doNotDisturb === true, 'DND from the tray');
    expect(JSON.parse(readFileSync(join(t.dir, 'desktop-settings.json'), 'utf8'))).toMatchObject({ doNotDisturb: true });
    t.rec.clickTray('pause-auto-approval');
    await t.waitFor((s) => s.policy?.rules.paused === true, 'auto-approval paused from the tray');
    await t.waitFor(() => t.rec.trays.at(-1)?.menu.some((m) => m.kind === 'checkbox' && m.id === 'pause-auto-approval' && m.checked) === true, 'the tray checkbox');
  });

  it('a sampling request from server-everything gives one notification naming server, tool and prompt; the badge follows', async () => {
    const t = await start({ everything: everythingStdio() });
    await t.waitFor((s) => s.servers[0]?.status === 'ready' && s.servers[0].tools.some((x) => x.name === 'trigger-sampling-request'), 'server-everything ready');
    await t.service.callTool({ serverId: 'everything', name: 'trigger-sampling-request', arguments: { prompt: 'Name three rivers', maxTokens: 50 } });
    const s = await t.waitFor((st) => (st.attention?.count ?? 0) === 1, 'one waiting item');
    const item = s.items[0]!;
    expect(t.rec.shown).toHaveLength(1);
    expect(t.rec.shown[0]!.request).toMatchObject({ title: 'everything asks for a completion', itemId: item.id, silent: true });
    expect(t.rec.shown[0]!.request.body).toMatch(/^trigger-sampling-request: .*Name three rivers/);
    expect(t.rec.badges.at(-1)).toBe(1);

    t.rec.shown[0]!.review();
    expect(t.rec.focused).toBe(1);
    await t.waitFor((st) => st.attention?.focus?.itemId === item.id, 'the focus request');

    await t.service.rejectRequest({ itemId: item.id, version: (await t.service.getItem({ id: item.id })).item.contentVersion! });
    await t.waitFor((st) => st.attention?.count === 0, 'nothing waiting after the rejection');
    expect(t.rec.badges.at(-1)).toBe(0);
    expect(t.rec.shown).toHaveLength(1);
  });
});
