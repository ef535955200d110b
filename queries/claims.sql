-- CLAIMS.md: one row per claimable case, with the constant that certifies it and the receipt.
SELECT v.case_id AS "case",
       v.verdict AS "verdict",
       w.constant AS "constant",
       w.kind AS "kind",
       w.test_at[1] AS "graded at",
       w.gold_at[1] AS "implemented at",
       w.command AS "re-run (expect no output)"
FROM verdicts v
JOIN (SELECT *, row_number() OVER (PARTITION BY case_id ORDER BY length(constant) DESC, constant) AS rk
      FROM witnesses) w ON w.case_id = v.case_id AND w.rk = 1
WHERE v.verdict IN ('AIRTIGHT', 'MISDETERMINED', 'CODEBASE-PLURAL')
ORDER BY v.case_id;
