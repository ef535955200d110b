-- REPORT.md: the agent passes included, with who answered (`refuter` NULL: none did).
SELECT pass_no, agent, refuter, refuter = agent AS refuter_is_agent, calls AS agent_calls
FROM passes
ORDER BY pass_no;
