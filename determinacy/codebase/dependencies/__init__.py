"""A repository's pinned dependencies as sources a solver reads (method §6): which packages
its manifests and lockfiles pin at base (`manifests`), their sources fetched once per
(package, version) with each ecosystem's own protocol (`registries`)."""
