"""The project's one definition of a quantile, for the Python table scripts (the same as
crates/loink/src/stats.rs): the q-quantile of the finite values is the order statistic of rank
round(q·(n − 1)) (0-based, halves rounded up, so an even count's median is the upper middle
value); NaN when there are none. Always a value that occurred, never an interpolation."""
import math


def quantile(values, q):
    finite = sorted(v for v in values if math.isfinite(v))
    if not finite:
        return float("nan")
    rank = math.floor(min(max(q, 0.0), 1.0) * (len(finite) - 1) + 0.5)
    return finite[rank]


def median(values):
    return quantile(values, 0.5)
