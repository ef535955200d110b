-- REPORT.md's absence scopes: what absence was held over beyond the prose, how many cases
-- each scope was read for, the graded constants found there (so not claimed), and the cases
-- it left partial (a part it could not read). A case's pinned dependencies are one row:
-- which packages a case read is in its receipt. `read`: what was read.
WITH scoped AS (SELECT case_id, unnest(scopes, recursive := true) FROM trees),
unread AS (SELECT case_id, unnest(unread, recursive := true) FROM trees),
found AS (SELECT DISTINCT case_id, constant, step_ord, found_at FROM settled
          WHERE step_ord IN (7, 8, 9, 10)),
rows AS (
    SELECT 0 AS ord, 'tree' AS scope, 'the tree at base_commit' AS "read",
           (SELECT count(*) FROM trees) AS cases,
           (SELECT count(*) FROM found WHERE step_ord = 7) AS removed,
           (SELECT count(DISTINCT case_id) FROM unread WHERE scope IS NULL) AS partial
    UNION ALL
    SELECT 1, 'history', 'first-parent commits before base', count(*) FILTER (WHERE searched),
           (SELECT count(*) FROM found WHERE step_ord = 8),
           (SELECT count(DISTINCT case_id) FROM unread WHERE scope = 'history')
    FROM scoped WHERE scope = 'history'
    HAVING count(*) > 0
    UNION ALL
    SELECT 2, 'stdlib', s."read", count(*),
           (SELECT count(*) FROM found f WHERE f.step_ord = 9
                                           AND starts_with(f.found_at, s."read" || ': ')),
           0
    FROM scoped s WHERE scope = 'stdlib'
    GROUP BY s."read"
    UNION ALL
    SELECT 3, 'stdlib', 'required, not found', count(DISTINCT case_id), 0,
           count(DISTINCT case_id)
    FROM unread WHERE scope = 'stdlib'
    HAVING count(*) > 0
    UNION ALL
    SELECT 4, 'dependencies', 'pinned packages of the manifests at base',
           count(*) FILTER (WHERE searched),
           (SELECT count(*) FROM found WHERE step_ord = 10),
           (SELECT count(DISTINCT case_id) FROM unread WHERE scope = 'dependencies')
    FROM scoped WHERE scope = 'dependencies'
    HAVING count(*) > 0
)
SELECT scope, "read", cases, removed AS constants_found, partial AS cases_partial
FROM rows
ORDER BY ord, "read";
