-- REPORT.md: what declaration hints would change. A claim on a name is repaired by a hint
-- that declares it; a literal (a message, a number) no hint can repair without stating it.
-- `claims` is NULL where a row counts cases only.
WITH air AS (
    SELECT w.case_id, w.kind FROM witnesses w JOIN verdicts v USING (case_id)
    WHERE w.proposer = 'mechanical' AND w.verdict = 'AIRTIGHT' AND v.verdict = 'AIRTIGHT'
), per_case AS (
    SELECT case_id, bool_and(kind = 'identifier') AS all_names FROM air GROUP BY case_id
), named AS (
    SELECT DISTINCT case_id FROM candidates
    WHERE kind = 'identifier' AND defuse IN ('gold→test', 'test→gold') AND len(graded_by) > 0
      AND trivial IS NULL AND codebase_at IS NULL AND ungraded IS NULL
)
SELECT code, what, claims, cases FROM (
SELECT 'hinted' AS code,
       'cases with hinted identifiers (new names that cross the code-test boundary)' AS what,
       NULL::BIGINT AS claims, (SELECT count(*) FROM named) AS cases, 1 AS ord
UNION ALL
SELECT 'repaired_claims', 'AIRTIGHT claims a hint would repair (names)',
       (SELECT count(*) FROM air WHERE kind = 'identifier'),
       (SELECT count(DISTINCT case_id) FROM air WHERE kind = 'identifier'), 2
UNION ALL
SELECT 'repaired_cases', 'AIRTIGHT cases every claim of which a hint would repair',
       NULL, (SELECT count(*) FROM per_case WHERE all_names), 3
UNION ALL
SELECT 'unrepairable_claims', 'AIRTIGHT claims no hint can repair (literals)',
       (SELECT count(*) FROM air WHERE kind <> 'identifier'),
       (SELECT count(DISTINCT case_id) FROM air WHERE kind <> 'identifier'), 4
) ORDER BY ord;
