/**
 * A tiny MCP server (v2 `@modelcontextprotocol/server`, stdio, 2025 push era) for the policy tests:
 *
 * - `flood {count, prompt?}`: sends `count` `sampling/createMessage` requests at once during one
 *   `tools/call` and reports, as one JSON line, how they ended: `{"results": n, "errors": {code: n}}`;
 * - `ask {prompt, maxTokens?, systemPrompt?}`: sends one request and reports `{"result"}` or `{"error"}`.
 *
 * Run: `node --import tsx test/policy/flood-server.ts`. Config for the console: {@link floodServerConfig}.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { McpServer, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const text = (value: Json): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });

const request = (prompt: string, maxTokens = 50, systemPrompt?: string): Json => ({
  messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
  maxTokens,
  ...(systemPrompt ? { systemPrompt } : {}),
});

async function send(ctx: ServerContext, params: Json): Promise<{ result: Json } | { error: { code: number | string; message: string } }> {
  try {
    const result = await ctx.mcpReq.send({ method: 'sampling/createMessage', params } as never, { signal: ctx.mcpReq.signal, timeout: 600_000 });
    return { result: result as Json };
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown };
    return { error: { code: typeof e.code === 'number' ? e.code : 'unknown', message: String(e.message ?? err) } };
  }
}

function createFloodServer(): McpServer {
  const server = new McpServer({ name: 'flood-fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool(
    'flood',
    { description: 'Sends `count` sampling requests at once and reports how they ended.', inputSchema: z.object({ count: z.number().int().min(1).max(5000), prompt: z.string().optional() }) },
    (async (args: { count: number; prompt?: string }, ctx: ServerContext) => {
      const outcomes = await Promise.all(Array.from({ length: args.count }, (_, i) => send(ctx, request(`${args.prompt ?? 'flood'} #${i}`))));
      const errors: Record<string, number> = {};
      const messages: Record<string, string> = {};
      let results = 0;
      for (const o of outcomes) {
        if ('result' in o) results++;
        else {
          errors[String(o.error.code)] = (errors[String(o.error.code)] ?? 0) + 1;
          messages[String(o.error.code)] ??= o.error.message;
        }
      }
      return text({ results, errors, messages });
    }) as never,
  );
  server.registerTool(
    'ask',
    {
      description: 'Sends one sampling request and reports the result or error.',
      inputSchema: z.object({ prompt: z.string(), maxTokens: z.number().int().positive().optional(), systemPrompt: z.string().optional() }),
    },
    (async (args: { prompt: string; maxTokens?: number; systemPrompt?: string }, ctx: ServerContext) => text(await send(ctx, request(args.prompt, args.maxTokens, args.systemPrompt)))) as never,
  );
  return server;
}

const FILE = fileURLToPath(import.meta.url);

/** The `mcpServers` entry that runs this fixture over stdio (pinned to the 2025 push era). */
export const floodServerConfig = () => ({
  command: process.execPath,
  args: ['--import', 'tsx', FILE],
  cwd: path.resolve(path.dirname(FILE), '../..'),
  protocol: 'legacy',
});

if (process.argv[1] && path.resolve(process.argv[1]) === FILE) {
  await createFloodServer().connect(new StdioServerTransport());
}
