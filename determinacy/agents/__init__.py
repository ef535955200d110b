"""The agent tiers (method §3-§5): calling an agent under supervision (`calls`, `supervise`),
the per-pass phases (`phases`) and the checks that settle what it proposed (`checks`)."""
