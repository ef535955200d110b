-- determinacy sql examples/demo.toml "$(cat queries/examples/verdict_counts.sql)"
SELECT verdict, count(*) AS cases FROM verdicts GROUP BY verdict ORDER BY cases DESC, verdict;
