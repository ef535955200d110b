-- SCORES.md, pairs: two models on their common eligible set only (the tasks both attempted,
-- none broken), with the discordant counts of McNemar's test and the disputed tasks of the
-- set (each model's sensitivity interval there).
SELECT a.model AS model_a, b.model AS model_b,
       count(*) AS common,
       count(*) FILTER (WHERE a.counted = 'pass') AS a_passed,
       count(*) FILTER (WHERE b.counted = 'pass') AS b_passed,
       count(*) FILTER (WHERE a.counted = 'pass' AND b.counted = 'fail') AS a_only,
       count(*) FILTER (WHERE a.counted = 'fail' AND b.counted = 'pass') AS b_only,
       count(*) FILTER (WHERE a.role = 'disputed') AS disputed,
       count(*) FILTER (WHERE a.role = 'disputed' AND a.counted = 'pass') AS a_disputed_passed,
       count(*) FILTER (WHERE a.role = 'disputed' AND b.counted = 'pass') AS b_disputed_passed
FROM score_outcomes a
JOIN score_outcomes b ON b.instance_id = a.instance_id AND a.model < b.model
WHERE a.counted IS NOT NULL AND b.counted IS NOT NULL AND a.role <> 'broken'
GROUP BY a.model, b.model
ORDER BY a.model, b.model
