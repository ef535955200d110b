-- Candidates absent from the prose but present in the codebase: the codebase determined them.
SELECT case_id, constant, codebase_at
FROM candidates
WHERE trivial = '' AND prose_match = '' AND codebase_at <> ''
ORDER BY case_id, constant;
