-- REPORT.md: the claimable spine per repository, with the same denominators as the whole.
SELECT coalesce(nullif(v.repo, ''), '(rows that did not load)') AS repository,
       count(*) AS cases,
       count(*) FILTER (WHERE v.verdict <> 'ERROR') AS audited,
       count(*) FILTER (WHERE v.verdict = 'ERROR') AS errors,
       count(*) FILTER (WHERE v.verdict IN ('AIRTIGHT', 'MISDETERMINED', 'CODEBASE-PLURAL'))
           AS claimable,
       CASE WHEN audited = 0 THEN 'n/a' ELSE pct(claimable::DOUBLE / audited) END AS rate,
       CASE WHEN audited = 0 THEN 'n/a'
            ELSE pct(wilson_low(claimable, audited)) || ' – '
                 || pct(wilson_high(claimable, audited)) END AS "Wilson 95%"
FROM verdicts v
GROUP BY 1
ORDER BY 1;
