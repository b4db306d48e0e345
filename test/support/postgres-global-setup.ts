// Vitest global setup: the shared PostgreSQL cluster of a test run (test/support/postgres.ts).
// Nothing starts unless a test file asks: a small loopback broker starts the cluster on the first
// ask and tells every later one where it runs; the teardown stops it and removes its folder.
import { createServer, type Server } from 'node:http';
import { BROKER_ENV, startPostgres, type PostgresCluster } from './postgres.js';

let server: Server | undefined;
let cluster: Promise<PostgresCluster> | undefined;

/** Starts the broker and sets MCP_TEST_POSTGRES_BROKER for the test files. */
export default async function setup(): Promise<() => Promise<void>> {
  server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/cluster') {
      res.writeHead(404).end();
      return;
    }
    cluster ??= startPostgres();
    cluster.then(
      (c) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ host: c.host, port: c.port, user: c.user, url: c.url() })),
      (err: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ error: err instanceof Error ? err.message : String(err) })),
    );
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  process.env[BROKER_ENV] = `http://127.0.0.1:${port}`;
  return async () => {
    server?.close();
    const started = await cluster?.catch(() => undefined);
    await started?.destroy();
  };
}
