-- REPORT.md: what became of the mechanical proposer's candidates (audited cases only): each
-- row counts the candidates stopped by that check and no earlier one (view `settled`).
SELECT "step", "candidates", "cases" FROM (
    SELECT 'proposed (in the added lines of gold and test)' AS "step", count(*) AS "candidates",
           count(DISTINCT case_id) AS "cases", 1 AS ord
    FROM candidates
    UNION ALL
    SELECT steps.step, count(s.case_id), count(DISTINCT s.case_id), steps.ord
    FROM settle_steps steps LEFT JOIN settled s ON s.step_ord = steps.ord
    GROUP BY steps.step, steps.ord
    HAVING steps.step <> 'not searched' OR count(s.case_id) > 0
) ORDER BY ord;
