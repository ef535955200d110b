-- REPORT.md, a history source ([source] git): how sound the mining is. Every first-parent
-- commit walked, merges left out, what each heuristic found (candidates) and what became of
-- them (tasks, audited, claimable), and why the other candidates were discarded. No row for
-- other sources (their commits table is empty). `kind`: walked, candidates, merges (one row
-- each), heuristic, discarded (a row per heuristic, per reason).
WITH c AS (
    SELECT c.*, v.verdict
    FROM commits c
    LEFT JOIN verdicts v ON c.task AND c."row" > 0 AND v."row" = c."row"
), h AS (
    SELECT unnest(found_by) AS heuristic, task, verdict FROM c WHERE "row" > 0
)
SELECT kind, item, commits, tasks, audited, claimable FROM (
SELECT 'walked' AS kind, 'first-parent commits walked (merges left out)' AS item,
       count(*) AS commits,
       count(*) FILTER (WHERE task) AS tasks,
       count(*) FILTER (WHERE verdict IS NOT NULL AND verdict <> 'ERROR') AS audited,
       count(*) FILTER (WHERE claimable(verdict))
           AS claimable,
       0 AS ord
FROM c WHERE "row" > 0 HAVING count(*) > 0
UNION ALL
SELECT 'candidates', 'candidates (found by at least one heuristic)',
       count(*), count(*) FILTER (WHERE task),
       count(*) FILTER (WHERE verdict IS NOT NULL AND verdict <> 'ERROR'),
       count(*) FILTER (WHERE claimable(verdict)), 1
FROM c WHERE "row" > 0 AND len(found_by) > 0 HAVING count(*) > 0
UNION ALL
SELECT 'merges', 'merges on the first-parent line (never tasks)', count(*), 0, 0, 0, 2
FROM c WHERE "row" IS NULL HAVING count(*) > 0
UNION ALL
SELECT 'heuristic', heuristic, count(*), count(*) FILTER (WHERE task),
       count(*) FILTER (WHERE verdict IS NOT NULL AND verdict <> 'ERROR'),
       count(*) FILTER (WHERE claimable(verdict)), 3
FROM h GROUP BY heuristic
UNION ALL
SELECT 'discarded', discarded, count(*), 0, 0, 0, 4
FROM c WHERE "row" > 0 AND discarded IS NOT NULL GROUP BY discarded
) ORDER BY ord, commits DESC, item;
