-- REPORT.md: the claimable spine as a floor, with explicit denominators. AIRTIGHT-PARTIAL
-- (absence over a partial tree, or a prose with images) is counted apart, never in the floor.
SELECT count(*) FILTER (WHERE claimable(v.verdict)) AS spine,
       count(*) FILTER (WHERE v.verdict <> 'ERROR') AS audited,
       count(*) FILTER (WHERE v.verdict = 'ERROR') AS errors,
       count(*) FILTER (WHERE v.verdict = 'AIRTIGHT-PARTIAL') AS partial,
       -- Broken tasks: the graded test reads data only the gold patch ships.
       count(*) FILTER (WHERE v.verdict = 'GOLD-TEST-DATA') AS test_data,
       count(*) FILTER (WHERE v.verdict = 'ERROR' AND v.error LIKE '%incomplete tree%') AS incomplete,
       -- Cases whose prose links images: the text checks cannot read them (their absence
       -- claims are AIRTIGHT-PARTIAL; a MISDETERMINED or CODEBASE-PLURAL one stays).
       count(*) FILTER (WHERE v.verdict <> 'ERROR' AND len(t.images) > 0) AS images,
       count(*) FILTER (WHERE claimable(v.verdict)
                        AND len(t.images) > 0) AS images_spine,
       count(*) AS total,
       pct(spine::DOUBLE / nullif(audited, 0)) AS rate,
       pct(wilson_low(spine, audited)) AS low,
       pct(wilson_high(spine, audited)) AS high
FROM verdicts v
LEFT JOIN tasks t ON t.case_id = v.case_id;
