"""The mechanical proposer: constants the hidden test grades and the gold patch makes (method
§5.1a, §7), read from post-images; pure, but for its process pool."""
