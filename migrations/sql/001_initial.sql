-- AMTP's Postgres store, version 1 (server/src/store/postgres.ts). Everything lives in the schema
-- "amtp", so the database may be shared with other applications. Applied once, in a transaction,
-- by server/src/store/pgSchema.ts, which records it in amtp.schema_version.

-- The run record: the store of record for a run's state (optimistic versioning on "version").
CREATE TABLE amtp.runs (
  id          text PRIMARY KEY,
  workspace   text        NOT NULL,  -- the workspace's real path: listing a workspace's runs
  version     integer     NOT NULL,
  status      text        NOT NULL,
  stage       text        NOT NULL,
  record      json        NOT NULL,  -- the whole run record, exactly as the lowdb store keeps it in runs/<id>.json (json keeps its text)
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);
CREATE INDEX runs_workspace ON amtp.runs (workspace, created_at, id);

-- Artifacts: "text" is the RFC 8785 text of {content, kind, meta, runId}; id = 'a_' || sha256(text)[:32].
-- content and meta are the same values as JSONB, for queries (a NUL character is stored as U+FFFD
-- there; "text" is the exact record). A second write of an id is a no-op.
CREATE TABLE amtp.artifacts (
  id          text PRIMARY KEY,
  run_id      text        NOT NULL,
  kind        text        NOT NULL,  -- static_map, <agent>_batch, <agent>_output, repair_output, …
  text        text        NOT NULL,
  content     jsonb       NOT NULL,
  meta        jsonb       NOT NULL,
  sanitizer   text GENERATED ALWAYS AS (meta ->> 'sanitizer') STORED,
  prompt_hash text GENERATED ALWAYS AS (meta ->> 'promptHash') STORED,
  attempt     integer GENERATED ALWAYS AS ((meta ->> 'attempt')::integer) STORED,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX artifacts_run ON amtp.artifacts (run_id, kind);

-- Rows derived from the run record in the same transaction as each save, for a team's queries.
CREATE TABLE amtp.activities (
  run_id      text    NOT NULL,
  agent       text    NOT NULL,
  status      text    NOT NULL,
  attempts    integer NOT NULL,
  artifact_id text,
  model       text,
  record      jsonb   NOT NULL,
  PRIMARY KEY (run_id, agent)
);
CREATE TABLE amtp.batches (
  run_id      text    NOT NULL,
  agent       text    NOT NULL,
  batch_index integer NOT NULL,
  batch_key   text    NOT NULL,
  status      text    NOT NULL,
  attempts    integer NOT NULL,
  artifact_id text,
  parent      integer,
  record      jsonb   NOT NULL,
  PRIMARY KEY (run_id, agent, batch_index)
);
CREATE TABLE amtp.approvals (
  run_id   text NOT NULL,
  id       text NOT NULL,
  tool     text NOT NULL,
  risk     text NOT NULL,
  decision text NOT NULL,
  record   jsonb NOT NULL,
  PRIMARY KEY (run_id, id)
);
CREATE TABLE amtp.audit (
  run_id  text    NOT NULL,
  seq     integer NOT NULL,
  at      text    NOT NULL,
  tool    text    NOT NULL,
  risk    text,
  outcome text,
  record  jsonb   NOT NULL,
  PRIMARY KEY (run_id, seq)
);
-- One row for each change of a run's status or stage.
CREATE TABLE amtp.events (
  run_id  text        NOT NULL,
  version integer     NOT NULL,
  at      timestamptz NOT NULL,
  status  text        NOT NULL,
  stage   text        NOT NULL,
  reason  text,
  PRIMARY KEY (run_id, version)
);

-- One process works on a run at a time: the holder renews expires_at while it runs.
CREATE TABLE amtp.locks (
  run_id     text PRIMARY KEY,
  holder     text        NOT NULL,
  host       text        NOT NULL,
  pid        integer     NOT NULL,
  expires_at timestamptz NOT NULL
);

-- The queue's ledger (server/src/queue/): one row per model request of an activity attempt. The
-- coordinator writes the request, a worker the reply or the typed error; idempotent on
-- (run_id, prompt_hash, attempt): a re-delivered job finds the answer that is already there.
CREATE TABLE amtp.attempts (
  run_id       text        NOT NULL,
  prompt_hash  text        NOT NULL,
  attempt      integer     NOT NULL,
  agent        text        NOT NULL,
  provider     text        NOT NULL,
  request      jsonb       NOT NULL,
  reply        json,   -- the reply exactly as the model sent it (json keeps its text)
  error        jsonb,
  worker       text,
  requested_at timestamptz NOT NULL DEFAULT now(),
  answered_at  timestamptz,
  PRIMARY KEY (run_id, prompt_hash, attempt)
);
