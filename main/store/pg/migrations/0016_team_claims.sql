-- Who reviews what on a team server (main/team/claims.ts): a reviewer's claim on a waiting item,
-- the approvals a two-person rule counts, and the people with the UI open on each instance.

-- Up Migration

-- One claim per item: the person reviewing it, the UI connection (on `instance`) that holds it,
-- and the last heartbeat of that page; a claim whose heartbeat is older than the timeout is free.
CREATE TABLE team_claims (
  item_id       text PRIMARY KEY,
  holder        text NOT NULL,                    -- the person's subject (team_people.subject, or `admin`)
  holder_name   text NOT NULL,
  instance_id   text NOT NULL,
  connection_id text NOT NULL,
  taken_at      timestamptz NOT NULL DEFAULT now(),
  heartbeat_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX team_claims_connection ON team_claims (connection_id);

-- One approval per person, item and content version (a two-person rule counts those of the item's
-- current version: an edit makes a new version, so earlier approvals no longer count).
CREATE TABLE team_approvals (
  item_id     text NOT NULL,
  version     text NOT NULL,
  subject     text NOT NULL,
  name        text NOT NULL,
  approved_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (item_id, version, subject)
);

-- One row per open UI connection: who is online, on which instance.
CREATE TABLE team_online (
  connection_id text PRIMARY KEY,
  instance_id   text NOT NULL,
  subject       text NOT NULL,
  name          text NOT NULL,
  opened_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX team_online_instance ON team_online (instance_id);

-- Down Migration

DROP TABLE team_online;
DROP TABLE team_approvals;
DROP TABLE team_claims;
