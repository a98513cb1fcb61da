"""The set-partitioning programs of the best alignment, ``min c·x`` subject to ``A x = 1`` and
``0 ≤ x ≤ 1``, x binary, handed to HiGHS (Huangfu & Hall 2018) through the bindings that
scipy ships (scipy ≥ 1.15; :func:`scipy.optimize.linprog` and :func:`scipy.optimize.milp`
where they are missing).

scipy.optimize's own functions check and convert their inputs and read the solution back
column by column in Python, which costs more than HiGHS's dual simplex on a program of a few
thousand columns; called directly, HiGHS releases the GIL while it runs, so that programs
solve at once on threads. Two ways to the same optimum:

* :func:`solve` is HiGHS's default path (presolve, then its own integer solver where asked):
  among tied optima it picks the one :func:`scipy.optimize.linprog` and
  :func:`scipy.optimize.milp` pick.
* :func:`branch_and_bound` solves the relaxation without presolve (the program is already
  reduced) and branches on its fractional variables, one connected component at a time, each
  node a warm-started dual simplex. The relaxations of the best alignment are integral or
  nearly so (a few variables at ½ on odd cycles of candidates), which HiGHS's integer solver
  settles in 6–30 ms of set-up, cuts and heuristics, and a few warm-started nodes in a
  fraction of that.

References
----------
.. [1] Huangfu, Q. and Hall, J. A. J. (2018). Parallelizing the dual revised simplex method.
   Mathematical Programming Computation 10(1), 119–142.
.. [2] Land, A. H. and Doig, A. G. (1960). An automatic method of solving discrete programming
   problems. Econometrica 28(3), 497–520.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, linprog, milp
from scipy.sparse import csc_array
from scipy.sparse.csgraph import connected_components

try:  # scipy's bindings of HiGHS (a private module: the public functions where it is gone)
    from scipy.optimize._highspy import _core as _highs
except ImportError:  # pragma: no cover - scipy < 1.15
    _highs = None

#: a variable this far from 0 and 1 is fractional
FRACTIONAL = 1e-6
#: a node whose relaxation is not this much below the best integral solution is pruned
PRUNE = 1e-9
#: past this many nodes on one component, HiGHS's integer solver takes the component
MAX_NODES = 200


def solve(c: np.ndarray, A: csc_array, integer: bool = False) -> np.ndarray:
    """x minimising ``c·x`` subject to ``A x = 1`` and ``0 ≤ x ≤ 1`` by HiGHS's default path:
    binary when ``integer`` (a zero optimality gap), else an optimal vertex of the relaxation
    (dual simplex after presolve).

    Parameters
    ----------
    c : ndarray
        The costs of the columns.
    A : csc_array
        The 0/1 matrix: one row per unit, one column per candidate.
    integer : bool
        An integer program rather than its relaxation.

    Returns
    -------
    ndarray
        The optimal x.

    Raises
    ------
    RuntimeError
        When HiGHS finds no optimum (the programs of the best alignment always have one).

    Examples
    --------
    >>> from scipy.sparse import csc_array
    >>> A = csc_array(np.array([[1., 0, 1], [0, 1, 1]]))
    >>> x = solve(np.array([1., 1, 1.5]), A)
    >>> np.flatnonzero(x > 0.5).tolist()
    [2]
    """
    if _highs is None:
        return _solve_with_scipy(c, A, integer)
    highs = _model(c, A, integer=integer, presolve=True)
    highs.run()
    _check(highs)
    return np.asarray(highs.getSolution().col_value)


def components(A: csc_array) -> np.ndarray:
    """Each column's connected component, columns linked by a shared row."""
    _, label = connected_components((A @ A.T).tocsr(), directed=False)
    return label[A.indices[A.indptr[:-1]]]


