-- SCORES.md: each model's outcome on each task of the audit, and what the policy counts it
-- as (`counted`: pass, fail, or NULL when left out). A task the results do not name is
-- missing (or a fail, for a format that lists only the exceptions: score_inputs.unnamed).
-- The policy (score_policy; determinacy/score/policy.py) makes errors and missing tasks fails
-- (`fail`: the SWE-bench leaderboard's convention, the default) or leaves them out, counted
-- apart (`exclude`, --attempted-only).
SELECT m.model, t.instance_id, t.verdict, t.ord, t.status, t.validity, t.role,
       coalesce(r.outcome, m.unnamed) AS outcome,
       CASE WHEN coalesce(r.outcome, m.unnamed) IN ('pass', 'fail')
                THEN coalesce(r.outcome, m.unnamed)
            WHEN coalesce(r.outcome, m.unnamed) = 'error' AND p.errors = 'fail' THEN 'fail'
            WHEN coalesce(r.outcome, m.unnamed) = 'missing' AND p.missing = 'fail' THEN 'fail'
       END AS counted,
       r.f2p_passed, r.f2p_total, r.p2p_failed
FROM score_inputs m
CROSS JOIN score_tasks t
CROSS JOIN score_policy p
LEFT JOIN score_results r ON r.model = m.model AND r.instance_id = t.instance_id
