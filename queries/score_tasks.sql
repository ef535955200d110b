-- SCORES.md: every task of the audit once (by instance_id), with its verdict class and its
-- validity at the chosen revision. Revision 0 derives validity from the verdict: a claimable
-- case (an absence over a partial tree included) is disputed, a GOLD-TEST-DATA one broken (its
-- test reads a file only the gold patch writes), every other unreviewed; the
-- revisions applied (score_validity.state, the last per task) override it. `role` says how a score
-- counts the task: disputed (the sensitivity interval), hypothesis (an unreviewed task whose
-- verdict is a hypothesis: the wider band), broken (left out of every score), other.
WITH t AS (
    SELECT v.instance_id, v.case_id, v.verdict, tiers.ord, tiers.status
    FROM verdicts v JOIN tiers USING (verdict)
    WHERE v.instance_id IS NOT NULL AND v.instance_id <> ''
    -- A duplicate row of a task is an ERROR case with the same id: the task is the other.
    QUALIFY row_number() OVER (PARTITION BY v.instance_id
                               ORDER BY v.verdict = 'ERROR', v.case_id) = 1
)
SELECT t.instance_id, t.case_id, t.verdict, t.ord, t.status,
       CASE WHEN claimable(t.verdict) OR t.verdict = 'AIRTIGHT-PARTIAL' THEN 'disputed'
            -- The graded test reads a file only the gold writes: no other fix can pass.
            WHEN t.verdict = 'GOLD-TEST-DATA' THEN 'broken'
            ELSE 'unreviewed' END AS derived,
       coalesce(r.state, derived) AS validity,
       CASE WHEN validity IN ('disputed', 'broken') THEN validity
            WHEN validity = 'unreviewed' AND t.status = 'hypothesis' THEN 'hypothesis'
            ELSE 'other' END AS role
FROM t LEFT JOIN score_validity r USING (instance_id)
