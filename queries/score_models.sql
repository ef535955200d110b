-- SCORES.md, per model: the counts behind every score (determinacy/score/stats.py turns
-- them into rates and intervals). Broken tasks are in no score; a result for an instance
-- the audit does not have is ignored, and counted. `counted` already applies the policy
-- (score_outcomes.sql): under the default, the SWE-bench leaderboard's, a missing or errored
-- task is a fail, so `attempted` is every task of the audit that is not broken. The
-- benchmark_* counts keep the broken tasks too: the benchmark's own number.
WITH o AS (
    SELECT *,
           CASE WHEN f2p_total > 0 THEN greatest(0.0, least(1.0,
                    (f2p_passed - coalesce(p2p_failed, 0))::DOUBLE / f2p_total)) END AS credit
    FROM score_outcomes
)
SELECT m.model,
       count(*) FILTER (WHERE counted IS NOT NULL AND role <> 'broken') AS attempted,
       count(*) FILTER (WHERE counted = 'pass' AND role <> 'broken') AS passed,
       count(*) FILTER (WHERE outcome = 'error' AND role <> 'broken') AS errors,
       count(*) FILTER (WHERE outcome = 'missing' AND role <> 'broken') AS missing,
       count(*) FILTER (WHERE role = 'broken' AND outcome <> 'missing') AS broken,
       (SELECT count(*) FROM score_results r
        WHERE r.model = m.model
          AND r.instance_id NOT IN (SELECT instance_id FROM score_tasks)) AS not_in_audit,
       count(*) FILTER (WHERE counted IS NOT NULL AND role = 'disputed') AS disputed_attempted,
       count(*) FILTER (WHERE counted = 'pass' AND role = 'disputed') AS disputed_passed,
       count(*) FILTER (WHERE counted IS NOT NULL AND role = 'hypothesis')
           AS hypotheses_attempted,
       count(*) FILTER (WHERE counted = 'pass' AND role = 'hypothesis') AS hypotheses_passed,
       count(credit) FILTER (WHERE counted IS NOT NULL AND role <> 'broken') AS partial_tasks,
       avg(credit) FILTER (WHERE counted IS NOT NULL AND role <> 'broken') AS partial_credit,
       avg(credit) FILTER (WHERE counted IS NOT NULL AND role IN ('hypothesis', 'other'))
           AS partial_determinate,
       avg(credit) FILTER (WHERE counted IS NOT NULL AND role = 'disputed') AS partial_disputed,
       count(*) FILTER (WHERE counted IS NOT NULL) AS benchmark_attempted,
       count(*) FILTER (WHERE counted = 'pass') AS benchmark_passed
FROM score_inputs m
JOIN o USING (model)
GROUP BY m.model
ORDER BY m.model
