-- The engine review of games (lichess's rules, as crates/tabla-review applies them), defined over
-- two tables: `positions` as `tabla convert --positions` writes it (docs/db.md; the whole games:
-- a --max-ply above their length) and `evals`, one row per evaluated position as
-- `tabla_review::evals_schema()` holds it (key_hi, key_lo: the position's key as in `positions`;
-- cp, mate: White's point of view; best, pv: UCI). The result has one row per move; the second
-- file, sql/review_games.sql, sums it into one row per game (each side's accuracy, ACPL and
-- marks) over this result registered as `review_moves`. crates/tabla-db/spark/spark_review.py runs both on
-- Apache Spark; a test in crates/tabla-db (tests/review_sql.rs) runs them on Apache DataFusion and
-- compares every figure with tabla_review::judge. Both engines run them alike: CASE, CAST, LAG,
-- VAR_POP, SUM, COUNT, MAX and MIN over windows with constant frames, EXP, SQRT, GREATEST, LEAST,
-- LIKE and split_part; every constant with a fraction written with an exponent (`3.68208E-3`),
-- which both read as a DOUBLE (Spark reads `0.00368208` as a DECIMAL); no integer division.
--
-- The rules (tabla_review::judge; lichess's):
-- - A position's evaluation is its `evals` row's cp, else its mate; the position before the
--   first move (ply 0) counts as 15 centipawns when it has none.
-- - A game ending in checkmate (its last move's SAN ends with `#`: tabla's SAN always marks it):
--   the mating move gets no evaluation, win percentage, mark or accuracy, and the final position
--   is left out of the sides' figures.
-- - Positions without a legal move are evaluated by the evaluation step, not here: checkmate as
--   mate 0 (ignored, above), stalemate as cp 0, as tabla's engines answer them
--   (`Analysis::without_moves`); tabla review counts a final stalemate as cp 0 when it has no
--   evaluation, which SQL cannot tell from a missing one.
-- - A game is left out when any other position lacks an evaluation (tabla review reports it), or
--   when its positions stop before its end (its last row has a `next_uci`: convert with a larger
--   --max-ply). Games that tabla convert could not read to the end (`games.error` set) have their
--   positions up to the error and look whole here: leave them out of `positions` (the script
--   does); tabla review refuses them.
-- - Win percentage: 50 + 50 (2 / (1 + exp(-0.00368208 c)) - 1), c the centipawns held within
--   ±1000, a mate ±1000. Judgement: not when the engine's best move before the move (`best`) is
--   the move played; between centipawns, the mover's loss of winning chances (raw centipawns) of
--   0.3, 0.2, 0.1 is a blunder, mistake, inaccuracy; with mates, a mate against the mover
--   appearing (from centipawns b, the mover's view) or the mover's mate lost (to centipawns a, or
--   to a mate against with a = 0) is an inaccuracy when -b or a is above 999, a mistake above 700,
--   else a blunder. Accuracy of a move: from the mover's win percentages before and after.
-- - The game figures: each evaluated move's weight is the population standard deviation, held
--   within [0.5, 12], of a window of n win percentages (n = evaluated moves / 10 within [2, 8]):
--   the n ending after the move, the first n for the first n - 2 moves. A side's accuracy is the
--   mean of the weighted mean and the harmonic mean (accuracies taken as at least 1) of its
--   moves' accuracies; its ACPL the mean of its centipawn losses (held within ±1000, a mate ±1000)
--   rounded half up.
--
-- Columns: game_id, ply (tabla review's: from the start position's move number, so 1 for the
-- first move from the usual start; the positions table's ply plus 2 (move - 1), plus 1 when
-- Black moved first), mover ('white', 'black'), san, uci, cp and mate after the move (null after
-- a mating move), best and pv (the engine's choice and line before the move), win (White's win
-- percentage after the move), judgement ('Inaccuracy', 'Mistake', 'Blunder' or null), accuracy,
-- weight (the volatility weight; null for a move not evaluated), loss (centipawns the mover lost,
-- for the ACPL). A game without moves has no rows. The evals table must have one row per key (a
-- second row would count a position twice).
WITH
pos AS (
  SELECT
    p.game_id,
    CAST(p.ply AS BIGINT) AS idx,
    p.san,
    p.uci,
    p.next_uci,
    p.fen,
    CASE WHEN p.fen LIKE '% b %' THEN 1 ELSE 0 END AS black_to_move,
    CASE WHEN p.next_uci IS NULL AND p.san LIKE '%#' THEN 1 ELSE 0 END AS mated,
    e.cp AS e_cp,
    e.mate AS e_mate,
    e.best,
    e.pv
  FROM positions p
  LEFT JOIN evals e ON e.key_hi = p.key_hi AND e.key_lo = p.key_lo
),
evaluated AS (
  SELECT
    game_id, idx, san, uci, next_uci, fen, black_to_move, mated, best, pv,
    CASE
      WHEN mated = 1 THEN NULL
      WHEN e_cp IS NOT NULL THEN e_cp
      WHEN e_mate IS NOT NULL THEN NULL
      WHEN idx = 0 THEN 15
    END AS cp,
    CASE WHEN mated = 1 OR e_cp IS NOT NULL THEN NULL ELSE e_mate END AS mate,
    CASE
      WHEN mated = 0 AND idx > 0 AND e_cp IS NULL AND e_mate IS NULL THEN 1
      ELSE 0
    END AS missing
  FROM pos
),
ceiled AS (
  SELECT
    *,
    CASE
      WHEN cp IS NOT NULL THEN LEAST(GREATEST(cp, -1000), 1000)
      WHEN mate < 0 THEN -1000
      WHEN mate IS NOT NULL THEN 1000
    END AS cc
  FROM evaluated
),
wins AS (
  SELECT
    *,
    5E1 + 5E1 * (2E0 / (1E0 + EXP(-3.68208E-3 * CAST(cc AS DOUBLE))) - 1E0) AS win
  FROM ceiled
),
framed AS (
  SELECT
    game_id, idx, san, uci, black_to_move, cp, mate, cc, win,
    LAG(cp) OVER (PARTITION BY game_id ORDER BY idx) AS cp_before,
    LAG(mate) OVER (PARTITION BY game_id ORDER BY idx) AS mate_before,
    LAG(cc) OVER (PARTITION BY game_id ORDER BY idx) AS cc_before,
    LAG(win) OVER (PARTITION BY game_id ORDER BY idx) AS win_before,
    LAG(best) OVER (PARTITION BY game_id ORDER BY idx) AS best,
    LAG(pv) OVER (PARTITION BY game_id ORDER BY idx) AS pv,
    MIN(CASE WHEN idx = 0
      THEN 2 * (CAST(split_part(fen, ' ', 6) AS BIGINT) - 1) + black_to_move END)
      OVER (PARTITION BY game_id) AS start_ply,
    COUNT(win) OVER (PARTITION BY game_id) - 1 AS moves,
    SUM(missing) OVER (PARTITION BY game_id) AS missing,
    SUM(CASE WHEN next_uci IS NULL THEN 1 ELSE 0 END) OVER (PARTITION BY game_id) AS ends,
    VAR_POP(win) OVER (PARTITION BY game_id ORDER BY idx
      ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS v2,
    VAR_POP(win) OVER (PARTITION BY game_id ORDER BY idx
      ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS v3,
    VAR_POP(win) OVER (PARTITION BY game_id ORDER BY idx
      ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) AS v4,
    VAR_POP(win) OVER (PARTITION BY game_id ORDER BY idx
      ROWS BETWEEN 4 PRECEDING AND CURRENT ROW) AS v5,
    VAR_POP(win) OVER (PARTITION BY game_id ORDER BY idx
      ROWS BETWEEN 5 PRECEDING AND CURRENT ROW) AS v6,
    VAR_POP(win) OVER (PARTITION BY game_id ORDER BY idx
      ROWS BETWEEN 6 PRECEDING AND CURRENT ROW) AS v7,
    VAR_POP(win) OVER (PARTITION BY game_id ORDER BY idx
      ROWS BETWEEN 7 PRECEDING AND CURRENT ROW) AS v8
  FROM wins
),
sized AS (
  SELECT
    *,
    CASE
      WHEN moves >= 80 THEN 8
      WHEN moves >= 70 THEN 7
      WHEN moves >= 60 THEN 6
      WHEN moves >= 50 THEN 5
      WHEN moves >= 40 THEN 4
      WHEN moves >= 30 THEN 3
      ELSE 2
    END AS n
  FROM framed
  WHERE missing = 0 AND ends = 1
),
-- The window's standard deviation (a variance a rounding below 0 counts as 0).
deviations AS (
  SELECT
    *,
    SQRT(GREATEST(CASE n
      WHEN 2 THEN v2 WHEN 3 THEN v3 WHEN 4 THEN v4 WHEN 5 THEN v5
      WHEN 6 THEN v6 WHEN 7 THEN v7 ELSE v8
    END, 0E0)) AS sd
  FROM sized
),
weighted AS (
  SELECT
    *,
    MAX(CASE WHEN idx = n - 1 THEN sd END) OVER (PARTITION BY game_id) AS sd_first
  FROM deviations
),
played AS (
  SELECT
    game_id,
    start_ply + idx AS ply,
    CASE WHEN black_to_move = 1 THEN 'white' ELSE 'black' END AS mover,
    CASE WHEN black_to_move = 1 THEN 1 ELSE -1 END AS dir,
    san, uci, cp, mate, cc, win, best, pv, cp_before, mate_before, cc_before, win_before,
    CASE WHEN black_to_move = 1 THEN win_before ELSE 1E2 - win_before END AS mover_before,
    CASE WHEN black_to_move = 1 THEN win ELSE 1E2 - win END AS mover_after,
    LEAST(GREATEST(CASE WHEN idx < n - 1 THEN sd_first ELSE sd END, 5E-1), 1.2E1) AS weight
  FROM weighted
  WHERE idx > 0
),
-- The mover's view of the evaluations (centipawns, or moves to mate, positive when the mover
-- is better), and White's change of winning chances from raw centipawns.
judged AS (
  SELECT
    *,
    dir * cp_before AS b_cp,
    dir * mate_before AS b_mate,
    dir * cp AS a_cp,
    dir * mate AS a_mate,
    dir * (
      (2E0 / (1E0 + EXP(-3.68208E-3 * CAST(cp AS DOUBLE))) - 1E0)
      - (2E0 / (1E0 + EXP(-3.68208E-3 * CAST(cp_before AS DOUBLE))) - 1E0)
    ) AS gain
  FROM played
)
SELECT
  game_id,
  CAST(ply AS BIGINT) AS ply,
  mover,
  san,
  uci,
  CAST(cp AS INT) AS cp,
  CAST(mate AS INT) AS mate,
  best,
  pv,
  CASE WHEN win_before IS NULL THEN NULL ELSE win END AS win,
  CASE
    WHEN win IS NULL OR win_before IS NULL THEN NULL
    WHEN best IS NOT NULL AND best = uci THEN NULL
    WHEN b_cp IS NOT NULL AND a_cp IS NOT NULL THEN
      CASE
        WHEN -gain >= 3E-1 THEN 'Blunder'
        WHEN -gain >= 2E-1 THEN 'Mistake'
        WHEN -gain >= 1E-1 THEN 'Inaccuracy'
      END
    WHEN b_cp IS NOT NULL AND a_mate < 0 THEN
      CASE WHEN -b_cp > 999 THEN 'Inaccuracy' WHEN -b_cp > 700 THEN 'Mistake' ELSE 'Blunder' END
    WHEN b_mate > 0 AND a_cp IS NOT NULL THEN
      CASE WHEN a_cp > 999 THEN 'Inaccuracy' WHEN a_cp > 700 THEN 'Mistake' ELSE 'Blunder' END
    WHEN b_mate > 0 AND a_mate < 0 THEN 'Blunder'
  END AS judgement,
  CASE
    WHEN win IS NULL OR win_before IS NULL THEN NULL
    WHEN mover_after >= mover_before THEN 1E2
    ELSE LEAST(GREATEST(
      1.031668100711649E2 * EXP(-4.354415386753951E-2 * (mover_before - mover_after))
        - 3.166924740191411E0 + 1E0,
      0E0), 1E2)
  END AS accuracy,
  CASE WHEN win IS NULL OR win_before IS NULL THEN NULL ELSE weight END AS weight,
  CASE
    WHEN cc IS NULL OR cc_before IS NULL THEN NULL
    ELSE CAST(GREATEST(dir * (cc_before - cc), 0) AS BIGINT)
  END AS loss
FROM judged
