-- svc indexer, schema version 1 (docs/indexer.md "Schema").
-- u64 values are numeric(20,0); JSON texts are kept exactly as the node published them.

CREATE TABLE indexer_state (
  id            smallint PRIMARY KEY CHECK (id = 1),
  stream        text     NOT NULL,
  stream_seq    bigint   NOT NULL,          -- stream sequence of the last message written
  height        bigint   NOT NULL,          -- last block written (0: none)
  last_cs       numeric(20,0) NOT NULL,     -- continuum_sequence of the last transaction written
  open_txs      integer  NOT NULL,          -- transactions written for block height + 1
  last_sha256   bytea,                      -- SHA-256 of the last message's body
  total_events  bigint   NOT NULL
);

CREATE TABLE blocks (
  height      bigint PRIMARY KEY,
  produced_at bigint NOT NULL,
  json        text   NOT NULL             -- the BlockRecord
);

CREATE TABLE transactions (
  height        bigint  NOT NULL,
  batch         integer NOT NULL,
  idx           integer NOT NULL,
  cs            numeric(20,0) NOT NULL UNIQUE,
  kind          text    NOT NULL,
  market_id     text    NOT NULL,
  owner         text    NOT NULL,
  order_id      numeric(20,0) NOT NULL,
  json          text    NOT NULL,         -- the ExplorerTransaction, as published
  PRIMARY KEY (height, batch, idx)
);

CREATE TABLE market_creations (
  height    bigint  NOT NULL,
  batch     integer NOT NULL,
  idx       integer NOT NULL,
  market_id text    NOT NULL,
  json      text    NOT NULL,
  PRIMARY KEY (height, batch, idx)
);

CREATE TABLE markets (
  market_id   text PRIMARY KEY,
  name        text NOT NULL,
  kind        text NOT NULL,
  base_mint   text NOT NULL,
  quote_mint  text NOT NULL,
  created_cs  numeric(20,0) NOT NULL,
  json        text NOT NULL               -- the MarketCreation
);

-- Per market whose book has seen an order (its creation may come later in the stream).
CREATE TABLE books (
  market_id       text PRIMARY KEY,
  next_trade      bigint NOT NULL,        -- last trade id + 1
  produced_events bigint NOT NULL         -- events of this market in produced blocks
);

CREATE TABLE events (
  ordinal        bigint PRIMARY KEY,      -- 1, 2, ... over the chain
  market_id      text   NOT NULL,
  market_ordinal bigint NOT NULL,         -- 1, 2, ... within the market
  height         bigint NOT NULL,
  json           text   NOT NULL,
  UNIQUE (market_id, market_ordinal)
);
CREATE INDEX events_height ON events (height, ordinal);

CREATE TABLE orders (
  owner       text          NOT NULL,
  order_id    numeric(20,0) NOT NULL,
  market_id   text          NOT NULL,
  side        text          NOT NULL,
  price       numeric(20,0) NOT NULL,
  quantity    numeric(20,0) NOT NULL,
  filled      numeric(20,0) NOT NULL,
  expiry      numeric(20,0) NOT NULL,
  status      text          NOT NULL,     -- open, filled, cancelled, expired, self_trade
  cs          numeric(20,0) NOT NULL,
  tx_id       text          NOT NULL,
  height      bigint        NOT NULL,
  ts_ms       bigint        NOT NULL,
  ended_by    text,
  PRIMARY KEY (owner, order_id)
);
CREATE INDEX orders_owner_cs ON orders (owner, cs DESC);
CREATE INDEX orders_open ON orders (market_id, cs) WHERE status = 'open';

CREATE TABLE trades (
  market_id      text          NOT NULL,
  trade_id       bigint        NOT NULL,
  price          numeric(20,0) NOT NULL,
  quantity       numeric(20,0) NOT NULL,
  taker_side     text          NOT NULL,
  maker_owner    text          NOT NULL,
  maker_order_id numeric(20,0) NOT NULL,
  taker_owner    text          NOT NULL,
  taker_order_id numeric(20,0) NOT NULL,
  cs             numeric(20,0) NOT NULL,
  tx_id          text          NOT NULL,
  height         bigint        NOT NULL,
  ts_ms          bigint        NOT NULL,
  PRIMARY KEY (market_id, trade_id)
);

CREATE TABLE fills (
  owner        text          NOT NULL,
  cs           numeric(20,0) NOT NULL,
  trade_id     bigint        NOT NULL,
  market_id    text          NOT NULL,
  order_id     numeric(20,0) NOT NULL,
  role         text          NOT NULL,   -- maker, taker
  side         text          NOT NULL,
  price        numeric(20,0) NOT NULL,
  quantity     numeric(20,0) NOT NULL,
  counterparty text          NOT NULL,
  tx_id        text          NOT NULL,
  height       bigint        NOT NULL,
  ts_ms        bigint        NOT NULL,
  PRIMARY KEY (owner, cs, trade_id)
);

CREATE TABLE candles (
  market_id  text    NOT NULL,
  resolution integer NOT NULL,           -- seconds: 60, 300, 3600, 86400
  bucket     bigint  NOT NULL,           -- unix seconds of the bucket's start
  open       numeric(20,0) NOT NULL,
  high       numeric(20,0) NOT NULL,
  low        numeric(20,0) NOT NULL,
  close      numeric(20,0) NOT NULL,
  volume     numeric(40,0) NOT NULL,
  trades     bigint  NOT NULL,
  PRIMARY KEY (market_id, resolution, bucket)
);
