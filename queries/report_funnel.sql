-- REPORT.md: what became of the mechanical proposer's candidates (audited cases only): each
-- row counts the candidates stopped by that check and no earlier one (view `settled`);
-- `code` is the settle step's (view `settle_steps`), `proposed` the first row's.
SELECT code, step, candidates, cases FROM (
    SELECT 'proposed' AS code, 'proposed (in the added lines of gold and test)' AS step,
           count(*) AS candidates, count(DISTINCT case_id) AS cases, 1 AS ord
    FROM candidates
    UNION ALL
    SELECT steps.code, steps.step, count(s.case_id), count(DISTINCT s.case_id), steps.ord
    FROM settle_steps steps LEFT JOIN settled s ON s.step_ord = steps.ord
    GROUP BY steps.code, steps.step, steps.ord
    HAVING steps.code <> 'not_searched' OR count(s.case_id) > 0
) ORDER BY ord;
