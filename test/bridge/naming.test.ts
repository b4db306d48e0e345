/**
 * A bridged server as the console names and shows it, through the real bridge command and
 * server-everything launched from its package file (`node …/server-everything/dist/index.js`, as
 * hosts' configs hold it): named after its package, not "index"; the rules written for "index"
 * still apply to it; its host is shown as soon as the host initialized, before the server asks
 * for anything.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { askConsole } from '../../main/bridge/control.js';
import { serverEverythingEntry } from '../../main/config.js';
import { startHarness, type Harness } from '../support/console-harness.js';
import { connectHost, HOST_INFO, tempUserData, textOf, type FakeHost } from './support.js';

describe('a bridged server launched from its package file', () => {
  let h: Harness | undefined;
  let host: FakeHost | undefined;
  afterEach(async () => {
    await host?.close();
    await h?.dispose();
    host = undefined;
    h = undefined;
  });

  it('is named after its package, shows its host once initialized, and keeps the rules written for its former name', async () => {
    const dir = tempUserData({});
    writeFileSync(path.join(dir, 'rules.json'), JSON.stringify({ version: 1, servers: { index: { defaultAction: { kind: 'reject', reason: 'written for index' } } } }));
    h = await startHarness({ dir });
    host = await connectHost({ dir, bridgeArgs: ['--', process.execPath, serverEverythingEntry(), 'stdio'] });

    // Nothing asked yet: the host is on the row from its initialize on.
    const shown = await h.waitFor((s) => s.bridged?.some((b) => b.serverId === 'server-everything' && b.via?.host === HOST_INFO.name) ?? false, 'server-everything with its host on the bridged row', 15_000);
    expect(shown.items).toEqual([]);
    expect(shown.bridged?.map((b) => b.serverId)).toEqual(['server-everything']);
    // `mcp-approval-console status` sees it the same way.
    expect((await askConsole(dir, 'status')).servers).toEqual([{ id: 'server-everything', source: 'bridge', status: 'connected', via: HOST_INFO.name }]);

    // The reject rule written for "index" answers, without a person; History keeps the new name.
    const result = await host.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'anyone?', maxTokens: 8 } });
    expect(textOf(result)).toMatch(/rejected/i);
    const history = await h.service.listHistory({ limit: 10, offset: 0 });
    expect(history.entries).toEqual([expect.objectContaining({ serverId: 'server-everything', decidedBy: 'rule', status: 'rejected' })]);
  }, 90_000);
});
