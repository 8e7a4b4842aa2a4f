-- The opening explorer's aggregate, defined over the `positions` table as `tabla convert
-- --positions` writes it (docs/db.md): each position row repeats its game's outcome, Elo sum and
-- speed, and sits in its game's `year=Y/month=M` partition, so no join with `games` is needed.
-- `tabla db import` runs it on Apache DataFusion for each import; crates/tabla-db/spark/spark_explorer.py runs
-- the same file on Apache Spark. It keeps to SQL that both engines run alike: SELECT, CASE, CAST,
-- COUNT, SUM, GROUP BY an alias; output columns cast to their type; no division.
--
-- `${max_ply}` is the database's max-ply (tabla substitutes it; so does crates/tabla-db/spark/spark_explorer.py).
-- `tabla db import` keeps the result's rows of the positions it counts for at least 32 games
-- (the others are counted from `positions` by the same rule when asked); Spark's result keeps
-- them all.
--
-- The counting rule: a game counts once for a position, at the first ply (below max-ply) where
-- it stands there (`first`), with the move it played there (`next_uci`); only games ending
-- 1-0, 0-1 or 1/2-1/2 count (`outcome` not null). Rows are buckets: the rating group of the
-- players' average Elo (rounded down; lichess's groups, named by their lowest rating; null
-- without both Elos), the speed, and the month the game was played (the partitions `year` and
-- `month`), so that filters on whole buckets are answered from this table alone. The counting
-- rule's condition is marked below: tabla's lookups of a position's games use that text (and its
-- Rust form, tested against this file, scans positions files without a query).
SELECT
  p.key_hi,
  p.key_lo,
  p.next_uci AS uci,
  CAST(
    CASE
      WHEN p.elo_sum IS NULL THEN NULL
      WHEN p.elo_sum >= 5000 THEN 2500
      WHEN p.elo_sum >= 4400 THEN 2200
      WHEN p.elo_sum >= 4000 THEN 2000
      WHEN p.elo_sum >= 3600 THEN 1800
      WHEN p.elo_sum >= 3200 THEN 1600
      WHEN p.elo_sum >= 2800 THEN 1400
      WHEN p.elo_sum >= 2400 THEN 1200
      WHEN p.elo_sum >= 2000 THEN 1000
      ELSE 0
    END AS BIGINT) AS rating_group,
  p.speed,
  p.year,
  p.month,
  COUNT(*) AS games,
  SUM(CASE WHEN p.outcome = 1 THEN 1 ELSE 0 END) AS white,
  SUM(CASE WHEN p.outcome = 0 THEN 1 ELSE 0 END) AS draws,
  SUM(CASE WHEN p.outcome = -1 THEN 1 ELSE 0 END) AS black,
  SUM(CASE WHEN p.elo_sum IS NULL THEN 0 ELSE CAST(p.elo_sum AS BIGINT) END) AS rating_sum,
  SUM(CASE WHEN p.elo_sum IS NULL THEN 0 ELSE 1 END) AS rated
FROM positions p
WHERE
  -- counted: from (tabla's other queries of counted games use the lines from here to "counted: to")
  p.first
  AND p.ply < ${max_ply}
  AND p.next_uci IS NOT NULL
  AND p.outcome IS NOT NULL
  -- counted: to
GROUP BY
  p.key_hi,
  p.key_lo,
  p.next_uci,
  rating_group,
  p.speed,
  p.year,
  p.month
