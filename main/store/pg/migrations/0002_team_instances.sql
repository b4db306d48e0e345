-- The consoles of a team sharing this database ("instances"): each holds its callers' connections
-- and renews a lease while it runs (main/team/instances.ts). A survivor ends the items of an
-- instance whose lease ran out.

-- Up Migration

CREATE TABLE team_instances (
  id           text PRIMARY KEY,                 -- random per process start
  host         text NOT NULL,                    -- the machine's name, for people
  pid          integer NOT NULL,
  address      text,                             -- where its web UI listens, when known
  started_at   timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  stopped_at   timestamptz,                      -- set by the instance when it stops, or by a survivor when its lease ran out
  stopped_by   text                              -- who set stopped_at: the instance itself, or the survivor's id
);
CREATE INDEX team_instances_live ON team_instances (heartbeat_at) WHERE stopped_at IS NULL;
