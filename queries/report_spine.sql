-- REPORT.md: the claimable spine as a floor, with explicit denominators.
SELECT count(*) FILTER (WHERE v.verdict IN ('AIRTIGHT', 'MISDETERMINED', 'CODEBASE-PLURAL')) AS spine,
       count(*) FILTER (WHERE v.verdict <> 'ERROR') AS audited,
       count(*) FILTER (WHERE v.verdict = 'ERROR') AS errors,
       count(*) AS total,
       pct(spine::DOUBLE / nullif(audited, 0)) AS rate,
       pct(wilson_low(spine, audited)) AS low,
       pct(wilson_high(spine, audited)) AS high
FROM verdicts v;
