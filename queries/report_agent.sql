-- REPORT.md: what the agent proposed and what survived the settlers and the refuter.
SELECT verdict AS "proposed as", status AS "status", count(*) AS "witnesses",
       count(DISTINCT case_id) AS "cases"
FROM agent_witnesses
WHERE verdict <> '' OR status = 'rejected'
GROUP BY ALL
ORDER BY verdict, status;
