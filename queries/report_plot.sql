-- claimable.png, linked from REPORT.md: per repository, the claimable rate (a floor: the
-- counts of report_groups.sql) and, per agent pass, the share of screened cases with a GAP
-- (an upper bound: the case level of report_screen.sql), each with its Wilson 95% interval
-- ([low, high]).
WITH repo AS (
    SELECT case_id, coalesce(repo, '(rows that did not load)') AS repository,
           verdict
    FROM verdicts
), claim AS (
    SELECT repository, 'claimable (floor)' AS series, 0 AS ord,
           count(*) FILTER (WHERE claimable(verdict))
               AS k,
           count(*) FILTER (WHERE verdict <> 'ERROR') AS n
    FROM repo
    GROUP BY repository
), per_case AS (
    SELECT pass_no, case_id, bool_or(label = 'GAP') AS has_gap
    FROM behaviors
    WHERE label IN ('COVERED', 'GAP')
    GROUP BY pass_no, case_id
), screen AS (
    SELECT r.repository, 'GAP, pass ' || c.pass_no || ' (upper bound)' AS series,
           c.pass_no AS ord, count(*) FILTER (WHERE c.has_gap) AS k, count(*) AS n
    FROM per_case c JOIN repo r USING (case_id)
    GROUP BY r.repository, c.pass_no
)
SELECT repository, series, k, n, k::DOUBLE / n AS rate, wilson(k, n) AS wilson_95
FROM (SELECT * FROM claim UNION ALL SELECT * FROM screen)
WHERE n > 0
ORDER BY repository, ord
