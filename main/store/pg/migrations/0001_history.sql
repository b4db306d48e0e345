-- History of a team's consoles in PostgreSQL: the same records as the desktop's SQLite history
-- (main/store/migration-2.ts and later), shared by every instance on the database.
-- Applied by node-pg-migrate (main/store/pg/migrate.ts) in one transaction; never edit a shipped
-- migration, add the next file instead.

-- Up Migration

CREATE EXTENSION IF NOT EXISTS unaccent;

-- Full-text search as the desktop's FTS5 index does it: words as written, no stemming (the
-- `simple` dictionary), accents folded (`unaccent`). The console splits text into words and
-- lowercases it before it reaches here (main/store/pg/search.ts), so every token type is a word.
CREATE TEXT SEARCH CONFIGURATION history_search (COPY = pg_catalog.simple);
ALTER TEXT SEARCH CONFIGURATION history_search
  ALTER MAPPING FOR asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart,
    email, url, host, url_path, file, sfloat, float, int, uint, version
  WITH unaccent, simple;

-- One row per entry: the narrow columns lists, filters and counters read, and the search index.
-- `seq` is the row's identity and the tie-break of "newest first": (received_at, seq) desc.
CREATE TABLE history (
  seq             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id              text NOT NULL UNIQUE,
  conversation_id text NOT NULL,
  server_id       text NOT NULL,
  call_name       text,
  status          text NOT NULL,
  decided_by      text,
  received_at     double precision NOT NULL,          -- epoch ms
  ended_at        double precision,                   -- epoch ms
  model           text,
  provider_id     text,
  edited          boolean NOT NULL,
  has_error       boolean NOT NULL,
  input_tokens    double precision,
  output_tokens   double precision,
  media_bytes     double precision NOT NULL DEFAULT 0, -- decoded bytes of the entry's distinct payloads
  media_count     integer NOT NULL DEFAULT 0,
  kind            text,
  rule_id         text,
  rule_json       text,                               -- the deciding rule (RuleRef) as JSON
  cost_usd        double precision,                   -- the recorded costUsd
  draft           boolean NOT NULL DEFAULT false,     -- re-opened by a person (origin 'draft'): not usage
  search          tsvector NOT NULL
);
CREATE INDEX history_order ON history (received_at, seq);
CREATE INDEX history_session ON history (conversation_id, received_at, seq);
CREATE INDEX history_server ON history (server_id, received_at, seq);
CREATE INDEX history_rule ON history (rule_id) WHERE rule_id IS NOT NULL;
CREATE INDEX history_text ON history USING gin (search);

-- The entry's preview, error text and parts as JSON text (exactly as written: key order kept).
CREATE TABLE history_data (
  seq                bigint PRIMARY KEY REFERENCES history (seq) ON DELETE CASCADE,
  preview            text NOT NULL,
  error              text,
  original_json      text,
  sent_json          text,                            -- JSON, or '=' for "same as original_json"
  model_choice_json  text,
  generated_json     text,
  delivered_json     text,                            -- JSON, or '=' for "same as generated_json"
  error_detail_json  text,
  usage_json         text,
  timings_json       text NOT NULL,
  events_json        text NOT NULL,
  extra_json         text,                            -- JSON object of entry fields with no column
  not_delivered_json text,                            -- list columns taken from extra_json
  call_args          text,
  error_ui_json      text
);

-- Media payloads and big texts, stored once per content and linked from entries. `data` holds
-- the decoded bytes of base64 that round-trips exactly (`encoding` 'base64', a quarter smaller),
-- else the string's UTF-8 ('utf8'), or its JSON string literal when UTF-8 cannot hold it exactly
-- ('json': U+0000, lone surrogates). `touched_at`: last time a writer inserted or linked it;
-- unlinked rows older than the grace period are removed (a writer about to link one has touched it).
CREATE TABLE blobs (
  sha256     text PRIMARY KEY,
  bytes      double precision NOT NULL,
  mime_type  text,
  encoding   text NOT NULL CHECK (encoding IN ('base64', 'utf8', 'json')),
  data       bytea NOT NULL,
  touched_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX blobs_touched ON blobs (touched_at);
CREATE TABLE history_blobs (
  seq    bigint NOT NULL REFERENCES history (seq) ON DELETE CASCADE,
  sha256 text NOT NULL,
  PRIMARY KEY (seq, sha256)
);
CREATE INDEX history_blobs_sha256 ON history_blobs (sha256);

-- Down Migration

DROP TABLE history_blobs;
DROP TABLE blobs;
DROP TABLE history_data;
DROP TABLE history;
DROP TEXT SEARCH CONFIGURATION history_search;
