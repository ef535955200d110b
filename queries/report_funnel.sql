-- REPORT.md: what became of the mechanical proposer's candidates (audited cases only): each
-- row counts the candidates stopped by that check and no earlier one (view `settled`).
WITH steps AS (
    SELECT * FROM (VALUES
        (2, 'not graded (FAIL_TO_PASS empty, or all its tests name files that do not exist)'),
        (3, 'not graded by a FAIL_TO_PASS test (outside the tests it runs, or a literal it '
            || 'only feeds in)'),
        (4, 'cannot certify (too short, no letter or digit, common word; data the '
                 || 'test feeds in or a table the gold transcribes)'),
        (5, 'names that do not cross the code-test boundary (DefUse)'),
        (6, 'stated in the prose'),
        (7, 'present in the codebase at base_commit'),
        (8, 'predicted by the codebase''s naming (CONVENTION)'),
        (9, 'not searched'),
        (10, 'certified (AIRTIGHT witnesses)')
    ) AS t(ord, step)
)
SELECT "step", "candidates", "cases" FROM (
    SELECT 'proposed (in the added lines of gold and test)' AS "step", count(*) AS "candidates",
           count(DISTINCT case_id) AS "cases", 1 AS ord
    FROM candidates
    UNION ALL
    SELECT steps.step, count(s.case_id), count(DISTINCT s.case_id), steps.ord
    FROM steps LEFT JOIN settled s ON s.step = steps.step
    GROUP BY steps.step, steps.ord
    HAVING steps.step <> 'not searched' OR count(s.case_id) > 0
) ORDER BY ord;
