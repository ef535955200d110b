-- CLAIMS.md, counted apart: absence claims certified over a partial tree (policy
-- unreadable = "exclude") or a prose with images, with what was not read. Not in the spine.
WITH ranked AS (
    SELECT c.*, row_number() OVER (
               PARTITION BY c.case_id
               ORDER BY c.first_pass, length(c.constant) DESC, c.constant, c.evidence
           ) AS rk
    FROM claims c
    WHERE c.verdict = 'AIRTIGHT-PARTIAL'
)
SELECT r.case_id AS "case",
       CASE WHEN r.first_pass = 0 THEN 'mechanical' ELSE 'pass ' || r.first_pass END
           AS "first certified",
       r.constant AS "constant",
       r.command AS "re-run",
       array_to_string(list_transform(t.unread, lambda u: u.path || ' (' || u.why
           || CASE WHEN u.why = 'submodule' THEN ''
                   WHEN u.size IS NOT NULL THEN ', ' || u.size || ' bytes'
                   ELSE ', size unknown' END
           || ')')
           || list_transform(k.images, lambda i: 'image ' || i), '; ') AS "not read"
FROM ranked r JOIN trees t ON t.case_id = r.case_id JOIN tasks k ON k.case_id = r.case_id
WHERE r.rk = 1 AND r.case_verdict = 'AIRTIGHT-PARTIAL'
ORDER BY r.case_id;
