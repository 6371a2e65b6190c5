"""The legal actions of each of the 64 sets of a mover's non-empty holes, as tuples built once:
indexing is much cheaper than building a list per step."""

LEGAL = tuple(tuple(k for k in range(6) if bits >> k & 1) for bits in range(64))
