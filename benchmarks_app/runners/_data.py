"""Deterministic synthetic tabular data: the same seed and shape give the same bytes."""

import numpy as np

CHUNK_ROWS = 1_000_000


def classification(rows: int, features: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """float32 features ~ N(0, 1) and a binary label from a noisy linear score with a few
    interactions, so trees have real splits to find. Built in row chunks so a 5 GB matrix
    needs no float64 temporary of the same size."""
    rng = np.random.default_rng(seed)
    weights = rng.standard_normal(features).astype(np.float32)
    X = np.empty((rows, features), dtype=np.float32)
    y = np.empty(rows, dtype=np.float32)
    for start in range(0, rows, CHUNK_ROWS):
        stop = min(start + CHUNK_ROWS, rows)
        block = X[start:stop]
        rng.standard_normal(out=block, dtype=np.float32)
        score = block @ weights
        score += block[:, 0] * block[:, min(1, features - 1)]
        score += rng.standard_normal(stop - start, dtype=np.float32)
        y[start:stop] = score > 0
    return X, y
