-- REPORT.md: what the agent proposed, what the verified evidence supports, and what survived
-- the settlers and the refuter.
SELECT kind AS "proposed as", coalesce(nullif(verdict, ''), '-') AS "evidence supports",
       status AS "status", count(*) AS "witnesses", count(DISTINCT case_id) AS "cases"
FROM agent_witnesses
GROUP BY ALL
ORDER BY "proposed as", "evidence supports", status;