def branch_and_bound(c: np.ndarray, A: csc_array) -> np.ndarray:
    """Binary x minimising ``c·x`` subject to ``A x = 1``: the relaxation by dual simplex
    without presolve, then depth-first branch and bound (Land & Doig 1960) on the columns of
    each connected component where it is fractional, one component after the other (the
    relaxation separates over them), each a program of its own whose nodes are
    warm-started from the last basis.

    A node branches on its most fractional column (the first of equals), ``x = 1`` first; it
    is pruned when its relaxation is not :data:`PRUNE` below the best solution found. A
    component that needs more than :data:`MAX_NODES` nodes goes to HiGHS's integer solver.

    Parameters
    ----------
    c : ndarray
        The costs of the columns.
    A : csc_array
        The 0/1 matrix: one row per unit, one column per candidate.

    Returns
    -------
    ndarray
        The optimal x (0 or 1).

    Raises
    ------
    RuntimeError
        When HiGHS finds no optimum.

    Examples
    --------
    Three units, each pair a candidate of cost 1, each unit alone 0.8: the relaxation takes
    every pair at ½ (1.5); the best partition is a pair and a unit alone (1.8).

    >>> from scipy.sparse import csc_array
    >>> A = csc_array(np.array([[1., 1, 0, 1, 0, 0], [1, 0, 1, 0, 1, 0], [0, 1, 1, 0, 0, 1]]))
    >>> x = branch_and_bound(np.array([1, 1, 1, .8, .8, .8]), A)
    >>> np.flatnonzero(x > 0.5).tolist()
    [0, 5]
    """
    if _highs is None:
        return np.round(_solve_with_scipy(c, A, True))
    highs = _model(c, A, integer=False, presolve=False)
    highs.run()
    _check(highs)
    x = np.asarray(highs.getSolution().col_value)
    fractional = np.abs(x - np.round(x)) > FRACTIONAL
    if not fractional.any():
        return np.round(x)
    label = components(A)
    for k in np.unique(label[fractional]):
        cols = np.flatnonzero(label == k)
        sub = A[:, cols]
        x[cols] = _branch(c[cols], csc_array(sub[np.diff(sub.tocsr().indptr) > 0]))
    return np.round(x)


def _branch(c: np.ndarray, A: csc_array) -> np.ndarray:
    """The best binary x of one component's program by depth-first branch and bound on its
    relaxation, or by HiGHS's integer solver past :data:`MAX_NODES` nodes."""
    highs = _model(c, A, integer=False, presolve=False)
    cols = np.arange(len(c), dtype=np.int32)
    lower, upper = np.zeros(len(c)), np.ones(len(c))
    best, best_value = None, np.inf
    stack: list[tuple[np.ndarray, np.ndarray]] = [(np.zeros(0, int), np.zeros(0))]
    for _ in range(MAX_NODES):
        if not stack:
            break
        which, values = stack.pop()
        lo, hi = lower.copy(), upper.copy()
        lo[which] = hi[which] = values
        highs.changeColsBounds(len(cols), cols, lo, hi)
        highs.run()
        if highs.getModelStatus() != _highs.HighsModelStatus.kOptimal:
            continue  # infeasible: a unit left without a candidate
        value = highs.getInfo().objective_function_value
        if value > best_value - PRUNE:
            continue
        x = np.asarray(highs.getSolution().col_value)
        distance = np.abs(x - np.round(x))
        if not (distance > FRACTIONAL).any():
            best, best_value = np.round(x), value
            continue
        k = np.argmax(distance)
        stack.append((np.r_[which, k], np.r_[values, 0.0]))
        stack.append((np.r_[which, k], np.r_[values, 1.0]))
    if stack or best is None:
        return np.round(solve(c, A, integer=True))
    return best


def _model(c: np.ndarray, A: csc_array, integer: bool, presolve: bool):
    """A HiGHS instance holding the program (its arrays passed as they are)."""
    rows, cols = A.shape
    options = _highs.HighsOptions()
    options.output_flag = False
    options.threads = 1
    if integer:
        options.mip_rel_gap = 0.0
    else:
        options.solver = "simplex"
    options.presolve = "on" if presolve else "off"
    highs = _highs._Highs()
    highs.passOptions(options)
    ones = np.ones(rows)
    highs.passModel(cols, rows, A.nnz, int(_highs.MatrixFormat.kColwise),
                    int(_highs.ObjSense.kMinimize), 0.0, np.asarray(c, float), np.zeros(cols),
                    np.ones(cols), ones, ones, A.indptr.astype(np.int32),
                    A.indices.astype(np.int32), A.data.astype(float),
                    np.full(cols, int(integer), np.int32))
    return highs


def _check(highs) -> None:
    if highs.getModelStatus() != _highs.HighsModelStatus.kOptimal:
        raise RuntimeError("HiGHS found no alignment: "
                           + highs.modelStatusToString(highs.getModelStatus()))


def _solve_with_scipy(c: np.ndarray, A: csc_array, integer: bool) -> np.ndarray:
    ones = np.ones(A.shape[0])
    if integer:
        res = milp(c, integrality=np.ones(len(c)), bounds=Bounds(0, 1),
                   constraints=LinearConstraint(A, ones, ones),
                   options={"mip_rel_gap": 0.0, "presolve": True})
    else:
        res = linprog(c, A_eq=A, b_eq=ones, bounds=(0, 1), method="highs-ds")
    if res.x is None:
        raise RuntimeError(f"HiGHS found no alignment: {res.message}")
    return res.x


__all__ = ["FRACTIONAL", "MAX_NODES", "PRUNE", "branch_and_bound", "components", "solve"]
