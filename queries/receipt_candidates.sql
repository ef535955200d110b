-- RECEIPT.md: every candidate of every case and how it was settled (view `settled`).
SELECT case_id, constant, kind, settled, test_at, gold_at, command, certified, ungraded,
       codebase_variant, test_data, test_data_at, otherwise, absent_from, scope_commands,
       derived_from, generator_input
FROM settled
ORDER BY case_id, certified DESC, constant;
