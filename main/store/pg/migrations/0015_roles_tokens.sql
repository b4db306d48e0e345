-- Roles and personal tokens on a team server: people's own tokens for their bridges and gateway
-- callers (main/team/personal-tokens.ts), who decided each decision taken on any instance
-- (main/team/decisions.ts), and who decided and who requested each History entry.

-- Up Migration

-- Personal tokens: made by a person for their bridges and programs; calls made with one are
-- "requested by" its owner. Hashes only. A token of a removed person is refused (the lookup joins
-- team_people), and removed with them; revoking deletes the row, refused at once everywhere.
CREATE TABLE team_personal_tokens (
  id            text PRIMARY KEY,                 -- `pt_` + random; what revoking names
  owner_subject text NOT NULL,                    -- team_people.subject, or `admin` (the shared admin token)
  owner_name    text NOT NULL,
  name          text NOT NULL,                    -- unique among live personal tokens; calls queue under `gateway:<name>`
  sha256        text NOT NULL UNIQUE,             -- hex SHA-256 of the token (32 random bytes)
  servers       text[],                           -- server ids a bridge with it may bring; NULL: any
  callers       text[],                           -- 'gateway', 'bridge'; NULL: both
  created_at    double precision NOT NULL,        -- epoch ms
  calls         bigint NOT NULL DEFAULT 0,
  last_used_at  double precision                  -- epoch ms
);
CREATE UNIQUE INDEX team_personal_tokens_name ON team_personal_tokens (name);
CREATE INDEX team_personal_tokens_owner ON team_personal_tokens (owner_subject);

-- Who took a decision (the holder applies it as them, so History and the audit trail name them).
ALTER TABLE team_decisions ADD COLUMN decider_subject text;
ALTER TABLE team_decisions ADD COLUMN decider_name text;

-- History: the person who decided an entry, and the person whose personal token made the call.
ALTER TABLE history ADD COLUMN decider_subject text;
ALTER TABLE history ADD COLUMN decider_name text;
ALTER TABLE history ADD COLUMN requested_by_subject text;
ALTER TABLE history ADD COLUMN requested_by_name text;
CREATE INDEX history_decider ON history (decider_subject, received_at, seq) WHERE decider_subject IS NOT NULL;
CREATE INDEX history_requested_by ON history (requested_by_subject, received_at, seq) WHERE requested_by_subject IS NOT NULL;

-- Down Migration

DROP INDEX history_requested_by;
DROP INDEX history_decider;
ALTER TABLE history DROP COLUMN requested_by_name;
ALTER TABLE history DROP COLUMN requested_by_subject;
ALTER TABLE history DROP COLUMN decider_name;
ALTER TABLE history DROP COLUMN decider_subject;
ALTER TABLE team_decisions DROP COLUMN decider_name;
ALTER TABLE team_decisions DROP COLUMN decider_subject;
DROP TABLE team_personal_tokens;
