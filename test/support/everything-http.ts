/** Starts server-everything over Streamable HTTP on a free loopback port (for tests). */
import { spawn, type ChildProcess } from 'node:child_process';
import { serverEverythingEntry } from '../../main/config.js';
import { freePort } from './console-harness.js';

/**
 * Spawns `server-everything streamableHttp` with PORT set; resolves once it says it listens.
 * @throws Error when it exits or stays silent for 15 s
 */
export async function startEverythingHttp(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [serverEverythingEntry(), 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server-everything (HTTP) did not start')), 15_000);
    const onData = (d: Buffer) => {
      if (/listening|running|port/i.test(d.toString())) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server-everything exited ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}
