-- Who may reach a team server: the provider gateway's named tokens (main/team/tokens.ts), the
-- shared admin token and the browser sessions it opens (main/team/admin-token.ts,
-- main/team/sessions.ts). Hashes only: a token or session id is shown once and never stored.

-- Up Migration

-- The gateway's named tokens (a script, an agent, a developer's bridge). Calls made with one are
-- queued under `gateway:<name>`; `calls` and `last_used_at` are counted by every instance.
CREATE TABLE team_gateway_tokens (
  name         text PRIMARY KEY,
  sha256       text NOT NULL UNIQUE,              -- hex SHA-256 of the token (32 random bytes: no salt needed)
  created_at   double precision NOT NULL,         -- epoch ms
  calls        bigint NOT NULL DEFAULT 0,
  last_used_at double precision                   -- epoch ms
);

-- The one shared admin token of the team (one row): its scrypt hash, so an operator-chosen
-- token is as hard to guess back as a generated one.
CREATE TABLE team_admin_token (
  id         boolean PRIMARY KEY DEFAULT true CHECK (id),
  hash       text NOT NULL,                       -- scrypt$N$r$p$salt$key (base64url)
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Browser sessions (the UI's cookie). `subject` says who signed in: `admin` (the shared admin
-- token) until people sign in with their own accounts.
CREATE TABLE team_sessions (
  id_sha256    text PRIMARY KEY,                  -- hex SHA-256 of the cookie's value
  subject      text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL
);
CREATE INDEX team_sessions_subject ON team_sessions (subject);
CREATE INDEX team_sessions_expiry ON team_sessions (expires_at);
