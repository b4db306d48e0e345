/**
 * Child process for the S-SIZE-1 oversized-image test: starts a console (harness) with the sampling
 * fixture, has the fixture send one 12 MB image, and prints one JSON line `{report, entry}` (what
 * the server got back, and the console's history entry). It runs apart from the test worker so
 * that a console that blocks its event loop on a huge request makes the test FAIL on a timeout
 * instead of freezing the whole test run.
 * Usage: `node --import tsx test/integration/sampling-oversized.child.ts stdio|http`
 */
import { call, finished, historyOf, startSamplingEnv } from './sampling-support.js';

const transport = process.argv[2] === 'http' ? 'http' : 'stdio';
const env = await startSamplingEnv(transport, 'legacy');
try {
  const since = Date.now();
  const { report } = await finished(env.h, await call(env.h, 'ask-invalid', { shape: 'oversized-image' }), 60_000);
  const entry = await historyOf(env.h, 'ask-invalid', since).catch((err: unknown) => ({ missing: String(err) }));
  const json = JSON.stringify({ report, entry: { ...entry, original: undefined } });
  process.stdout.write(`${json}\n`);
} finally {
  await env.close();
}
