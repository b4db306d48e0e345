-- The team's shared queue (main/team/queue.ts, decisions.ts): every item a person may review, held
-- by the instance that holds its caller's connection, is a row every instance reads; a decision
-- taken on any instance is a row the holding instance applies. History entries name the instance
-- that last wrote them, so a survivor ends exactly the unfinished entries of an instance that died.

-- Up Migration

-- One row per item a person may review (awaiting review or input, and its recent outcome).
-- `holder`: the instance holding the caller (team_instances.id); NULL once a survivor ended the
-- item because its holder stopped (nobody holds it any more). `phase` counts the review phases the
-- item went through (a new status or a new content version): a decision is unique per item and phase.
-- `detail` is the item (shared/contract/item-views.ts) as JSON without its request (`original` for
-- a sampling item, `params` for an elicitation), which is `request`, written once; big media are
-- references (shared/domain/media-refs.ts) whose payloads History keeps in `blobs`: `media` maps
-- each reference to the payload's SHA-256.
CREATE TABLE team_items (
  id              text PRIMARY KEY,
  holder          text,
  kind            text NOT NULL CHECK (kind IN ('sampling', 'elicitation')),
  status          text NOT NULL,
  content_version text,
  phase           integer NOT NULL,
  summary         text NOT NULL,
  detail          text NOT NULL,
  request         text NOT NULL,
  media           text NOT NULL DEFAULT '{}',
  received_at     double precision NOT NULL,        -- epoch ms
  rev             integer NOT NULL DEFAULT 1,       -- bumped by every change of the row
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX team_items_holder ON team_items (holder);
CREATE INDEX team_items_orphans ON team_items (updated_at) WHERE holder IS NULL;

-- One row per decision (and per draft or dismissal) taken on any instance about an item, applied by
-- the item's holder through its pipeline. `phase` NULL: a draft or a dismissal (many per item);
-- otherwise one decision per item and phase: the second to arrive is refused, unless the first was
-- refused (it is then replaced). `input` is the API method's input (shared/contract/api.ts) as JSON;
-- `error` the ApiError a refusal carries ({code, message, ui}) as JSON.
CREATE TABLE team_decisions (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  item_id     text NOT NULL,
  holder      text NOT NULL,
  phase       integer,
  method      text NOT NULL,
  input       text NOT NULL,
  decided_on  text NOT NULL,                        -- the instance the person used
  state       text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'applied', 'refused')),
  error       text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  settled_at  timestamptz
);
CREATE UNIQUE INDEX team_decisions_once ON team_decisions (item_id, phase) WHERE phase IS NOT NULL;
CREATE INDEX team_decisions_pending ON team_decisions (holder, id) WHERE state = 'pending';
CREATE INDEX team_decisions_settled ON team_decisions (settled_at) WHERE state <> 'pending';

-- Which instance last wrote each History entry (NULL: a console without a team, or before this).
ALTER TABLE history ADD COLUMN instance_id text;
CREATE INDEX history_unfinished ON history (instance_id)
  WHERE status NOT IN ('delivered', 'accepted', 'completed', 'rejected', 'declined', 'failed', 'cancelled', 'withdrawn', 'timed_out', 'interrupted');

-- Down Migration

DROP INDEX history_unfinished;
ALTER TABLE history DROP COLUMN instance_id;
DROP TABLE team_decisions;
DROP TABLE team_items;
