-- REPORT.md: the coverage screen, as upper bounds. A behavior is a GAP when the gold implements
-- it and no verified prose clause determines it; one decision tested over many inputs counts
-- many times, and a general clause can cover what no literal quote does.
WITH b AS (SELECT * FROM behaviors WHERE label IN ('COVERED', 'GAP')),
     per_case AS (SELECT case_id, bool_or(label = 'GAP') AS has_gap FROM b GROUP BY case_id)
SELECT "level", "screened", "GAP", "GAP rate (upper bound)", "Wilson 95%" FROM (
SELECT 'behaviors' AS "level",
       (SELECT count(*) FROM b) AS "screened",
       (SELECT count(*) FROM b WHERE label = 'GAP') AS "GAP",
       pct((SELECT count(*) FROM b WHERE label = 'GAP')::DOUBLE / nullif((SELECT count(*) FROM b), 0)) AS "GAP rate (upper bound)",
       pct(wilson_low((SELECT count(*) FROM b WHERE label = 'GAP'), (SELECT count(*) FROM b))) || ' – ' ||
       pct(wilson_high((SELECT count(*) FROM b WHERE label = 'GAP'), (SELECT count(*) FROM b))) AS "Wilson 95%",
       1 AS ord
UNION ALL
SELECT 'cases',
       (SELECT count(*) FROM per_case),
       (SELECT count(*) FROM per_case WHERE has_gap),
       pct((SELECT count(*) FROM per_case WHERE has_gap)::DOUBLE / nullif((SELECT count(*) FROM per_case), 0)),
       pct(wilson_low((SELECT count(*) FROM per_case WHERE has_gap), (SELECT count(*) FROM per_case))) || ' – ' ||
       pct(wilson_high((SELECT count(*) FROM per_case WHERE has_gap), (SELECT count(*) FROM per_case))),
       2
) ORDER BY ord;
