-- REPORT.md: ERROR cases by phase. Transient ones are retried by the next run.
SELECT phase AS "phase",
       count(DISTINCT case_id) AS "cases",
       count(*) FILTER (WHERE transient) AS "retried next run",
       string_agg(DISTINCT case_id, ', ' ORDER BY case_id) AS "case ids"
FROM errors
GROUP BY phase
ORDER BY phase;
