-- REPORT.md: what became of the mechanical proposer's candidates (audited cases only).
SELECT "step", "candidates", "cases" FROM (
SELECT 'proposed (in the added lines of gold and test)' AS "step", count(*) AS "candidates",
       count(DISTINCT case_id) AS "cases", 1 AS ord FROM candidates
UNION ALL
SELECT 'not graded (FAIL_TO_PASS empty, or all its tests name files that do not exist)', count(*),
       count(DISTINCT case_id), 2
FROM candidates WHERE ungraded <> ''
UNION ALL
SELECT 'trivial (too short, no letter or digit, common word)', count(*), count(DISTINCT case_id), 3
FROM candidates WHERE ungraded = '' AND trivial <> ''
UNION ALL
SELECT 'names that do not cross the code-test boundary (DefUse)', count(*),
       count(DISTINCT case_id), 4
FROM candidates WHERE ungraded = '' AND trivial = '' AND defuse = 'none'
UNION ALL
SELECT 'stated in the prose', count(*), count(DISTINCT case_id), 5
FROM candidates WHERE ungraded = '' AND trivial = '' AND defuse <> 'none' AND prose_match <> ''
UNION ALL
SELECT 'present in the codebase at base_commit', count(*), count(DISTINCT case_id), 6
FROM candidates WHERE ungraded = '' AND trivial = '' AND defuse <> 'none' AND prose_match = ''
                  AND codebase_at <> ''
UNION ALL
SELECT 'certified (AIRTIGHT witnesses)', count(*), count(DISTINCT case_id), 7
FROM candidates WHERE certified
) ORDER BY ord;
