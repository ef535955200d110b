-- Candidates absent from the prose but present in the codebase: the codebase determined them.
SELECT case_id, constant, codebase_at
FROM candidates
WHERE trivial IS NULL AND prose_match IS NULL AND codebase_at IS NOT NULL
ORDER BY case_id, constant;
