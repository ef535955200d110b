-- CLAIMS.md: one row per claimable case: its strongest claim, the pass that first certified
-- it (0 = the mechanical tier, no agent), the receipt to re-run, and for an absence claim
-- the scopes it held over, and the case's validity checks.
WITH ranked AS (
    SELECT c.*, row_number() OVER (
               PARTITION BY c.case_id
               ORDER BY tiers.ord, c.first_pass, length(c.constant) DESC, c.constant, c.evidence
           ) AS rk
    FROM claims c JOIN tiers ON tiers.verdict = c.verdict
)
SELECT case_id AS "case",
       case_verdict AS "verdict",
       CASE WHEN first_pass = 0 THEN 'mechanical' ELSE 'pass ' || first_pass END AS "first certified",
       constant AS "constant",
       evidence AS "evidence",
       command AS "re-run",
       CASE WHEN verdict LIKE 'AIRTIGHT%' THEN 'no output'
            WHEN verdict = 'GOLD-TEST-DATA' THEN 'the file in the gold patch, not in the test patch'
            ELSE 'each value, in each file' END AS "expect",
       -- What absence held over (AIRTIGHT): each scope's name, its receipt says the rest.
       (SELECT nullif(array_to_string(list_transform(first(k.absent_from),
                            lambda x: split_part(split_part(x, ' at ', 1), ':', 1)), '; '), '')
                 FROM candidates k
                 WHERE k.case_id = ranked.case_id AND k.constant = ranked.constant
                   AND k.certified AND ranked.verdict LIKE 'AIRTIGHT%') AS "absent from",
       -- The pre-screens' findings on the case (REPORT.md, Validity checks): a RECALL-ONLY
       -- literal goes with the AIRTIGHT evidence it is.
       (SELECT string_agg(DISTINCT v.verdict, ', ' ORDER BY v.verdict) FROM validity_checks v
         WHERE v.case_id = ranked.case_id) AS "validity checks"
FROM ranked
WHERE rk = 1 AND claimable(case_verdict)
ORDER BY case_id;
