-- REPORT.md's validity checks: per pre-screen (determinacy/prescreens), the cases it flagged
-- and the validity revisions it proposes (applied only by `determinacy validity CONFIG
-- accept`). Every pre-screen is listed, the ones that flagged nothing too. `gold-run` reads
-- the harness's runs of the gold ([validity] gold_runs): none given, it flags nothing.
WITH screens(ord, prescreen, finds) AS (VALUES
    (1, 'leaked', 'LEAKED: the prose holds the gold''s change'),
    (2, 'test-ids', 'UNRUNNABLE: a FAIL_TO_PASS id no test answers'),
    (3, 'gold-run', 'GOLD-FAILS / GOLD-FLAKY: the gold in its own grader''s runs'),
    (4, 'underivable', 'RECALL-ONLY: a graded digest, UUID, key, blob or timestamp'),
    (5, 'self-capturing', 'SELF-CAPTURING: a test that writes its expected output'),
    (6, 'duplicate', 'DUPLICATE: the same gold, or the same prose, as an earlier task'))
SELECT s.prescreen, s.finds,
       count(DISTINCT v.case_id) AS cases,
       count(*) FILTER (WHERE v.proposed = 'broken') AS proposed_broken,
       count(*) FILTER (WHERE v.proposed = 'disputed') AS proposed_disputed
FROM screens s LEFT JOIN validity_checks v USING (prescreen)
GROUP BY s.ord, s.prescreen, s.finds
ORDER BY s.ord
