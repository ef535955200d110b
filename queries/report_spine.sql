-- REPORT.md: the claimable spine as a floor, with explicit denominators. AIRTIGHT-PARTIAL
-- (absence over a partial tree, or a prose with images) is counted apart, never in the floor.
-- `rate` is a fraction (NULL when nothing was audited), `wilson_95` its [low, high].
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
       -- Rows that loaded but grade nothing: FAIL_TO_PASS empty (a mapping that misses the
       -- columns the benchmark grades, or rows broken at the source).
       count(*) FILTER (WHERE t.loaded AND len(t.fail_to_pass) = 0) AS fail_to_pass_empty,
       count(*) AS total,
       spine::DOUBLE / nullif(audited, 0) AS rate,
       wilson(spine, audited) AS wilson_95
FROM verdicts v
LEFT JOIN tasks t ON t.case_id = v.case_id;
