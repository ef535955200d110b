-- Declaration hints (method §7): the identifiers of each case that cross the code-test
-- boundary, that a FAIL_TO_PASS test grades and that base_commit does not have. `claim`: the
-- name is a certified AIRTIGHT witness, which a hint naming it would repair.
SELECT case_id, constant AS name, decl, defined_at, owner, new_file, signature,
       certified AND test_data IS NULL AS claim
FROM candidates
WHERE kind = 'identifier' AND defuse IN ('gold→test', 'test→gold') AND len(graded_by) > 0
  AND trivial IS NULL AND codebase_at IS NULL AND ungraded IS NULL
ORDER BY case_id, defined_at, name;
