-- RECEIPT.md: every candidate of every case and how it was settled.
SELECT case_id,
       constant,
       kind,
       CASE WHEN certified THEN 'CERTIFIED'
            WHEN ungraded <> '' THEN 'not graded: ' || ungraded
            WHEN trivial <> '' THEN 'trivial: ' || trivial
            WHEN defuse = 'none' THEN 'name does not cross: neither or both patches define it'
            WHEN prose_match <> '' THEN 'in prose (' || prose_match || ')'
            WHEN codebase_at <> '' THEN 'in codebase: ' || codebase_at
            ELSE 'not searched' END AS settled,
       test_at,
       gold_at,
       command,
       certified,
       ungraded
FROM candidates
ORDER BY case_id, certified DESC, constant;
