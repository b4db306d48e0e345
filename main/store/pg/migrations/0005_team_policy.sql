-- A team's rule book, limits and budgets (main/team/policy-rules.ts, main/team/policy-limits.ts).
--
-- The rule book: every saved revision is kept, the newest is in force. A save inserts revision
-- n + 1 after reading revision n; two saves from the same revision collide on the primary key and
-- the second is told.
--
-- Limits and budgets: counters changed only inside PostgreSQL, by conditional UPDATEs in the
-- functions below (one call per decision), never read by an instance and written back. Every
-- function takes row locks in one order — the console's rate row, the server's rate row, the
-- server's day rows, the console's day rows — so two calls never wait on each other in a circle.

-- Up Migration

CREATE TABLE team_rule_book (
  revision    bigint PRIMARY KEY CHECK (revision > 0),
  body        jsonb NOT NULL,                       -- the rules file (shared/contract/rules-schema.ts), unknown fields kept
  how         text NOT NULL CHECK (how IN ('save', 'import', 'pause', 'resume')),
  saved_at    timestamptz NOT NULL DEFAULT now(),
  saved_by    text,                                 -- the person who saved it, once people sign in
  instance_id text                                  -- the instance it was saved on
);

-- Requests per minute (a token bucket, as the desktop's) and requests waiting, per server; the
-- row with server_id '' is the console as a whole (its console-wide caps).
CREATE TABLE team_limit_rates (
  server_id     text PRIMARY KEY,
  bucket_tokens double precision NOT NULL,          -- requests left in the bucket at bucket_at
  bucket_at     bigint NOT NULL,                    -- epoch ms of the last refill
  waiting       integer NOT NULL DEFAULT 0 CHECK (waiting >= 0)
);

-- Tokens and spend per UTC day, per server ('' = the console as a whole), with the estimates
-- auto-approved requests hold until they settle and the day's refusals and auto decisions.
CREATE TABLE team_limit_days (
  server_id            text NOT NULL,
  day                  text NOT NULL,               -- UTC calendar day, 'YYYY-MM-DD'
  used_tokens          double precision NOT NULL DEFAULT 0,
  used_usd             double precision NOT NULL DEFAULT 0,
  unpriced_tokens      double precision NOT NULL DEFAULT 0,
  pending_tokens       double precision NOT NULL DEFAULT 0,
  pending_usd          double precision NOT NULL DEFAULT 0,
  rate_limited         integer NOT NULL DEFAULT 0,
  last_limited_at      bigint,                      -- epoch ms
  last_limited_rule    text,                        -- e.g. 'limit.rpm'
  last_limited_facts   jsonb,                       -- the numbers and limits that refused it (its message is worded from them)
  auto_approved        integer NOT NULL DEFAULT 0,
  auto_rejected        integer NOT NULL DEFAULT 0,
  elicitation_declined integer NOT NULL DEFAULT 0,
  PRIMARY KEY (server_id, day)
);

-- One row per admitted request not yet settled: its waiting slot and the estimate it holds. Its
-- settlement removes it, so a settlement sent twice counts once. Survivors release the slots and
-- estimates of a gone instance's requests (released_at), and the request's usage still counts if
-- it settles after all.
CREATE TABLE team_limit_holds (
  item_id     text PRIMARY KEY,
  instance_id text NOT NULL,
  server_id   text NOT NULL,
  day         text NOT NULL,                        -- the UTC day the estimate counts on
  tokens      double precision NOT NULL DEFAULT 0,
  usd         double precision NOT NULL DEFAULT 0,
  released_at timestamptz                           -- set when its slots and estimate were given back without a settlement
);
CREATE INDEX team_limit_holds_instance ON team_limit_holds (instance_id) WHERE released_at IS NULL;

-- A server's (or, for '', the console's) counters for one day, with its requests waiting, as the instances read them.
CREATE FUNCTION team_limit_view(p_server text, p_day text) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT coalesce(to_jsonb(d), jsonb_build_object('server_id', p_server, 'day', p_day))
         || jsonb_build_object('waiting', coalesce((SELECT waiting FROM team_limit_rates r WHERE r.server_id = p_server), 0))
  FROM (SELECT 1) one LEFT JOIN team_limit_days d ON d.server_id = p_server AND d.day = p_day
$$;

