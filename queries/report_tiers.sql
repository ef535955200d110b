-- REPORT.md: cases per verdict class, with the share of audited cases (a fraction) and its
-- Wilson 95% interval ([low, high]); both NULL for ERROR, which is not audited. `ran`: false
-- for an agent's class when no agent ran.
WITH n AS (
    SELECT count(*) FILTER (WHERE verdict <> 'ERROR') AS audited FROM verdicts
), k AS (
    SELECT verdict, count(*) AS cases FROM verdicts GROUP BY verdict
)
SELECT tiers.verdict,
       tiers.status,
       coalesce(k.cases, 0) AS cases,
       CASE WHEN tiers.verdict <> 'ERROR'
            THEN coalesce(k.cases, 0)::DOUBLE / nullif(n.audited, 0) END AS share,
       CASE WHEN tiers.verdict <> 'ERROR'
            THEN wilson(coalesce(k.cases, 0), n.audited) END AS wilson_95,
       NOT (tiers.settled_by = 'agent' AND (SELECT count(*) FROM agent_calls) = 0) AS ran
FROM tiers CROSS JOIN n
LEFT JOIN k ON k.verdict = tiers.verdict
ORDER BY tiers.ord;
