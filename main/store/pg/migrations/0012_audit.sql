-- The audit trail (main/audit): an append-only, hash-chained log of decisions, edits, rule and
-- budget changes, sign-ins, tokens and roles, shared by every instance on the database. Each
-- record holds the hash of the one before (main/audit/chain.ts); `audit_head` is the chain's
-- end, locked (SELECT … FOR UPDATE) by every append so instances take turns and the chain never
-- forks. History's retention and deletions never touch these tables.

-- Up Migration

CREATE TABLE audit_log (
  seq          bigint PRIMARY KEY CHECK (seq > 0),   -- 1, 2, 3… with no gaps
  at           bigint NOT NULL,                      -- epoch ms
  actor_kind   text NOT NULL,                        -- person | rule | console | instance
  actor_id     text,
  actor_name   text,
  kind         text NOT NULL,                        -- e.g. sampling.request_approved
  subject      text NOT NULL,                        -- e.g. item:<id>, rules, token:<name>
  details      text NOT NULL,                        -- JSON text, exactly as hashed (never jsonb: it would reorder keys)
  prev_hash    text NOT NULL,
  content_hash text NOT NULL,
  hash         text NOT NULL
);
CREATE INDEX audit_log_subject ON audit_log (subject, seq);
CREATE INDEX audit_log_actor ON audit_log (actor_kind, actor_id, seq);

CREATE TABLE audit_head (
  id   smallint PRIMARY KEY CHECK (id = 1),
  seq  bigint NOT NULL,
  hash text NOT NULL
);
INSERT INTO audit_head (id, seq, hash) VALUES (1, 0, '0000000000000000000000000000000000000000000000000000000000000000');

-- Records are never changed or removed by the console; these refuse it from anyone else who
-- does not first disable them (the chain and its anchors catch that).
CREATE FUNCTION audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit trail is append-only' USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only();
CREATE TRIGGER audit_head_no_delete BEFORE DELETE ON audit_head FOR EACH ROW EXECUTE FUNCTION audit_append_only();
