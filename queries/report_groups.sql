-- REPORT.md: the claimable spine per repository and per language, with the same
-- denominators as the whole. A case's language is the one most of its shared constants are
-- written in (the gold's and the test's files show it). `rate` is a fraction and
-- `wilson_95` its [low, high], both NULL when nothing of the group was audited.
WITH lang AS (
    SELECT case_id, mode(language ORDER BY language) AS language
    FROM candidates WHERE language IS NOT NULL
    GROUP BY case_id
), dims AS (
    SELECT 'repository' AS dimension,
           coalesce(repo, '(rows that did not load)') AS "group", verdict
    FROM verdicts
    UNION ALL
    SELECT 'language', coalesce(l.language, '(no shared constant)'), v.verdict
    FROM verdicts v LEFT JOIN lang l USING (case_id)
)
SELECT dimension, "group",
       count(*) AS cases,
       count(*) FILTER (WHERE verdict <> 'ERROR') AS audited,
       count(*) FILTER (WHERE verdict = 'ERROR') AS errors,
       count(*) FILTER (WHERE claimable(verdict))
           AS claimable,
       claimable::DOUBLE / nullif(audited, 0) AS rate,
       wilson(claimable, audited) AS wilson_95
FROM dims
GROUP BY dimension, "group"
ORDER BY dimension DESC, "group";
