"""Mathet, Widlöcher & Métivier's γ: agreement on unitizing through the best alignment.

Mathet, Widlöcher & Métivier (2015), "The Unified and Holistic Method Gamma (γ) for
Inter-Annotator Agreement Measure and Alignment", *Computational Linguistics* 41(3): 437–479;
γ-cat and γ-k from Mathet (2017), "The Agreement Measure γcat a Complement to γ Focused on
Categorization of a Continuum", *Computational Linguistics* 43(3): 661–681.

* **Dissimilarity** (Mathet et al. 2015, §4): ``d(u, v) = α·d_pos(u, v) + β·d_cat(u, v)`` with
  ``d_pos = ((|s_u − s_v| + |e_u − e_v|) / (l_u + l_v))²·Δ∅`` and
  ``d_cat = dist_cat(cat_u, cat_v)·Δ∅``, dist_cat in [0, 1]; a unit against the empty unit ∅
  costs Δ∅. The disorder of a unitary alignment (one unit or ∅ per annotator) is the mean of
  its ``C(n, 2)`` pairwise dissimilarities, every pair with an ∅ costing Δ∅ (as in the Gamma
  software and pygamma-agreement), so a unit left unaligned costs exactly Δ∅. The disorder of
  an alignment is the sum of its unitary disorders over x̄, the average number of units per
  annotator (§4.3).
* **Best alignment**: the alignment of least disorder, an exact set-partitioning integer
  program over candidate unitary alignments (§5.1), solved by HiGHS through
  :func:`scipy.optimize.milp` with a zero optimality gap (on the components of the units where
  the program's LP relaxation is not already integral). Candidates are pruned as in §5.1.1:
  a unitary alignment of k units is kept only if its disorder is at most kΔ∅, the cost of
  leaving its units unaligned; and (also exact) it is dropped when splitting one unit off it
  is strictly cheaper. Candidate pairs come from a sort-and-sweep over the units' positions
  (``|s_u − s_v| + |e_u − e_v| = max(2|m_u − m_v|, |l_u − l_v|)``, so a bound on d_pos bounds
  the distance between midpoints by a multiple of the lengths), never from all pairs.
* **Expected disorder**: the mean best-alignment disorder of sampled continua, with either of
  pygamma-agreement's samplers: ``"statistical"`` (each annotator's number of units, the gaps
  between their units, the unit lengths drawn from normal laws fitted on the continuum, the
  categories from their frequencies) or ``"shuffle"`` (Mathet et al. 2015, §5.2.1: each
  sampled annotator is a real annotator's units shifted circularly by a random position, the
  positions at least half the mean unit length apart as in the Gamma software). Unless a
  number of samples is given, 30 samples are drawn and then as many more as the precision
  rule asks: ``N = ⌈(1.96·cv / precision)²⌉`` with cv the coefficient of variation of the
  sampled disorders (§5.3, as pygamma-agreement applies it: one second batch), at most
  :data:`MAX_SAMPLES` in all (with a note when the rule asked for more).
* ``γ = 1 − D_o / D_e`` (1 when D_o = 0).
* **γ-cat, γ-k** (Mathet 2017, §4.2): on the same alignments, the categorical dissimilarity of
  every pair of aligned units (both non-empty), weighted by ``1/(n_v − 1)`` (n_v units in the
  unitary alignment) times the pairing confidence ``max(0, 1 − α·d_pos)``; γ-k keeps the pairs
  where at least one unit has category k. Units aligned with ∅ do not count (pygamma-agreement
  0.5.9 enables an "experimental" term for them, which the paper does not have). The factor α
  in the confidence is the Gamma software's and pygamma's; the paper's ``1 − d_pos`` is the
  same with α = 1, the default here.

A continuum of several documents: units are aligned and sampled inside their own document, and
every result is also given per document. The corpus-wide γ treats the documents as lying side
by side on one continuum (Mathet et al. 2015 define γ on one continuum, §4.3): the unitary
disorders of all documents add up and are divided by the sum of the documents' x̄, i.e. the
corpus disorder is the x̄-weighted mean of the documents' disorders, observed and sampled alike
(a sampled corpus is one sampled continuum per document), and the precision rule applies to the
corpus-wide sampled disorders.

The modules: :mod:`.dissimilarity` (d_pos, d_cat), :mod:`.alignment` (candidate unitary
alignments and the integer program), :mod:`.samplers` (the sampled continua), :mod:`.measure`
(γ, γ-cat, γ-k and the best alignment of a continuum) and :mod:`.results` (what they return).
"""

from .alignment import MAX_CANDIDATES
from .dissimilarity import CategoryDistance, positional_dissimilarity
from .measure import FIRST_BATCH, MAX_SAMPLES, SAMPLE_UNITS, Z_PRECISION, best_alignment, gamma
from .results import Alignment, Gamma, UnitaryAlignment
from .samplers import MIN_LENGTH, SAMPLERS

__all__ = ["FIRST_BATCH", "MAX_CANDIDATES", "MAX_SAMPLES", "MIN_LENGTH", "SAMPLERS",
           "SAMPLE_UNITS", "Z_PRECISION", "Alignment", "CategoryDistance", "Gamma",
           "UnitaryAlignment", "best_alignment", "gamma", "positional_dissimilarity"]
