-- Each reviewed game's figures from its moves: the result of sql/review.sql registered as
-- `review_moves` (see its header for the rules). One row per game: for each side its accuracy
-- (lichess's: the mean of the volatility-weighted mean and the harmonic mean of its moves'
-- accuracies, each taken as at least 1 in the harmonic mean), its ACPL (the mean centipawn loss
-- rounded half up) and its inaccuracies, mistakes and blunders; null figures for a side without
-- an evaluated move. Same SQL subset as sql/review.sql.
SELECT
  game_id,
  COUNT(*) AS plies,
  (SUM(CASE WHEN mover = 'white' THEN accuracy * weight END)
      / SUM(CASE WHEN mover = 'white' THEN weight END)
    + CAST(SUM(CASE WHEN mover = 'white' AND accuracy IS NOT NULL THEN 1 END) AS DOUBLE)
      / SUM(CASE WHEN mover = 'white' AND accuracy IS NOT NULL
        THEN 1E0 / GREATEST(accuracy, 1E0) END)) / 2E0
    AS white_accuracy,
  (SUM(CASE WHEN mover = 'black' THEN accuracy * weight END)
      / SUM(CASE WHEN mover = 'black' THEN weight END)
    + CAST(SUM(CASE WHEN mover = 'black' AND accuracy IS NOT NULL THEN 1 END) AS DOUBLE)
      / SUM(CASE WHEN mover = 'black' AND accuracy IS NOT NULL
        THEN 1E0 / GREATEST(accuracy, 1E0) END)) / 2E0
    AS black_accuracy,
  CAST(FLOOR(
    CAST(2 * SUM(CASE WHEN mover = 'white' THEN loss END)
      + SUM(CASE WHEN mover = 'white' AND loss IS NOT NULL THEN 1 END) AS DOUBLE)
    / CAST(2 * SUM(CASE WHEN mover = 'white' AND loss IS NOT NULL THEN 1 END) AS DOUBLE)
  ) AS BIGINT) AS white_acpl,
  CAST(FLOOR(
    CAST(2 * SUM(CASE WHEN mover = 'black' THEN loss END)
      + SUM(CASE WHEN mover = 'black' AND loss IS NOT NULL THEN 1 END) AS DOUBLE)
    / CAST(2 * SUM(CASE WHEN mover = 'black' AND loss IS NOT NULL THEN 1 END) AS DOUBLE)
  ) AS BIGINT) AS black_acpl,
  SUM(CASE WHEN mover = 'white' AND judgement = 'Inaccuracy' THEN 1 ELSE 0 END)
    AS white_inaccuracies,
  SUM(CASE WHEN mover = 'white' AND judgement = 'Mistake' THEN 1 ELSE 0 END) AS white_mistakes,
  SUM(CASE WHEN mover = 'white' AND judgement = 'Blunder' THEN 1 ELSE 0 END) AS white_blunders,
  SUM(CASE WHEN mover = 'black' AND judgement = 'Inaccuracy' THEN 1 ELSE 0 END)
    AS black_inaccuracies,
  SUM(CASE WHEN mover = 'black' AND judgement = 'Mistake' THEN 1 ELSE 0 END) AS black_mistakes,
  SUM(CASE WHEN mover = 'black' AND judgement = 'Blunder' THEN 1 ELSE 0 END) AS black_blunders
FROM review_moves
GROUP BY game_id
