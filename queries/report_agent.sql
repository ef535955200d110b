-- REPORT.md: what the agent proposed, what the verified evidence supports (NULL: nothing),
-- and what survived the settlers and the refuter.
SELECT kind AS proposed_as, verdict AS evidence_supports, status,
       count(*) AS witnesses, count(DISTINCT case_id) AS cases
FROM agent_witnesses
GROUP BY ALL
ORDER BY proposed_as, evidence_supports NULLS FIRST, status;
