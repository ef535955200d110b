"""Pure statistics of scores: no I/O, no DuckDB. Each function is checked by hand in
tests/test_score.py."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction

Z95 = 1.96  # the z of queries/views.sql's wilson_low / wilson_high


def rate(k: int, n: int) -> float | None:
    return k / n if n else None


def wilson(k: int, n: int, z: float = Z95) -> tuple[float | None, float | None]:
    """Wilson score interval of k successes in n trials (the formula of views.sql, clamped
    as there to [0, rate] and [rate, 1])."""
    if n == 0:
        return None, None
    p = k / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return max(0.0, min(p, (centre - spread) / scale)), min(1.0, max(p, (centre + spread) / scale))


def sensitivity(passed: int, disputed_passed: int, disputed: int,
                attempted: int) -> tuple[float | None, float | None]:
    """The score if every disputed task counted against the model .. and for it: the passes
    on the other tasks over all attempted, then those plus every disputed task."""
    if attempted == 0:
        return None, None
    rest = passed - disputed_passed
    return rest / attempted, (rest + disputed) / attempted


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Exact two-sided McNemar p-value: under the null each discordant pair goes either way
    with probability 1/2, so p = 2 * P(X <= min(a_only, b_only)), X ~ Binomial(n, 1/2),
    capped at 1 (and 1 when there is no discordant pair)."""
    n = a_only + b_only
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(a_only, b_only) + 1))
    return float(min(Fraction(1), Fraction(2 * tail, 2**n)))


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's tau-b of two paired samples: (concordant - discordant) / sqrt((n0 - ties in
    x) * (n0 - ties in y)) over all pairs; None when either side is all tied (or n < 2)."""
    if len(x) != len(y):
        raise ValueError("tau needs paired samples")
    concordant = discordant = ties_x = ties_y = pairs = 0
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            pairs += 1
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0:
                ties_x += 1
            if dy == 0:
                ties_y += 1
            if dx == 0 or dy == 0:
                continue
            if (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    denominator = math.sqrt((pairs - ties_x) * (pairs - ties_y))
    if denominator == 0:
        return None
    return (concordant - discordant) / denominator


def percentile(values: Sequence[float], q: float) -> float | None:
    """The q-th percentile (0..100) by linear interpolation between order statistics (the
    usual definition: numpy's default, R's type 7)."""
    if not values:
        return None
    s = sorted(values)
    pos = (len(s) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def ranks(scores: Sequence[float | None]) -> list[int]:
    """Competition ranks, best (highest) first: ties share a rank, None ranks last."""
    key = [(-s if s is not None else math.inf) for s in scores]
    return [1 + sum(k < mine for k in key) for mine in key]


def random_removal_taus(base: Sequence[float], attempted: Sequence[frozenset[str]],
                        passed: Sequence[frozenset[str]], pool: Sequence[str], removed: int,
                        draws: int, seed: int) -> list[float | None]:
    """Kendall tau-b between `base` (each model's score) and each model's score after
    removing `removed` tasks drawn at random from `pool`, for `draws` draws of
    random.Random(seed). A model left with no task is left out of that draw's tau."""
    rng = random.Random(seed)
    pool = sorted(pool)
    taus: list[float | None] = []
    for _ in range(draws):
        gone = rng.sample(pool, removed) if removed else []
        xs, ys = [], []
        for b, a, p in zip(base, attempted, passed):
            n = len(a) - sum(t in a for t in gone)
            if n == 0:
                continue
            xs.append(b)
            ys.append((len(p) - sum(t in p for t in gone)) / n)
        taus.append(kendall_tau_b(xs, ys) if len(xs) >= 2 else None)
    return taus
