-- Views over one benchmark's tables. determinacy loads the parquet files as t_tasks,
-- t_candidates, t_errors and t_run, then runs this file. Every report is a query on these views.
-- NULL says "not applicable" in every column (no error, not in the prose, no refuter, a row
-- that did not load): no text column holds '' but `constant`, the literal itself
-- (determinacy/reports/tables.py writes an empty text as NULL). Rates are fractions (0..1),
-- intervals [low, high] lists of fractions.

-- Clamped to [0, rate] and [rate, 1]: at k = 0 or k = n the formula's rounding error
-- would otherwise print as -0.0% or pass 100%.
CREATE OR REPLACE MACRO wilson_low(k, n) AS
    CASE WHEN n = 0 THEN NULL ELSE greatest(0.0, least(k::DOUBLE / n,
        ((k::DOUBLE / n) + 1.96 * 1.96 / (2 * n)
         - 1.96 * sqrt((k::DOUBLE / n) * (1 - k::DOUBLE / n) / n + 1.96 * 1.96 / (4 * n * n)))
        / (1 + 1.96 * 1.96 / n))) END;

CREATE OR REPLACE MACRO wilson_high(k, n) AS
    CASE WHEN n = 0 THEN NULL ELSE least(1.0, greatest(k::DOUBLE / n,
        ((k::DOUBLE / n) + 1.96 * 1.96 / (2 * n)
         + 1.96 * sqrt((k::DOUBLE / n) * (1 - k::DOUBLE / n) / n + 1.96 * 1.96 / (4 * n * n)))
        / (1 + 1.96 * 1.96 / n))) END;

-- The claimable verdicts (method.md section 4; judge.CLAIMABLE): the spine of the floor.
CREATE OR REPLACE MACRO claimable(v) AS v IN ('AIRTIGHT', 'MISDETERMINED', 'CODEBASE-PLURAL');

-- The Wilson 95% interval of k in n as [low, high]; NULL when n = 0.
CREATE OR REPLACE MACRO wilson(k, n) AS
    CASE WHEN n = 0 THEN NULL ELSE [wilson_low(k, n), wilson_high(k, n)] END;

