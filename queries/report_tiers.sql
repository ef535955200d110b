-- REPORT.md: cases per verdict class, with the share of audited cases and a Wilson 95% interval.
WITH n AS (
    SELECT count(*) FILTER (WHERE verdict <> 'ERROR') AS audited FROM verdicts
), k AS (
    SELECT verdict, count(*) AS cases FROM verdicts GROUP BY verdict
)
SELECT tiers.verdict AS "verdict",
       tiers.status AS "status",
       coalesce(k.cases, 0) AS "cases",
       CASE WHEN tiers.verdict = 'ERROR' THEN '' ELSE pct(coalesce(k.cases, 0)::DOUBLE / nullif(n.audited, 0)) END AS "share of audited",
       CASE WHEN tiers.verdict = 'ERROR' THEN '' ELSE pct(wilson_low(coalesce(k.cases, 0), n.audited)) || ' – ' || pct(wilson_high(coalesce(k.cases, 0), n.audited)) END AS "Wilson 95%",
       CASE WHEN tiers.settled_by = 'agent' AND (SELECT count(*) FROM agent_calls) = 0
            THEN 'not run (no agent)' ELSE 'ran' END AS "phase"
FROM tiers CROSS JOIN n
LEFT JOIN k ON k.verdict = tiers.verdict
ORDER BY tiers.ord;
