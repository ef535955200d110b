"""Views of the store: the tables in DuckDB (`query`), runs/<benchmark>/ (`render`, `hints`,
`plot`), the Markdown writers (`markdown`) and the parquet tables (`tables`)."""
