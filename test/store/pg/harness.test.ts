/**
 * The PostgreSQL test harness itself: a throw-away cluster starts, restarts, survives a SIGKILL and
 * goes away — also when the process that started it dies without stopping it.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { adminQuery, startPostgres, testDatabase, type PostgresCluster } from '../../support/postgres.js';

describe('PostgreSQL test harness', () => {
  let own: PostgresCluster | undefined;
  afterAll(async () => own?.destroy());

  it('gives each caller a fresh database in the shared cluster, with unaccent available', async () => {
    const a = await testDatabase();
    const b = await testDatabase();
    try {
      expect(a.url).not.toBe(b.url);
      await adminQuery(a.url, 'CREATE EXTENSION IF NOT EXISTS unaccent');
      expect((await adminQuery(a.url, "SELECT unaccent('Crème Brûlée') AS t")).rows[0].t).toBe('Creme Brulee');
      await adminQuery(a.url, 'CREATE TABLE only_here (x int)');
      await expect(adminQuery(b.url, 'SELECT * FROM only_here')).rejects.toThrow(/does not exist/);
    } finally {
      await a.drop();
      await b.drop();
    }
  });

  it('starts a cluster of its own that can be restarted, killed and started again, keeping its data', async () => {
    own = await startPostgres();
    await adminQuery(own.url(), 'CREATE TABLE kept (x int)');
    await adminQuery(own.url(), 'INSERT INTO kept VALUES (1)');
    await own.restart();
    expect((await adminQuery(own.url(), 'SELECT count(*)::int AS n FROM kept')).rows[0].n).toBe(1);
    await adminQuery(own.url(), 'INSERT INTO kept VALUES (2)');
    await own.kill();
    await expect(adminQuery(own.url(), 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
    await own.start();
    expect((await adminQuery(own.url(), 'SELECT count(*)::int AS n FROM kept')).rows[0].n).toBe(2); // committed before the kill
    const dir = own.dataDir;
    await own.destroy();
    expect(existsSync(dir)).toBe(false);
    own = undefined;
  }, 120_000);

  it('leaves no PostgreSQL running when the process that started it is killed', async () => {
    const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
    const script = "import { startPostgres } from './test/support/postgres.ts'; const c = await startPostgres(); console.log(JSON.stringify({ url: c.url(), dir: c.dataDir })); setInterval(() => {}, 60_000);";
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    const started = await new Promise<{ url: string; dir: string }>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(JSON.parse(out) as { url: string; dir: string });
      });
      child.once('exit', (code) => reject(new Error(`exited ${code} before the cluster started`)));
    });
    await expect(adminQuery(started.url, 'SELECT 1')).resolves.toBeDefined();
    child.kill('SIGKILL');
    await expect.poll(() => existsSync(started.dir), { timeout: 30_000, interval: 250 }).toBe(false);
    await expect(adminQuery(started.url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
  }, 120_000);
});
