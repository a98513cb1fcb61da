"""The one table of coefficients: what each is made of, and how its value is formed.

Every chance-corrected coefficient of the family is 1 − Do/De (Artstein & Poesio 2005, §2.5);
they differ in which observed disagreement Do and which expected disagreement De they take
(:mod:`corpusagree.stats.kernel` computes both kinds of each). The engine, the bootstrap and the
coder-subset diagnostics all evaluate the entries of :data:`COEFFICIENTS` with
:func:`evaluate`, so a coefficient is defined here once.

Observed disagreement (``observed``):

* ``"pairs"``: A&P's Do, the mean over items with ≥ 2 judgements of the mean pairwise distance
  (A&P 2005, §5.1);
* ``"values"``: Krippendorff's Do, the same per-item values weighted by the item's number of
  values (Krippendorff 2011).

Expected disagreement (``expected``):

* ``"pooled"``: Krippendorff's, over all pairs of pooled pairable values, n(n − 1);
* ``"single"``: one distribution for all coders, P̂(k) = (1/i) Σ_i n_ik/n_i (A&P 2005, §2.5,
  §5.1: α′, π);
* ``"individual"``: each coder's own distribution P̂(k|c) = n_ck/n_c, coder pairs weighted by
  P̂(c_m)P̂(c_n) (A&P 2005, §2.7, §5.1: β, κ, multi-κ, κw);
* ``"uniform"``: every category equally likely, De = Σ_kl d_kl / q² over the q categories
  (Brennan & Prediger 1981; nominal: 1 − 1/q, Bennett et al. 1954: S; Randolph's 2005
  free-marginal κ);
* ``"gwet"``: Gwet's chance agreement p_e = T_w/(q(q − 1)) Σ_k π_k(1 − π_k), T_w = Σ_kl w_kl
  (w = 1 − d), π_k the ``"single"`` P̂(k); De = 1 − p_e (Gwet 2008, 2014: AC1, AC2);
* ``"conger"``: the mean over ordered pairs of distinct coders of Σ_jl P̂(j|c_m)P̂(l|c_n) d_jl,
  each coder's distribution over all its judgements (Conger 1980; as irrCAC computes it);
* ``"multivalued"``: set labels only, Krippendorff & Craggs's (2016, §4) expected disagreement
  over pairs of sets of the values the coders used, sets of each size as often as the coders
  wrote them, weighted by the product of the values' frequencies (mvα;
  :mod:`corpusagree.stats.mvalpha`).

With d = 1 − w (w in [0, 1], e.g. irrCAC's weights, :func:`corpusagree.stats.distances.weights`)
Gwet's p_a is 1 − Do of ``"pairs"`` and p_e is 1 − De, so AC1/AC2, Brennan–Prediger, Conger's κ
and Fleiss's weighted κ (= α′: p_e = Σ_kl w_kl π_k π_l) are rows of the same table.

Values (``value``): ``"ratio"`` is 1 − Do/De; ``"agreement"`` is A_o = 1 − Do; ``"bias"`` is
B = De^individual − De^single (A&P 2005, §3 and appendix A); ``"pairs_mean"`` is the mean over
coder pairs of each pair's Cohen κ (Light 1971).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..model.data import ReliabilityData
from . import mvalpha as mv
from .kernel import SufficientStats
from .ratios import chance_corrected


@dataclass(frozen=True)
class Coefficient:
    """One row of the table.

    ``weighted``: takes a distance (False: nominal only). ``two_coders``: defined for exactly
    two coders. ``families``: the rows of :func:`corpusagree.table` it appears in (the
    unweighted ``"nominal"`` family, the ``"weighted"`` family under a distance), and
    ``listed_for``: with how many coders it is listed there (``"two"``, ``"many"`` = three or
    more, ``"any"``). ``chance_corrected``: read against the conventional scales.
    """

    id: str
    symbol: str
    name: str
    observed: str | None
    expected: str | None
    value: str
    weighted: bool
    definition: str
    two_coders: bool = False
    families: tuple[str, ...] = ("nominal", "weighted")
    listed_for: str = "any"
    chance_corrected: bool = True
    #: the symbol with more than two coders, where it has another name
    symbol_many: str | None = None
    #: whether the bootstrap can resample it (per-unit sufficient statistics exist)
    resamplable: bool = True
    #: needs a distance within [0, 1] (its chance term uses the weights w = 1 − d themselves)
    bounded: bool = False
    #: the coefficient that stands for it with more than two coders (κ → multi-κ)
    many: str | None = None
    #: the distance it always takes, set labels only (mvα: the Dice distance, Krippendorff &
    #: Craggs's nominal δ(C, K)); None: the distance asked (nominal when unweighted)
    distance: str | None = None
    #: what a reader of a table listing it must know (printed under the table)
    note: str | None = None

    def label(self, n_coders: int) -> str:
        """The display symbol for data with ``n_coders`` coders (multi-π for more than two)."""
        return self.symbol_many if self.symbol_many and n_coders > 2 else self.symbol

    def listed(self, family: str, n_coders: int) -> bool:
        """Whether :func:`corpusagree.table` lists it in ``family`` for ``n_coders`` coders."""
        return family in self.families and (
            self.listed_for == "any" or (self.listed_for == "two") == (n_coders == 2))


#: every coefficient by its id, in the order tables list them: which Do and De it takes, when
#: it applies, and its definition with the citation
COEFFICIENTS: dict[str, Coefficient] = {c.id: c for c in (
    Coefficient("percent_agreement", "A_o", "percent agreement", "pairs", None, "agreement",
                False, "A_o: mean over items with ≥ 2 judgements of the proportion of agreeing "
                "pairs (Artstein & Poesio 2005, §2.4, §5.1)", families=("nominal",),
                chance_corrected=False),
    Coefficient("S", "S", "Bennett et al.'s S", "pairs", "uniform", "ratio", False,
                "S: A_e = 1/k over k categories (Bennett et al. 1954; Artstein & Poesio 2005, "
                "§2.3)", families=("nominal",)),
    Coefficient("pi", "π", "Scott's π (multi-π: Fleiss 1971)", "pairs", "single", "ratio",
                False, "π: A_e = Σ_k P̂(k)², one distribution for all coders, P̂(k) = (1/i) "
                "Σ_i n_ik/n_i (Scott 1955; Fleiss 1971; Artstein & Poesio 2005, §2.3, §2.4, "
                "§5.1); with more than two coders this is Fleiss's κ, which is multi-π (one "
                "coefficient, not two pieces of evidence)", families=("nominal",),
                symbol_many="multi-π (Fleiss κ)"),
    Coefficient("kappa", "κ", "Cohen's κ", "pairs", "individual", "ratio", False,
                "Cohen's κ: A_e = Σ_k P̂(k|c1)P̂(k|c2), P̂(k|c) = n_ck/n_c (Cohen 1960; "
                "Artstein & Poesio 2005, §2.3, §5.1)", two_coders=True, families=("nominal",),
                listed_for="two", many="multi_kappa"),
    Coefficient("multi_kappa", "multi-κ", "Davies & Fleiss's multi-κ", "pairs", "individual",
                "ratio", False, "multi-κ: A_e = Σ_{m<n} P̂(c_m,c_n) Σ_k P̂(k|c_m)P̂(k|c_n) "
                "(Davies & Fleiss 1982; Artstein & Poesio 2005, §2.4, §5.1); on complete data it "
                "equals Conger's κ (Conger 1980): one coefficient, not two pieces of evidence",
                families=("nominal",), listed_for="many"),
    Coefficient("kappa_w", "κw", "Cohen's weighted κ", "pairs", "individual", "ratio", True,
                "κw: De = Σ_jl P̂(j|c1)P̂(l|c2) d_jl (Cohen 1968; Artstein & Poesio 2005, §2.5)",
                two_coders=True, families=("weighted",), listed_for="two"),
    Coefficient("light_kappa", "light κ", "Light's κ", None, None, "pairs_mean", True,
                "Light's κ: mean over coder pairs of Cohen's κ (κw under a distance), each pair "
                "on the items both coded (Light 1971; NLTK's AnnotationTask.kappa)",
                listed_for="many", resamplable=False),
    Coefficient("alpha", "α", "Krippendorff's α", "values", "pooled", "ratio", True,
                "Krippendorff's α: Do = Σ_i n_i disagr_i / Σ n_i, De = Σ n_k n_l d_kl / "
                "(n(n−1)) over pairable values (Krippendorff 2011)"),
    Coefficient("alpha_prime", "α′", "Artstein & Poesio's α′", "pairs", "single", "ratio", True,
                "α′: De = Σ_jl P̂(j)P̂(l) d_jl, P̂(k) = (1/i) Σ_i n_ik/n_i (Artstein & Poesio "
                "2005, §2.5, §5.1)"),
    Coefficient("beta", "β", "Artstein & Poesio's β", "pairs", "individual", "ratio", True,
                "β: De = Σ_{m<n} P̂(c_m,c_n) Σ_jl P̂(j|c_m)P̂(l|c_n) d_jl (Artstein & Poesio "
                "2005, §2.7, §5.1)"),
    Coefficient("bias", "B", "bias B", None, None, "bias", True,
                "B = De^β − De^α′ (Artstein & Poesio 2005, §3 and appendices A, B; "
                "= A_e^π − A_e^κ when nominal)", chance_corrected=False),
    Coefficient("gwet_ac1", "AC1", "Gwet's AC1", "pairs", "gwet", "ratio", False,
                "AC1: A_e = Σ_k π_k(1 − π_k)/(q − 1), π_k = (1/i) Σ_i n_ik/n_i over the q "
                "categories (Gwet 2008; Gwet 2014, ch. 4)", families=("nominal",),
                note="AC1's reading on the bands is a convention made for κ: at a fixed "
                "agreement AC1 rises as the prevalence leaves .5 where κ falls, and Vach & "
                "Gerke (2023) warn against reading AC1 on κ's verbal bands"),
    Coefficient("gwet_ac2", "AC2", "Gwet's AC2", "pairs", "gwet", "ratio", True,
                "AC2: A_e = T_w/(q(q − 1)) Σ_k π_k(1 − π_k), T_w = Σ_kl w_kl, w = 1 − d "
                "(Gwet 2014, ch. 4)", families=("weighted",), bounded=True),
    Coefficient("brennan_prediger", "BP", "Brennan & Prediger's coefficient", "pairs",
                "uniform", "ratio", True, "Brennan–Prediger: A_e = Σ_kl w_kl / q², w = 1 − d "
                "(Brennan & Prediger 1981; Gwet 2014, ch. 4; nominal: S)",
                families=("weighted",)),
    Coefficient("conger_kappa", "Conger κ", "Conger's κ", "pairs", "conger", "ratio", True,
                "Conger's κ: A_e = mean over ordered pairs of distinct coders of "
                "Σ_kl w_kl P̂(k|c_m)P̂(l|c_n), P̂(k|c) = n_ck/n_c (Conger 1980; Gwet 2014, "
                "ch. 5; two coders: Cohen's κ; on complete data it equals multi-κ, one "
                "coefficient, not two pieces of evidence)", families=("nominal",),
                listed_for="many",
                note="Conger's κ equals multi-κ on complete data (Conger 1980; Davies & "
                "Fleiss 1982), as Fleiss's κ is multi-π: report one of each pair, not both as "
                "evidence"),
    Coefficient("mv_alpha", "mvα", "Krippendorff & Craggs's multi-valued α", "values",
                "multivalued", "ratio", False, "mvα: Do = α's Do with δ(C, K) = 1 − 2|C∩K| / "
                "(|C| + |K|) between the coders' sets (0 for two empty sets); De = Σ_st P(s)P(t) "
                "× mean δ over pairs of sets of s and t of the values used, each pair weighted "
                "by the product of its values' frequencies (Krippendorff & Craggs 2016, §3–4)",
                families=("sets",), distance="dice",
                note="mvα (Krippendorff & Craggs 2016): the Do of α under the Dice distance; "
                "its De pairs sets rebuilt from the values the coders used (sizes as written, "
                "values as frequent), where α's pairs the written sets, so the two differ where "
                "the written sets are more, or less, alike than their values recombined"),
)}


def get(coefficient: str) -> Coefficient:
    """The table entry of a coefficient id; ValueError naming the known ids."""
    try:
        return COEFFICIENTS[coefficient]
    except KeyError:
        raise ValueError(f"unknown coefficient {coefficient!r}; known: "
                         f"{', '.join(COEFFICIENTS)}") from None


def for_coders(coefficient: str, n_coders: int) -> str:
    """The id to compute for ``coefficient`` on data with ``n_coders`` coders: its
    :attr:`Coefficient.many` with more than two (Cohen's κ is Davies & Fleiss's multi-κ then).

    Examples
    --------
    >>> for_coders("kappa", 2), for_coders("kappa", 3), for_coders("alpha", 3)
    ('kappa', 'multi_kappa', 'alpha')
    """
    many = get(coefficient).many
    return many if many is not None and n_coders > 2 else coefficient


def distance_for(coefficient: Coefficient, data: ReliabilityData, distance=None):
    """The distance ``coefficient`` is computed under on ``data``: ``distance`` itself, or the
    coefficient's own (mvα's) — then the data must hold sets, and ``distance`` may only name
    that one or ``"nominal"`` (the level of measurement of the values)."""
    if coefficient.distance is None:
        return distance
    if not data.is_set:
        raise ValueError(mv.NEEDS_SETS)
    mv.check_distance(distance)
    return coefficient.distance


def expected_kinds(coefficient: Coefficient) -> set[str]:
    """The kinds of expected disagreement the coefficient's value needs."""
    if coefficient.value == "bias":
        return {"individual", "single"}
    return {coefficient.expected} if coefficient.expected else set()


def evaluate(coefficient: Coefficient, st: SufficientStats, categories=None) -> np.ndarray:
    """The coefficient for every view in ``st`` (nan where undefined: no pairable item, or no
    expected disagreement). ``categories`` (k, for S) defaults to the labels each view uses."""
    kind = coefficient.value
    if kind == "bias":
        return st.expected("individual") - st.expected("single")
    do = st.observed(coefficient.observed)
    if kind == "agreement":
        return 1.0 - do
    if kind != "ratio":
        raise ValueError(f"{coefficient.id} is not evaluated from sufficient statistics")
    return chance_corrected(do, st.expected(coefficient.expected, categories))


__all__ = ["COEFFICIENTS", "Coefficient", "distance_for", "evaluate", "expected_kinds",
           "for_coders", "get"]
