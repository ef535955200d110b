-- REPORT.md: every error, listed under its cause (`determinacy.causes`), with its message's
-- first line (the receipt has it whole). Transient ones are retried by the next run.
SELECT cause AS "cause",
       case_id AS "case",
       "row" AS "row",
       phase AS "phase",
       CASE WHEN transient THEN 'yes' ELSE 'no' END AS "retried next run",
       split_part(message, chr(10), 1) AS "message"
FROM errors
ORDER BY cause, "row", case_id, phase, message;
