/**
 * The gateway's setup around the calls: its port (a taken one falls back to a free one, said in a
 * notice), named tokens kept across restarts as hashes in gateway.json with the token in the
 * secret store, a hand-broken gateway.json reported and never written over, and the environment
 * a `providerGateway` server is launched with (and only that one).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gatewayEnv } from '../../main/console/gateway-side.js';
import { createConsole, type ConsoleHandle } from '../../main/console.js';
import { createMemorySecretStore } from '../../main/secrets/secret-store.js';
import { ApiError } from '../../shared/contract/api.js';
import { GATEWAY_FILE, gatewayTokenSecretName, openGatewayTokens } from '../../main/gateway/tokens.js';
import { tempDir } from '../store/fixtures/entries.js';

const open: ConsoleHandle[] = [];
const start = async (dir: string, env: Record<string, string>, secrets = createMemorySecretStore()) => {
  writeFileSync(join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: {} }));
  const h = await createConsole({ host: 'test', userDataDir: dir, env, secrets });
  open.push(h);
  return h;
};
afterEach(async () => {
  for (const h of open.splice(0)) await h.dispose();
});

describe('provider gateway setup', () => {
  it('a taken port: the gateway listens on a free one for this run and says so', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const h = await start(tempDir().dir, { MCP_CONSOLE_GATEWAY_PORT: String(taken) });
      const state = await h.service.getState({});
      expect(state.gateway).toMatchObject({ listening: true });
      expect(state.gateway!.url).not.toBe(`http://127.0.0.1:${taken}`);
      expect(state.notices.map((n) => n.message).join('\n')).toContain(`Port ${taken} is taken`);
    } finally {
      blocker.close();
    }
  });

  it('named tokens survive a restart: gateway.json keeps the name and hash, never the token; the secret store keeps the token', async () => {
    const { dir } = tempDir();
    const secrets = createMemorySecretStore();
    const first = await start(dir, { MCP_CONSOLE_GATEWAY_PORT: '0' }, secrets);
    const { token } = await first.service.createGatewayToken({ name: 'nightly' });
    await expect(first.service.createGatewayToken({ name: 'nightly' })).rejects.toThrow(/already exists/);
    await expect(first.service.createGatewayToken({ name: 'bad name!' })).rejects.toThrow(/token name/);
    const file = readFileSync(join(dir, GATEWAY_FILE), 'utf8');
    expect(file).toContain('"nightly"');
    expect(file).not.toContain(token);
    await first.dispose();
    open.splice(open.indexOf(first), 1);
    const second = await start(dir, { MCP_CONSOLE_GATEWAY_PORT: '0' }, secrets);
    expect((await second.service.getState({})).gateway!.tokens.map((t) => t.name)).toEqual(['nightly']);
    expect((await second.service.revealGatewayToken({ name: 'nightly' })).token).toBe(token);
  });

  it('a hand-broken gateway.json is reported and never written over', async () => {
    const { dir } = tempDir();
    writeFileSync(join(dir, GATEWAY_FILE), '{ "tokens": [ oops');
    const h = await start(dir, { MCP_CONSOLE_GATEWAY_PORT: '0' });
    expect((await h.service.getState({})).notices.map((n) => n.message).join('\n')).toContain('gateway.json');
    await expect(h.service.createGatewayToken({ name: 'x' })).rejects.toThrow();
    expect(readFileSync(join(dir, GATEWAY_FILE), 'utf8')).toBe('{ "tokens": [ oops');
  });

  it('a named token whose gateway.json write is refused (file broken by hand) is not left in the secret store', async () => {
    const { dir } = tempDir();
    const secrets = createMemorySecretStore();
    const tokens = openGatewayTokens(dir, secrets);
    writeFileSync(join(dir, GATEWAY_FILE), '{ "tokens": [ oops');
    await expect(tokens.create('nightly', 1000)).rejects.toMatchObject({ code: 'invalid_state' });
    expect(await secrets.get(gatewayTokenSecretName('nightly'))).toBeUndefined();
    expect(readFileSync(join(dir, GATEWAY_FILE), 'utf8')).toBe('{ "tokens": [ oops');
    expect(tokens.views()).toEqual([]);
  });

  it('a named token whose gateway.json cannot be written is not left in the secret store; the write error is kept', async () => {
    const { dir } = tempDir();
    writeFileSync(join(dir, GATEWAY_FILE), '{ "tokens": [] }\n');
    mkdirSync(join(dir, `${GATEWAY_FILE}.bak`, 'taken'), { recursive: true }); // the backup cannot be written (also for root)
    const secrets = createMemorySecretStore();
    const tokens = openGatewayTokens(dir, secrets);
    const err = await tokens.create('nightly', 1000).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: expect.stringMatching(/^E[A-Z]+$/) }); // the fs error itself, not a wrapper
    expect(err).not.toBeInstanceOf(ApiError);
    expect(await secrets.get(gatewayTokenSecretName('nightly'))).toBeUndefined();
    expect(tokens.views()).toEqual([]);
  });

  it('two tokens of one name asked for at once: one is made, the other refused, and the one made is the one stored', async () => {
    const { dir } = tempDir();
    const secrets = createMemorySecretStore();
    const tokens = openGatewayTokens(dir, secrets);
    const [a, b] = await Promise.allSettled([tokens.create('nightly', 1000), tokens.create('nightly', 1001)]);
    const made = [a, b].filter((r) => r.status === 'fulfilled');
    expect(made).toHaveLength(1);
    expect([a, b].find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'invalid_input' } });
    expect(tokens.views().map((v) => v.name)).toEqual(['nightly']);
    expect(await secrets.get(gatewayTokenSecretName('nightly'))).toBe((made[0] as PromiseFulfilledResult<string>).value);
  });

  it('the environment a providerGateway server gets: the SDKs’ base URLs and one key', () => {
    expect(gatewayEnv('http://127.0.0.1:5000', 'mcpgw_x')).toEqual({
      OPENAI_BASE_URL: 'http://127.0.0.1:5000/openai/v1',
      OPENAI_API_KEY: 'mcpgw_x',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:5000/anthropic',
      ANTHROPIC_API_KEY: 'mcpgw_x',
    });
  });
});
