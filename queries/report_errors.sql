-- REPORT.md: every error, with its message. Transient ones are retried by the next run.
SELECT case_id AS "case",
       "row" AS "row",
       phase AS "phase",
       CASE WHEN transient THEN 'yes' ELSE 'no' END AS "retried next run",
       message AS "message"
FROM errors
ORDER BY "row", case_id, phase, message;