-- Admits one request, or refuses it at the first limit reached, in the desktop's order: console
-- waiting, server waiting, server tokens and spend today, console tokens and spend today, server
-- requests per minute, console requests per minute. Admitted: one request taken from both buckets,
-- a waiting slot held (both) and, when p_reserve, the estimate held against today's budgets if it
-- fits under every cap (else nothing is held and `reserved` is false: a person decides). Caps are
-- null when not set. Returns {refused, reserved, server, console} (the day's counters after).
CREATE FUNCTION team_limit_admit(
  p_item text, p_instance text, p_server text, p_now bigint, p_day text,
  p_rpm double precision, p_max_waiting integer, p_tokens_cap double precision, p_spend_cap double precision,
  p_g_rpm double precision, p_g_max_waiting integer, p_g_tokens_cap double precision, p_g_spend_cap double precision,
  p_reserve boolean, p_est_tokens double precision, p_est_usd double precision, p_count_rejected boolean
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  refused  text;
  reserved boolean := false;
  s_day    team_limit_days;
  c_day    team_limit_days;
  facts    jsonb;
BEGIN
  -- Counters need not wait for the disk at commit: the row locks are released sooner, so a busy
  -- team's decisions do not queue behind one fsync each. A PostgreSQL crash may forget the last
  -- moment of counts; it never lets two instances take the same last request.
  PERFORM set_config('synchronous_commit', 'off', true);
  INSERT INTO team_limit_rates (server_id, bucket_tokens, bucket_at) VALUES ('', p_g_rpm, p_now), (p_server, p_rpm, p_now) ON CONFLICT DO NOTHING;

  UPDATE team_limit_rates SET waiting = waiting + 1 WHERE server_id = '' AND waiting < p_g_max_waiting;
  IF NOT FOUND THEN refused := 'limit.global.waiting'; END IF;
  IF refused IS NULL THEN
    UPDATE team_limit_rates SET waiting = waiting + 1 WHERE server_id = p_server AND waiting < p_max_waiting;
    IF NOT FOUND THEN refused := 'limit.waiting'; END IF;
  END IF;
  -- The day's rows, made by the first call of the day (after the rate rows: the order above).
  INSERT INTO team_limit_days (server_id, day) VALUES (p_server, p_day), ('', p_day) ON CONFLICT DO NOTHING;

  SELECT * INTO s_day FROM team_limit_days WHERE server_id = p_server AND day = p_day;
  SELECT * INTO c_day FROM team_limit_days WHERE server_id = '' AND day = p_day;
  IF refused IS NULL THEN
    refused := CASE
      WHEN p_tokens_cap IS NOT NULL AND s_day.used_tokens >= p_tokens_cap THEN 'limit.tokens'
      WHEN p_spend_cap IS NOT NULL AND s_day.used_usd >= p_spend_cap - 1e-9 THEN 'limit.spend'
      WHEN p_g_tokens_cap IS NOT NULL AND c_day.used_tokens >= p_g_tokens_cap THEN 'limit.global.tokens'
      WHEN p_g_spend_cap IS NOT NULL AND c_day.used_usd >= p_g_spend_cap - 1e-9 THEN 'limit.global.spend'
    END;
  END IF;

  IF refused IS NULL THEN
    UPDATE team_limit_rates
       SET bucket_tokens = least(p_rpm, bucket_tokens + greatest(0, p_now - bucket_at) * p_rpm / 60000.0) - 1, bucket_at = greatest(bucket_at, p_now)
     WHERE server_id = p_server AND least(p_rpm, bucket_tokens + greatest(0, p_now - bucket_at) * p_rpm / 60000.0) >= 1;
    IF NOT FOUND THEN refused := 'limit.rpm'; END IF;
  END IF;
  IF refused IS NULL THEN
    UPDATE team_limit_rates
       SET bucket_tokens = least(p_g_rpm, bucket_tokens + greatest(0, p_now - bucket_at) * p_g_rpm / 60000.0) - 1, bucket_at = greatest(bucket_at, p_now)
     WHERE server_id = '' AND least(p_g_rpm, bucket_tokens + greatest(0, p_now - bucket_at) * p_g_rpm / 60000.0) >= 1;
    IF NOT FOUND THEN
      refused := 'limit.global.rpm';
      UPDATE team_limit_rates SET bucket_tokens = bucket_tokens + 1 WHERE server_id = p_server; -- the server's request goes back
    END IF;
  END IF;

  IF refused IS NOT NULL THEN
    -- Give back the waiting slots taken above (this call still holds their rows), count the refusal.
    IF refused <> 'limit.global.waiting' THEN UPDATE team_limit_rates SET waiting = waiting - 1 WHERE server_id = ''; END IF;
    IF refused NOT IN ('limit.global.waiting', 'limit.waiting') THEN UPDATE team_limit_rates SET waiting = waiting - 1 WHERE server_id = p_server; END IF;
    facts := jsonb_build_object(
      'waiting', (SELECT waiting FROM team_limit_rates WHERE server_id = p_server),
      'globalWaiting', (SELECT waiting FROM team_limit_rates WHERE server_id = ''),
      'usage', jsonb_build_object('tokens', s_day.used_tokens, 'costUsd', s_day.used_usd),
      'all', jsonb_build_object('tokens', c_day.used_tokens, 'costUsd', c_day.used_usd),
      'limits', jsonb_strip_nulls(jsonb_build_object('requestsPerMinute', p_rpm, 'maxWaiting', p_max_waiting, 'tokensPerDay', p_tokens_cap, 'spendPerDayUsd', p_spend_cap)),
      'global', jsonb_strip_nulls(jsonb_build_object('requestsPerMinute', p_g_rpm, 'maxWaiting', p_g_max_waiting, 'tokensPerDay', p_g_tokens_cap, 'spendPerDayUsd', p_g_spend_cap)));
    UPDATE team_limit_days SET rate_limited = rate_limited + 1, last_limited_at = p_now, last_limited_rule = refused, last_limited_facts = facts WHERE server_id = p_server AND day = p_day;
    IF refused LIKE 'limit.global.%' THEN
      UPDATE team_limit_days SET rate_limited = rate_limited + 1, last_limited_at = p_now, last_limited_rule = refused, last_limited_facts = facts WHERE server_id = '' AND day = p_day;
    END IF;
    RETURN jsonb_build_object('refused', refused, 'facts', facts, 'reserved', false, 'server', team_limit_view(p_server, p_day), 'console', team_limit_view('', p_day));
  END IF;

  IF p_reserve THEN
    UPDATE team_limit_days SET pending_tokens = pending_tokens + p_est_tokens, pending_usd = pending_usd + p_est_usd
     WHERE server_id = p_server AND day = p_day
       AND (p_tokens_cap IS NULL OR used_tokens + pending_tokens + p_est_tokens <= p_tokens_cap)
       AND (p_spend_cap IS NULL OR used_usd + pending_usd + p_est_usd <= p_spend_cap);
    IF FOUND THEN
      UPDATE team_limit_days SET pending_tokens = pending_tokens + p_est_tokens, pending_usd = pending_usd + p_est_usd
       WHERE server_id = '' AND day = p_day
         AND (p_g_tokens_cap IS NULL OR used_tokens + pending_tokens + p_est_tokens <= p_g_tokens_cap)
         AND (p_g_spend_cap IS NULL OR used_usd + pending_usd + p_est_usd <= p_g_spend_cap);
      reserved := FOUND;
      IF NOT reserved THEN
        UPDATE team_limit_days SET pending_tokens = pending_tokens - p_est_tokens, pending_usd = pending_usd - p_est_usd WHERE server_id = p_server AND day = p_day;
      END IF;
    END IF;
  END IF;
  IF p_count_rejected THEN
    UPDATE team_limit_days SET auto_rejected = auto_rejected + 1 WHERE server_id = p_server AND day = p_day;
  END IF;
  INSERT INTO team_limit_holds (item_id, instance_id, server_id, day, tokens, usd)
  VALUES (p_item, p_instance, p_server, p_day, CASE WHEN reserved THEN p_est_tokens ELSE 0 END, CASE WHEN reserved THEN p_est_usd ELSE 0 END);
  RETURN jsonb_build_object('refused', NULL, 'reserved', reserved, 'server', team_limit_view(p_server, p_day), 'console', team_limit_view('', p_day));
END
$$;

-- A request ended. Only the settlement that removes its hold counts (one sent twice changes
-- nothing): the hold gives back its waiting slots and the estimate it held on the day it was
-- admitted (unless survivors released them already), its usage (p_usd null: the model has no
-- price) counts on the UTC day it was received, an auto approval on p_now_day. Returns whether it
-- counted, and the server's and the console's counters of p_now_day.
CREATE FUNCTION team_limit_settle(
  p_item text, p_received_day text, p_now_day text,
  p_tokens double precision, p_usd double precision, p_auto_approved boolean
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  h     team_limit_holds;
  held  boolean;
  scope text;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  DELETE FROM team_limit_holds WHERE item_id = p_item RETURNING * INTO h;
  IF h.item_id IS NULL THEN
    RETURN jsonb_build_object('counted', false);
  END IF;
  held := h.released_at IS NULL;
  IF held THEN
    UPDATE team_limit_rates SET waiting = greatest(0, waiting - 1) WHERE server_id = '';
    UPDATE team_limit_rates SET waiting = greatest(0, waiting - 1) WHERE server_id = h.server_id;
  END IF;
  INSERT INTO team_limit_days (server_id, day)
  SELECT s, d FROM unnest(ARRAY[h.server_id, '']) WITH ORDINALITY AS a(s, i), unnest(ARRAY[p_received_day, p_now_day]) AS b(d)
  ORDER BY a.i, b.d
  ON CONFLICT DO NOTHING;
  FOREACH scope IN ARRAY ARRAY[h.server_id, ''] LOOP
    UPDATE team_limit_days SET
      pending_tokens  = CASE WHEN held AND day = h.day THEN greatest(0, pending_tokens - h.tokens) ELSE pending_tokens END,
      pending_usd     = CASE WHEN held AND day = h.day THEN greatest(0, pending_usd - h.usd) ELSE pending_usd END,
      used_tokens     = used_tokens + CASE WHEN day = p_received_day THEN p_tokens ELSE 0 END,
      used_usd        = used_usd + CASE WHEN day = p_received_day AND p_usd IS NOT NULL THEN p_usd ELSE 0 END,
      unpriced_tokens = unpriced_tokens + CASE WHEN day = p_received_day AND p_usd IS NULL THEN p_tokens ELSE 0 END,
      auto_approved   = auto_approved + CASE WHEN day = p_now_day AND p_auto_approved AND scope <> '' THEN 1 ELSE 0 END
    WHERE server_id = scope AND day IN (p_received_day, p_now_day, h.day);
  END LOOP;
  RETURN jsonb_build_object('counted', true, 'server', team_limit_view(h.server_id, p_now_day), 'console', team_limit_view('', p_now_day));
END
$$;

-- Gives back the waiting slots and estimates of an instance's requests not yet settled (a gone
-- instance's, or this one's as it stops); their holds stay, marked released, so a settlement that
-- still comes counts their usage once. Returns how many were released.
CREATE FUNCTION team_limit_release(p_instance text) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  gone  jsonb;
  total integer;
  g     record;
BEGIN
  WITH d AS (
    UPDATE team_limit_holds SET released_at = now() WHERE instance_id = p_instance AND released_at IS NULL
    RETURNING server_id, day, tokens, usd
  )
  SELECT jsonb_agg(to_jsonb(x)), sum(x.n) INTO gone, total
  FROM (SELECT server_id, day, count(*)::integer AS n, sum(tokens) AS tokens, sum(usd) AS usd FROM d GROUP BY server_id, day) x;
  IF gone IS NULL THEN RETURN 0; END IF;
  UPDATE team_limit_rates SET waiting = greatest(0, waiting - total) WHERE server_id = '';
  FOR g IN SELECT x.server_id, sum(x.n)::integer AS n FROM jsonb_to_recordset(gone) AS x(server_id text, n integer) GROUP BY x.server_id ORDER BY x.server_id LOOP
    UPDATE team_limit_rates SET waiting = greatest(0, waiting - g.n) WHERE server_id = g.server_id;
  END LOOP;
  FOR g IN SELECT * FROM jsonb_to_recordset(gone) AS x(server_id text, day text, n integer, tokens double precision, usd double precision) ORDER BY x.server_id, x.day LOOP
    UPDATE team_limit_days SET pending_tokens = greatest(0, pending_tokens - g.tokens), pending_usd = greatest(0, pending_usd - g.usd) WHERE server_id = g.server_id AND day = g.day;
  END LOOP;
  FOR g IN SELECT x.day, sum(x.tokens) AS tokens, sum(x.usd) AS usd FROM jsonb_to_recordset(gone) AS x(day text, tokens double precision, usd double precision) GROUP BY x.day ORDER BY x.day LOOP
    UPDATE team_limit_days SET pending_tokens = greatest(0, pending_tokens - g.tokens), pending_usd = greatest(0, pending_usd - g.usd) WHERE server_id = '' AND day = g.day;
  END LOOP;
  RETURN total;
END
$$;
