"""The sampled continua of γ's expected disorder, as pygamma-agreement draws them:
``"statistical"`` (normal laws fitted on the continuum) and ``"shuffle"`` (Mathet, Widlöcher &
Métivier 2015, §5.2.1)."""

from __future__ import annotations

import numpy as np

SAMPLERS = ("statistical", "shuffle")
#: a sampled unit is at least this long (pyannote's segment precision, as pygamma draws them)
MIN_LENGTH = 1e-6


def statistical(rng, annot, s, e, cat, n: int, begin: float, L: int):
    """pygamma-agreement's statistical sampler: for each annotator, a number of units drawn
    from the normal law of the annotators' unit counts (|int(·)|, at least one for the first),
    gaps between consecutive units (and before an annotator's first unit) and unit lengths from
    the normal laws of the continuum's, categories from their frequencies."""
    order = np.lexsort((cat, e, s, annot))
    a, s_, e_ = annot[order], s[order], e[order]
    same = a[1:] == a[:-1]
    first = np.r_[True, ~same]
    lead = s_[first] - begin
    gaps = np.concatenate([[0.0], (s_[1:] - e_[:-1])[same], lead[lead > 0]])
    lengths = e - s
    counts = np.bincount(annot, minlength=n)
    freq = np.bincount(cat, minlength=L) / len(cat)
    m = np.abs(rng.normal(counts.mean(), counts.std(), n).astype(np.int64))
    m[0] = max(m[0], 1)
    total = int(m.sum())
    gap = rng.normal(gaps.mean(), gaps.std(), total)
    dur = np.abs(rng.normal(lengths.mean(), lengths.std(), total))
    short = dur < MIN_LENGTH
    while short.any():
        dur[short] = np.abs(rng.normal(lengths.mean(), lengths.std(), int(short.sum())))
        short = dur < MIN_LENGTH
    who = np.repeat(np.arange(n), m)
    step = gap + dur
    per = np.bincount(who, step, n)  # each annotator's units follow on from `begin`
    ends = np.cumsum(step) - np.repeat(np.cumsum(per) - per, m) + begin
    return who, ends - dur, ends, rng.choice(L, total, p=freq)


def shuffle(rng, annot, s, e, cat, n: int, begin: float, end: float, L: int):
    """Mathet et al.'s (2015, §5.2.1) shuffling: n sampled annotators, each a randomly chosen
    annotator's units shifted by a random integer position and wrapped around the continuum;
    the positions keep at least half the mean unit length apart (the Gamma software's
    distance), drawn uniformly from what is left, or anywhere once nothing is left."""
    gap = (e - s).mean() / 2
    while True:
        free = np.array([[begin, end]])
        who_all, s_all, e_all, c_all = [], [], [], []
        for slot in range(n):
            width = free[:, 1] - free[:, 0]
            if len(free) and width.sum() > 0:
                lo, hi = free[rng.choice(len(free), p=width / width.sum())]
                pivot = float(int(rng.uniform(lo, hi)))
                cut_lo, cut_hi = pivot - gap, pivot + gap
                left = np.c_[free[:, 0], np.minimum(free[:, 1], cut_lo)]
                right = np.c_[np.maximum(free[:, 0], cut_hi), free[:, 1]]
                free = np.concatenate([left, right])
                free = free[free[:, 1] > free[:, 0]]
            else:
                pivot = rng.uniform(begin, end)
            mine = annot == rng.integers(n)
            shift = np.where(s[mine] + pivot - begin > end, pivot - end, pivot - begin)
            who_all.append(np.full(int(mine.sum()), slot))
            s_all.append(s[mine] + shift)
            e_all.append(e[mine] + shift)
            c_all.append(cat[mine])
        if sum(len(x) for x in who_all):
            return (np.concatenate(who_all), np.concatenate(s_all), np.concatenate(e_all),
                    np.concatenate(c_all))


__all__ = ["MIN_LENGTH", "SAMPLERS", "shuffle", "statistical"]
