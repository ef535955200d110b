-- SCORES.md: how often the models solved the tasks of each verdict class, and of each
-- validity state at the chosen revision, with the counts (a task of any validity: this
-- table is about the tasks, not about a model's score).
WITH per_task AS (
    SELECT instance_id, verdict, ord, status, validity,
           count(*) FILTER (WHERE counted IS NOT NULL) AS attempts,
           count(*) FILTER (WHERE counted = 'pass') AS passes
    FROM score_outcomes
    GROUP BY ALL
), dims AS (
    SELECT 'verdict' AS dimension, verdict AS "group", ord, status, attempts, passes
    FROM per_task
    UNION ALL
    SELECT 'validity', validity,
           CASE validity WHEN 'disputed' THEN 1 WHEN 'unreviewed' THEN 2 WHEN 'valid' THEN 3
                ELSE 4 END,
           'validity', attempts, passes
    FROM per_task
)
SELECT dimension, "group", status,
       count(*) AS tasks,
       sum(attempts)::BIGINT AS attempts,
       sum(passes)::BIGINT AS passes,
       count(*) FILTER (WHERE attempts > 0 AND passes = 0) AS solved_by_none,
       count(*) FILTER (WHERE attempts > 0 AND passes = attempts) AS solved_by_all
FROM dims
GROUP BY dimension, "group", ord, status
ORDER BY dimension DESC, ord, "group"