CREATE OR REPLACE VIEW tasks AS SELECT * FROM t_tasks;
CREATE OR REPLACE VIEW candidates AS SELECT * FROM t_candidates;
-- Every error (a case's, or an agent call's), with its `cause` (a stable code of
-- determinacy/causes.py: incomplete_tree, row_unreadable, clone_failed, agent_failed, ...) and
-- `cause_detail` (what sets it apart within its cause: "1 blob missing", "a submodule"; NULL
-- when the cause has no finer kind). REPORT.md and `run` group them by cause.
CREATE OR REPLACE VIEW errors AS SELECT * FROM t_errors;
CREATE OR REPLACE VIEW run AS SELECT * FROM t_run;
-- Agent tiers: every stored pass (the union), one row per call / behavior / proposal.
CREATE OR REPLACE VIEW agent_calls AS SELECT * FROM t_agent_calls;
CREATE OR REPLACE VIEW behaviors AS SELECT * FROM t_behaviors;
CREATE OR REPLACE VIEW agent_witnesses AS SELECT * FROM t_agent_witnesses;
-- The tree each audited case was searched in (full sha), and what of it could not be read
-- (blobs the mirror lacks, submodules). Only policy unreadable = "exclude" lets a case with
-- unread paths get this far; its absence claims are AIRTIGHT-PARTIAL, counted apart. `scopes`
-- lists what else absence held over (recent history, standard libraries, with what was read);
-- an unread part of those is in `unread` with its `scope`.
CREATE OR REPLACE VIEW trees AS SELECT * FROM t_trees;
-- `determinacy score`: one row per model of every stored score set (store/scores/), with the
-- validity revision, policy, dataset hash and results it used. Empty until something is scored.
CREATE OR REPLACE VIEW scores AS SELECT * FROM t_scores;
-- A history source's walk ([source] git): every first-parent commit, the heuristics that
-- found it, whether it became a task (its `row` is the task's) or why it was discarded.
-- Empty for other sources.
CREATE OR REPLACE VIEW commits AS SELECT * FROM t_commits;
-- The pre-screens of task validity (determinacy/prescreens): a row per finding, with the
-- validity it proposes (`determinacy validity CONFIG accept` applies it, never a run).
CREATE OR REPLACE VIEW validity_checks AS SELECT * FROM t_validity_checks;

-- The agent passes the tables include, with the commands that answered.
CREATE OR REPLACE VIEW passes AS
SELECT pass_no,
       string_agg(DISTINCT array_to_string(argv, ' '), '; ') FILTER (WHERE phase <> 'refute')
           AS agent,
       string_agg(DISTINCT array_to_string(argv, ' '), '; ') FILTER (WHERE phase = 'refute')
           AS refuter,
       count(*) AS calls
FROM agent_calls
GROUP BY pass_no;

-- The checks of settle.py in the order it applies them: REPORT.md's funnel lists them all.
-- `code` is the step's stable name (README, "Settle steps"); `step` says it in words.
CREATE OR REPLACE VIEW settle_steps AS
SELECT * FROM (VALUES
    (2, 'nothing_graded',
     'not graded (FAIL_TO_PASS empty, or all its tests name files that do not exist)'),
    (3, 'not_graded', 'not graded by a FAIL_TO_PASS test (outside the tests it runs, or a '
        || 'literal it only feeds in)'),
    (4, 'cannot_certify', 'cannot certify (too short, no letter or digit, common word; data '
        || 'the test feeds in or a table the gold transcribes)'),
    (5, 'does_not_cross', 'names that do not cross the code-test boundary (DefUse)'),
    (6, 'in_prose', 'stated in the prose'),
    (7, 'in_codebase', 'present in the codebase at base_commit'),
    (8, 'in_history', 'present in recent history (first-parent commits before base)'),
    (9, 'in_stdlib', 'present in the standard library'),
    (10, 'in_dependency', 'present in a pinned dependency'),
    (11, 'convention', 'predicted by the codebase''s naming (CONVENTION)'),
    (12, 'not_searched', 'not searched'),
    (13, 'certified', 'certified (AIRTIGHT witnesses)'),
    (14, 'gold_test_data', 'certified: test data only the gold ships (GOLD-TEST-DATA)')
) AS t(ord, code, step);

-- How each candidate was settled: the first check that stopped it (`code` and `step`, for
-- the funnel; `settled` says it in a receipt).
CREATE OR REPLACE VIEW settled AS
WITH c AS (
    SELECT *,
           CASE WHEN certified AND test_data IS NOT NULL THEN 14
                WHEN certified THEN 13 WHEN ungraded IS NOT NULL THEN 2
                WHEN len(graded_by) = 0 THEN 3 WHEN trivial IS NOT NULL THEN 4
                WHEN defuse = 'none' THEN 5 WHEN prose_match IS NOT NULL THEN 6
                WHEN codebase_at IS NOT NULL THEN 7 WHEN found_in = 'history' THEN 8
                WHEN found_in = 'stdlib' THEN 9 WHEN found_in = 'dependencies' THEN 10
                WHEN convention IS NOT NULL THEN 11 ELSE 12 END AS step_ord
    FROM candidates
)
SELECT c.*, s.code, s.step,
       CASE step_ord WHEN 13 THEN 'CERTIFIED'
            WHEN 14 THEN 'CERTIFIED: GOLD-TEST-DATA (only the gold writes ' || test_data || ')'
            WHEN 2 THEN 'not graded: ' || ungraded
            WHEN 3 THEN coalesce(rule, 'not graded by a FAIL_TO_PASS test')
            WHEN 4 THEN 'cannot certify: ' || trivial
            WHEN 5 THEN 'name does not cross: ' || coalesce(rule, '')
            WHEN 6 THEN 'in prose (' || prose_match || ')'
            WHEN 7 THEN 'in codebase: ' || codebase_at
            WHEN 8 THEN 'in ' || found_at
            WHEN 9 THEN 'in the ' || found_at
            WHEN 10 THEN 'in ' || found_at
            WHEN 11 THEN 'CONVENTION (hypothesis): ' || convention
            ELSE 'not searched' END AS settled
FROM c JOIN settle_steps s ON s.ord = c.step_ord;

-- The verdict classes of method.md section 4, in strength order.
CREATE OR REPLACE VIEW tiers AS
SELECT * FROM (VALUES
    (1, 'AIRTIGHT', 'claimable', 'mechanical'),
    (2, 'MISDETERMINED', 'claimable', 'agent'),
    (3, 'CODEBASE-PLURAL', 'claimable', 'agent'),
    (4, 'AIRTIGHT-PARTIAL', 'counted apart (partial tree or images)', 'mechanical'),
    (5, 'GOLD-TEST-DATA', 'counted apart (a broken task: test data only the gold ships)',
     'mechanical'),
    (6, 'DETERMINED-CODEBASE', 'determinate', 'agent'),
    (7, 'CONVENTION', 'hypothesis', 'mechanical'),
    (8, 'PROSE-AFFIRMATIVE', 'hypothesis', 'agent'),
    (9, 'BORDERLINE', 'hypothesis', 'agent'),
    (10, 'UNWITNESSED', 'hypothesis', 'agent'),
    (11, 'ENTAILED', 'determinate', 'agent'),
    (12, 'NO_CLAIM', 'no claim', 'mechanical'),
    (13, 'ERROR', 'excluded, counted', 'any')
) AS t(ord, verdict, status, settled_by);

-- Every witness, mechanical or proposed by an agent, with what the settlers made of it.
-- status: claim (claimable and verified; plural/misdetermined also survived the refuter),
-- determinate, hypothesis, contested (the refuter refuted it), pending (refuter not answered),
-- rejected (a check failed: see reason). pass_no 0 is the mechanical tier.
-- An absence claim over a partial tree is AIRTIGHT-PARTIAL: never part of the spine. So is one
-- over a prose that shows the solver images: the checks read text only, and what they cannot
-- read they cannot call absent. A graded constant only test data of the gold holds is
-- GOLD-TEST-DATA (a broken task, counted apart), whatever the tree holds.
CREATE OR REPLACE VIEW witnesses AS
WITH partial AS (SELECT case_id FROM trees WHERE len(unread) > 0
                 UNION SELECT case_id FROM tasks WHERE len(images) > 0)
SELECT c.case_id, 0 AS pass_no, 'mechanical' AS proposer,
       CASE WHEN test_data IS NOT NULL THEN 'GOLD-TEST-DATA'
            WHEN p.case_id IS NULL THEN 'AIRTIGHT' ELSE 'AIRTIGHT-PARTIAL' END AS verdict,
       'claim' AS status, constant, kind,
       CASE WHEN test_data IS NOT NULL
            THEN 'graded at ' || test_at[1] || '; only in ' || test_data || ' (' || gold_at[1]
                 || '), which the gold patch writes and the test patch does not'
                 || CASE WHEN test_data_at IS NOT NULL THEN '; loaded at ' || test_data_at
                         ELSE '; a test path' END
            ELSE 'graded at ' || test_at[1] || '; implemented at ' || gold_at[1] END
           AS evidence,
       command, NULL::VARCHAR AS reason, NULL::VARCHAR AS refuter
FROM candidates c LEFT JOIN partial p ON p.case_id = c.case_id
WHERE certified
UNION ALL
-- A constant that passed every check but that the codebase's own naming predicts: a
-- hypothesis with its sibling as evidence, never a claim.
SELECT case_id, 0 AS pass_no, 'mechanical' AS proposer, 'CONVENTION' AS verdict,
       'hypothesis' AS status, constant, kind,
       'convention: ' || convention || '; graded at ' || test_at[1] AS evidence,
       command, NULL::VARCHAR AS reason, NULL::VARCHAR AS refuter
FROM candidates
WHERE convention IS NOT NULL
UNION ALL
SELECT a.case_id, pass_no, 'agent' AS proposer,
       CASE WHEN verdict = 'AIRTIGHT' AND p.case_id IS NOT NULL THEN 'AIRTIGHT-PARTIAL'
            ELSE verdict END AS verdict,
       status, constant, kind,
       CASE WHEN verdict = 'AIRTIGHT'
                THEN 'test: ' || coalesce(test_assertion, '') || '; gold: '
                     || coalesce(gold_anchor, '')
            WHEN verdict = 'PROSE-AFFIRMATIVE' THEN 'prose: ' || coalesce(prose_clause, '')
            -- Verified precedents, the gold's value, the pinning test line; NULL: none.
            ELSE nullif(array_to_string(list_transform(
                     list_filter(precedents, lambda p: p.verified),
                     lambda p: p.path || ':' || p.line || ' (' || coalesce(p."value", '')
                               || ')'), '; ')
                 || CASE WHEN gold_value IS NOT NULL THEN '; gold: ' || gold_value ELSE '' END
                 -- The test line that pins the gold's choice (verified in the test patch).
                 || CASE WHEN verdict IN ('MISDETERMINED', 'CODEBASE-PLURAL')
                              AND test_assertion IS NOT NULL
                         THEN '; pinned by the test: ' || test_assertion ELSE '' END, '')
       END AS evidence,
       command, reason, refuter
FROM agent_witnesses a LEFT JOIN partial p ON p.case_id = a.case_id;

-- One verdict per case: the strongest verified witness over all passes; without one, what the
-- screen found; ERROR when the case itself could not be audited (agent failures are listed in
-- `errors` but never erase what other phases verified).
CREATE OR REPLACE VIEW verdicts AS
WITH best AS (
    SELECT w.case_id, min(tiers.ord) AS ord, count(*) AS n
    FROM witnesses w JOIN tiers ON tiers.verdict = w.verdict
    WHERE w.status IN ('claim', 'determinate', 'hypothesis')
    GROUP BY w.case_id
), screen AS (
    SELECT case_id,
           count(*) FILTER (WHERE label = 'GAP') AS gaps,
           count(*) FILTER (WHERE label = 'COVERED') AS covered
    FROM behaviors GROUP BY case_id
), c AS (
    SELECT case_id, count(*) AS n FROM candidates GROUP BY case_id
), e AS (
    SELECT case_id, min(phase) AS phase,
           string_agg(message, '; ' ORDER BY phase, message) AS message,
           bool_and(transient) AS transient
    FROM errors
    WHERE phase IN ('load', 'propose', 'codebase', 'settle')
    GROUP BY case_id
)
SELECT t.case_id, t.instance_id, t."row", t.repo,
       coalesce(tr.commit, t.base_commit) AS base_commit,
       CASE WHEN e.case_id IS NOT NULL THEN 'ERROR'
            WHEN best.ord IS NOT NULL THEN (SELECT verdict FROM tiers WHERE ord = best.ord)
            WHEN coalesce(screen.gaps, 0) > 0 THEN 'UNWITNESSED'
            WHEN coalesce(screen.covered, 0) > 0 THEN 'ENTAILED'
            ELSE 'NO_CLAIM' END AS verdict,
       coalesce(best.n, 0) AS witnesses,
       coalesce(c.n, 0) AS candidates,
       screen.gaps AS gaps,
       e.phase AS error_phase,
       e.message AS error,
       e.transient AS error_transient,
       coalesce(len(tr.unread), 0) AS unread_paths
FROM tasks t
LEFT JOIN trees tr ON tr.case_id = t.case_id
LEFT JOIN best ON best.case_id = t.case_id
LEFT JOIN screen ON screen.case_id = t.case_id
LEFT JOIN c ON c.case_id = t.case_id
LEFT JOIN e ON e.case_id = t.case_id;

-- Claims: every verified witness of a claimable class, with the pass that first found it.
CREATE OR REPLACE VIEW claims AS
SELECT v.case_id, v.verdict AS case_verdict, w.verdict, w.constant, w.evidence, w.command,
       min(w.pass_no) AS first_pass, w.proposer, w.refuter
FROM verdicts v
JOIN witnesses w ON w.case_id = v.case_id
WHERE w.status = 'claim'
  AND (claimable(w.verdict) OR w.verdict IN ('AIRTIGHT-PARTIAL', 'GOLD-TEST-DATA'))
GROUP BY ALL;
