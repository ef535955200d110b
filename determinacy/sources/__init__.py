"""Sources of benchmark rows and their normalization to Tasks: one entry per kind of source
(`kinds.KINDS`: jsonl, parquet, csv, a Hugging Face dataset, a repository's history)."""
