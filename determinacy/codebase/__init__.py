"""The codebase at base_commit: mirrors, trees and blobs (`repos`), and the search for every
constant of a repository in one pass over its blobs (`search`, `scan`)."""
