-- REPORT.md: the coverage screen, per pass, as upper bounds. A behavior is a GAP when the gold
-- implements it and no verified prose clause determines it; one decision tested over many
-- inputs counts many times, and a general clause can cover what no literal quote does.
-- Passes are not pooled: each screens the same cases again. `gap_rate` is a fraction,
-- `wilson_95` its [low, high].
WITH b AS (SELECT * FROM behaviors WHERE label IN ('COVERED', 'GAP')),
     per_case AS (SELECT pass_no, case_id, bool_or(label = 'GAP') AS has_gap
                  FROM b GROUP BY pass_no, case_id),
     levels AS (
         SELECT pass_no, 'behaviors' AS level, 1 AS ord, count(*) AS n,
                count(*) FILTER (WHERE label = 'GAP') AS k
         FROM b GROUP BY pass_no
         UNION ALL
         SELECT pass_no, 'cases', 2, count(*), count(*) FILTER (WHERE has_gap)
         FROM per_case GROUP BY pass_no
     )
SELECT pass_no, level, n AS screened, k AS gap,
       k::DOUBLE / nullif(n, 0) AS gap_rate,
       wilson(k, n) AS wilson_95
FROM levels
ORDER BY pass_no, ord;
