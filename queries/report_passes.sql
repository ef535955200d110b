-- REPORT.md: the agent passes included, with who answered.
SELECT pass_no AS "pass", agent AS "agent", coalesce(refuter, '') AS "refuter",
       CASE WHEN refuter IS NULL THEN '' WHEN refuter = agent THEN 'yes' ELSE 'no' END
           AS "refuter is the agent", calls AS "agent calls"
FROM passes
ORDER BY pass_no;
