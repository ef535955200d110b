-- REPORT.md: the claimable spine per language: a case's language is the one most of its
-- shared constants are written in (the gold's and the test's files show it).
WITH lang AS (
    SELECT case_id, mode(language ORDER BY language) AS language
    FROM candidates WHERE language <> ''
    GROUP BY case_id
)
SELECT coalesce(l.language, '(no shared constant)') AS language,
       count(*) AS cases,
       count(*) FILTER (WHERE v.verdict <> 'ERROR') AS audited,
       count(*) FILTER (WHERE v.verdict = 'ERROR') AS errors,
       count(*) FILTER (WHERE v.verdict IN ('AIRTIGHT', 'MISDETERMINED', 'CODEBASE-PLURAL'))
           AS claimable,
       CASE WHEN audited = 0 THEN 'n/a' ELSE pct(claimable::DOUBLE / audited) END AS rate,
       CASE WHEN audited = 0 THEN 'n/a'
            ELSE pct(wilson_low(claimable, audited)) || ' – '
                 || pct(wilson_high(claimable, audited)) END AS "Wilson 95%"
FROM verdicts v LEFT JOIN lang l USING (case_id)
GROUP BY 1
ORDER BY 1;
