"""Sources of benchmark rows (jsonl, parquet, csv, a Hugging Face dataset, a repository's
history) and their normalization to Tasks."""
