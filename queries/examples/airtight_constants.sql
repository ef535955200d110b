-- Every certified constant, with where the test grades it and the command that re-checks it.
SELECT case_id, constant, kind, test_at[1] AS graded_at, command
FROM witnesses
ORDER BY case_id, constant;
