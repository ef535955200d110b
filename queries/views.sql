-- Views over one benchmark's tables. determinacy loads the parquet files as t_tasks,
-- t_candidates, t_errors and t_run, then runs this file. Every report is a query on these views.

CREATE OR REPLACE MACRO wilson_low(k, n) AS
    CASE WHEN n = 0 THEN NULL ELSE
        ((k::DOUBLE / n) + 1.96 * 1.96 / (2 * n)
         - 1.96 * sqrt((k::DOUBLE / n) * (1 - k::DOUBLE / n) / n + 1.96 * 1.96 / (4 * n * n)))
        / (1 + 1.96 * 1.96 / n) END;

CREATE OR REPLACE MACRO wilson_high(k, n) AS
    CASE WHEN n = 0 THEN NULL ELSE
        ((k::DOUBLE / n) + 1.96 * 1.96 / (2 * n)
         + 1.96 * sqrt((k::DOUBLE / n) * (1 - k::DOUBLE / n) / n + 1.96 * 1.96 / (4 * n * n)))
        / (1 + 1.96 * 1.96 / n) END;

CREATE OR REPLACE MACRO pct(x) AS
    CASE WHEN x IS NULL THEN '' ELSE printf('%.1f%%', 100.0 * x) END;

CREATE OR REPLACE VIEW tasks AS SELECT * FROM t_tasks;
CREATE OR REPLACE VIEW candidates AS SELECT * FROM t_candidates;
CREATE OR REPLACE VIEW errors AS SELECT * FROM t_errors;
CREATE OR REPLACE VIEW run AS SELECT * FROM t_run;

-- The verdict classes of method.md section 4, in report order.
CREATE OR REPLACE VIEW tiers AS
SELECT * FROM (VALUES
    (1, 'AIRTIGHT', 'claimable', 'mechanical'),
    (2, 'MISDETERMINED', 'claimable', 'agent'),
    (3, 'CODEBASE-PLURAL', 'claimable', 'agent'),
    (4, 'DETERMINED-CODEBASE', 'determinate', 'agent'),
    (5, 'ENTAILED', 'determinate', 'agent'),
    (6, 'PROSE-AFFIRMATIVE', 'hypothesis', 'agent'),
    (7, 'BORDERLINE', 'hypothesis', 'agent'),
    (8, 'UNWITNESSED', 'hypothesis', 'agent'),
    (9, 'NO_CLAIM', 'no claim', 'mechanical'),
    (10, 'ERROR', 'excluded, counted', 'any')
) AS t(ord, verdict, status, settled_by);

-- A witness is a certified candidate: every check of method.md section 6 held.
CREATE OR REPLACE VIEW witnesses AS
SELECT case_id, 'AIRTIGHT' AS verdict, constant, kind, gold_at, test_at, command,
       'mechanical' AS proposer
FROM candidates
WHERE certified;

-- One verdict per case: the strongest verified witness; ERROR when the case could not be audited.
CREATE OR REPLACE VIEW verdicts AS
WITH w AS (SELECT case_id, count(*) AS n FROM witnesses GROUP BY case_id),
     c AS (SELECT case_id, count(*) AS n FROM candidates GROUP BY case_id),
     e AS (SELECT case_id, min(phase) AS phase,
                  string_agg(message, '; ' ORDER BY phase, message) AS message,
                  bool_and(transient) AS transient
           FROM errors GROUP BY case_id)
SELECT t.case_id, t.instance_id, t."row", t.repo, t.base_commit,
       CASE WHEN e.case_id IS NOT NULL THEN 'ERROR'
            WHEN coalesce(w.n, 0) > 0 THEN 'AIRTIGHT'
            ELSE 'NO_CLAIM' END AS verdict,
       coalesce(w.n, 0) AS witnesses,
       coalesce(c.n, 0) AS candidates,
       e.phase AS error_phase,
       e.message AS error,
       e.transient AS error_transient
FROM tasks t
LEFT JOIN w ON w.case_id = t.case_id
LEFT JOIN c ON c.case_id = t.case_id
LEFT JOIN e ON e.case_id = t.case_id;
