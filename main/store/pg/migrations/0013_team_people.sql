-- The people of a team server (main/team/people.ts): who may sign in, with which role, and on
-- which servers a reviewer decides. A person is never deleted, only marked removed, so History's
-- and the audit trail's "decided by" keep pointing at someone; their sessions and tokens end at
-- the removal.

-- Up Migration

CREATE TABLE team_people (
  subject       text PRIMARY KEY,                 -- stable id (`p_` + random); sessions, tokens, claims and decisions name it
  name          text NOT NULL,                    -- sign-in name, shown as "decided by"
  role          text NOT NULL CHECK (role IN ('admin', 'reviewer', 'auditor')),
  servers       text[],                           -- a reviewer's assigned server ids; NULL: every server
  password_hash text,                             -- argon2id PHC string, for local sign-in; NULL: none
  oidc_issuer   text,                             -- OpenID Connect issuer and subject, for single sign-on
  oidc_subject  text,
  created_at    double precision NOT NULL,        -- epoch ms
  removed_at    double precision                  -- epoch ms; NULL while the person may sign in
);
CREATE UNIQUE INDEX team_people_name ON team_people (lower(name)) WHERE removed_at IS NULL;
CREATE UNIQUE INDEX team_people_oidc ON team_people (oidc_issuer, oidc_subject) WHERE removed_at IS NULL AND oidc_issuer IS NOT NULL;

-- Down Migration

DROP TABLE team_people;
