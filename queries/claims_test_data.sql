-- CLAIMS.md, counted apart: broken tasks whose graded test reads data (a fixture, a golden
-- file, testdata/) that only the gold patch writes. Not in the spine; validity revision 0 has
-- them broken. Re-check: the file's hunk is in the gold patch, not in the test patch, and the
-- test line loads it.
WITH ranked AS (
    SELECT c.*, k.test_data, k.test_data_at, k.gold_at, k.test_at,
           row_number() OVER (PARTITION BY c.case_id
                              ORDER BY length(c.constant) DESC, c.constant) AS rk
    FROM claims c
    JOIN candidates k ON k.case_id = c.case_id AND k.constant = c.constant AND k.certified
    WHERE c.verdict = 'GOLD-TEST-DATA' AND c.case_verdict = 'GOLD-TEST-DATA'
)
SELECT case_id AS "case",
       constant AS "constant",
       test_data AS "file only the gold writes",
       gold_at[1] AS "gold line",
       coalesce(test_data_at, '(a test path)') AS "loaded at",
       test_at[1] AS "graded at"
FROM ranked
WHERE rk = 1
ORDER BY case_id;
