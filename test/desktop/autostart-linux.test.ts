import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { autostartPath, desktopEntry, linuxAutostartEnabled, quoteExecArg, setLinuxAutostart } from '../../main/settings/autostart-linux.js';

describe('XDG autostart entry', () => {
  it('lives in $XDG_CONFIG_HOME/autostart, else ~/.config/autostart (a relative XDG_CONFIG_HOME is ignored)', () => {
    expect(autostartPath({ XDG_CONFIG_HOME: '/cfg' }, '/home/a')).toBe('/cfg/autostart/mcp-approval-console.desktop');
    expect(autostartPath({}, '/home/a')).toBe('/home/a/.config/autostart/mcp-approval-console.desktop');
    expect(autostartPath({ XDG_CONFIG_HOME: 'rel' }, '/home/a')).toBe('/home/a/.config/autostart/mcp-approval-console.desktop');
  });

  it('quotes Exec arguments as the Desktop Entry Specification says', () => {
    expect(quoteExecArg('/usr/bin/app')).toBe('/usr/bin/app');
    expect(quoteExecArg('/opt/MCP Approval Console/app')).toBe('"/opt/MCP Approval Console/app"');
    expect(quoteExecArg('/tmp/a"b$c`d\\e')).toBe('"/tmp/a\\"b\\$c\\`d\\\\e"');
    expect(quoteExecArg('')).toBe('""');
  });

  it('writes an entry that runs the app, reports it enabled, and removes it again', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'autostart-')), 'autostart', 'mcp-approval-console.desktop');
    expect(linuxAutostartEnabled(path)).toBe(false);
    setLinuxAutostart(path, true, { name: 'MCP Approval Console', exec: ['/opt/MCP Approval Console/mcp-approval-console'] });
    const text = readFileSync(path, 'utf8');
    expect(text).toBe(desktopEntry('MCP Approval Console', ['/opt/MCP Approval Console/mcp-approval-console']));
    expect(text).toContain('Exec="/opt/MCP Approval Console/mcp-approval-console"\n');
    expect(text.startsWith('[Desktop Entry]\nType=Application\n')).toBe(true);
    expect(linuxAutostartEnabled(path)).toBe(true);
    setLinuxAutostart(path, false, { name: 'x', exec: [] });
    expect(existsSync(path)).toBe(false);
  });

  it('an entry hidden by the desktop environment counts as disabled', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'autostart-')), 'x.desktop');
    writeFileSync(path, '[Desktop Entry]\nHidden=true\n');
    expect(linuxAutostartEnabled(path)).toBe(false);
  });
});
