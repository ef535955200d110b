-- REPORT.md and `run`'s end-of-run lines: how many cases each cause has, by what sets them
-- apart within it ("1 blob missing", "a submodule"; '' when the cause has no finer kind).
-- A case counts once per cause, with its first detail: a cause's cases are the sum.
WITH per_case AS (
    SELECT cause, case_id, min(coalesce(cause_detail, '')) AS detail
    FROM errors
    GROUP BY cause, case_id
)
SELECT cause, detail, count(*) AS cases
FROM per_case
GROUP BY cause, detail
ORDER BY cause, detail;
