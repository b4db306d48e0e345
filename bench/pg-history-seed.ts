/**
 * Fills a team server's PostgreSQL History (schema: main/store/pg/migrations) with `count`
 * entries for the bench, set-based: each chunk of {@link CHUNK} entries is one
 * `INSERT … SELECT … FROM generate_series` that draws the rows inside PostgreSQL, never one call per
 * entry. The rows follow bench/history-corpus.ts: its servers, tools, models and system prompts;
 * prompts of 12–90 and responses of 20–160 words drawn Zipf-like from its vocabulary (a few words
 * everywhere, most rare, made-up rare terms at the tail); its mix of statuses, edits and token
 * usage; sessions of one or two requests about 30 s apart. The search column is built as the store
 * builds it (`to_tsvector('history_search', …)` over the entry's words, main/store/pg/search.ts), so
 * the GIN index holds what real entries would give it. Chunks are seeded with a fixed seed each
 * (`setseed`): the same count gives the same rows. Ends with `VACUUM (ANALYZE)`, as autovacuum
 * would have done to a database in use.
 */
import pg from 'pg';
import { CORPUS_LISTS, vocabulary } from './history-corpus.js';
import { words } from '../main/store/pg/search.js';

/** Entries per statement. */
const CHUNK = 25_000;
/** Statements running at once (one connection each). */
const CONNECTIONS = 2;
/** Receive time of the first entry (epoch ms), as bench/history-corpus.ts starts. */
const START = Date.UTC(2026, 0, 1);

/** A search document's words as the store sends them (search.ts `words`, space-separated). */
const doc = (text: string): string => words(text).join(' ');

/** Parameters shared by every chunk: $3 vocabulary; $4 servers, $5 tools, $6 providers, $7 models, $8 system prompts; $9 the first receive time; $10–$12 the words of servers, tools and system prompts. */
function corpusParams(): unknown[] {
  const { servers, tools, models, systemPrompts } = CORPUS_LISTS;
  return [vocabulary(), servers, tools, models.map(([p]) => p), models.map(([, m]) => m), systemPrompts, START, servers.map(doc), tools.map(doc), systemPrompts.map(doc)];
}

/** The draws of each entry $1 ≤ i < $2: indexes into the lists, lengths, the status roll, times and usage. */
const DRAWS = `
  SELECT i,
    1 + floor(random() * cardinality($4::text[]))::int AS sv,
    1 + floor(random() * cardinality($5::text[]))::int AS tl,
    1 + floor(random() * cardinality($6::text[]))::int AS md,
    1 + floor(random() * cardinality($8::text[]))::int AS sp,
    12 + floor(random() * 78)::int AS plen,
    20 + floor(random() * 140)::int AS rlen,
    random() AS roll, random() < 0.2 AS edited,
    $9::float8 + i * 30000.0 + floor(random() * 30000) AS at,
    300 + floor(random() * 4000) AS gen_ms, 1500 + floor(random() * 40000) AS review_ms,
    20 + floor(random() * 800) AS tin, 10 + floor(random() * 300) AS tout
  FROM generate_series($1::int, $2::int - 1) AS i`;

/** A text of `len` words drawn Zipf-like from the vocabulary $3 (index n^(u^1.6), as history-corpus.ts draws). */
const zipfText = (len: string) =>
  `(SELECT string_agg(($3::text[])[least(cardinality($3::text[]), floor(power(cardinality($3::text[]), power(random(), 1.6)))::int)], ' ') FROM generate_series(1, ${len}))`;

/** One chunk: entries $1 ≤ i < $2 into `history` and `history_data`. */
const CHUNK_SQL = `
WITH r AS MATERIALIZED (${DRAWS}),
g AS MATERIALIZED (
  SELECT r.*, ${zipfText('r.plen')} AS prompt, ${zipfText('r.rlen')} AS response,
    CASE WHEN roll < 0.78 THEN 'delivered' WHEN roll < 0.9 THEN 'rejected' WHEN roll < 0.95 THEN 'failed' WHEN roll < 0.98 THEN 'cancelled' ELSE 'timed_out' END AS status
  FROM r
),
h AS (
  INSERT INTO history (id, conversation_id, server_id, call_name, status, decided_by, received_at, ended_at, model, provider_id, edited, has_error, input_tokens, output_tokens, search)
  SELECT 'e' || i, 'c' || (i * 5 / 7), ($4::text[])[sv], ($5::text[])[tl], status,
    CASE WHEN status IN ('failed', 'timed_out') THEN 'console' ELSE 'person' END,
    at, at + review_ms + gen_ms, ($7::text[])[md], ($6::text[])[md], edited, status IN ('failed', 'rejected'),
    CASE WHEN status <> 'failed' THEN tin END, CASE WHEN status <> 'failed' THEN tout END,
    to_tsvector('history_search', ($10::text[])[sv] || ' ' || ($11::text[])[tl] || ' ' || ($12::text[])[sp] || ' ' || prompt || ' ' || response)
  FROM g ORDER BY i
  RETURNING seq, id
)
INSERT INTO history_data (seq, preview, error, original_json, sent_json, generated_json, delivered_json, usage_json, timings_json, events_json)
SELECT h.seq, left(upper(left(prompt, 1)) || substr(prompt, 2) || '.', 200),
  CASE status WHEN 'failed' THEN 'provider error: 502 Bad Gateway' WHEN 'rejected' THEN 'User rejected sampling request' END,
  json_build_object('messages', json_build_array(json_build_object('role', 'user', 'content', json_build_object('type', 'text', 'text', prompt))),
    'systemPrompt', ($8::text[])[sp], 'maxTokens', 400, 'temperature', 0.7)::text,
  CASE WHEN status <> 'failed' THEN '=' END,
  CASE WHEN status <> 'failed' THEN json_build_object('role', 'assistant', 'content', json_build_object('type', 'text', 'text', response), 'model', ($7::text[])[md], 'stopReason', 'endTurn')::text END,
  CASE WHEN status = 'delivered' THEN '=' END,
  CASE WHEN status <> 'failed' THEN json_build_object('inputTokens', tin, 'outputTokens', tout)::text END,
  json_build_object('queuedMs', 1, 'reviewMs', review_ms, 'generationMs', gen_ms, 'totalMs', review_ms + gen_ms)::text,
  json_build_array(json_build_object('at', at, 'kind', 'received'), json_build_object('at', at + review_ms + gen_ms, 'kind', status))::text
FROM h JOIN g ON h.id = 'e' || g.i`;

/** What {@link seedPgHistory} did: entries written, and the time it took (inserts, then vacuum and statistics), in ms. */
export interface PgSeeded {
  entries: number;
  insertMs: number;
  vacuumMs: number;
}

/**
 * Adds entries `e0`…`e{count-1}` to the (migrated, empty) History at `url`.
 * @throws the server's error when a statement fails (e.g. ids already present)
 */
export async function seedPgHistory(url: string, count: number): Promise<PgSeeded> {
  const params = corpusParams();
  const clients = await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    }),
  );
  try {
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      clients.map(async (c) => {
        for (let from = next; from < count; from = next) {
          next += CHUNK;
          await c.query('SELECT setseed($1)', [((from / CHUNK) % 1000) / 1000]);
          await c.query(CHUNK_SQL, [from, Math.min(count, from + CHUNK), ...params]);
        }
      }),
    );
    const t1 = performance.now();
    await clients[0]!.query('VACUUM (ANALYZE) history, history_data');
    return { entries: count, insertMs: t1 - t0, vacuumMs: performance.now() - t1 };
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}
