-- REPORT.md: what the refuter did to the plural / misdetermined candidates.
SELECT count(*) FILTER (WHERE status = 'contested') AS contested,
       count(*) FILTER (WHERE status = 'claim'
                        AND verdict IN ('MISDETERMINED', 'CODEBASE-PLURAL')) AS survived,
       count(*) FILTER (WHERE status = 'pending') AS pending
FROM agent_witnesses;
