"""Wrong and right answers to chapter 2's checked exercises (see tests/test_course.py).

Keys are "<exercise label>/<kind>"; each value is pasted into the student's answer cell. Every
WRONG answer must make the check say "not yet", every RIGHT one "correct".

Chance rates of the randomized bars, measured on the reference stack:
- ch2-ex7 (Learn the rotation): a Haar-random 64 × 64 rotation (batched QR with the sign fix,
  seeds 1000..1004, 200 draws each) meets INT4_BAR = 0.08 in 0 of 1000 draws (best 0.092) and
  FLAT_BAR = 1.7 in 0 of 1000 (best 2.20); a randomly signed Hadamard matrix S H meets FLAT_BAR in
  0 of 200 sign draws (best 1.82). The learned rotation of the solution: 0.062 and 1.44.
- ch2-ex6 (Why the sign fix?): the check recomputes the statistics from the handed-in draws and
  factors, so no bar is random there; its test that the draws are standard Gaussian
  (`standard_gaussian`: mean within 0.1 of 0, standard deviation within 0.1 of 1, mean |g| within
  0.02 of sqrt(2/pi), 5.9 standard errors at n = 4) rejected 0 of 800 draws of torch.randn
  (float64 seeds 0..199 and float32 seeds 1000..1199, n = 4 and 5; the largest gap of mean |g|
  was 0.0097); ±1 draws (mean |g| = 1) and uniform ones scaled to standard deviation 1
  (mean |g| = 0.866) fail it.
"""

EX5_C = "C = torch.eye(5, dtype=torch.float64) - 1 / 5\n"
EX5_M = 'M = -householder(torch.tensor([1.0, 1, -2, 0, 0]).double())\n'  # minus a mirror across v ⟂ 1
EX5_T = ("w = torch.tensor([[1.0, -1, 0, 0, 0]], dtype=torch.float64)\n"  # 1 ↦ 1 + w, w in 1⊥
         "T = torch.eye(5, dtype=torch.float64) + torch.ones(5, 1, dtype=torch.float64) @ w / 5")


def ex6_answer(draw: str, fix: str, stat: str = "") -> str:
    """An answer to ch2-ex6: draws, sign fix and statistics as code fragments."""
    return (
        "gaussians, fixed, stats = {}, {}, {}\n"
        "for n in (4, 5):\n"
        f"    gaussians[n] = {draw}\n"
        "    Q_raw, R_raw = torch.linalg.qr(gaussians[n])\n"
        "    signs = torch.sign(torch.diagonal(R_raw, dim1=-2, dim2=-1))\n"
        f"    fixed[n] = {fix}\n"
        "    for k, Qs in (('raw', Q_raw), ('fixed', fixed[n])):\n"
        "        stats[n, k] = ((torch.linalg.det(Qs) > 0).double().mean().item(),\n"
        "                       Qs[:, 0, 0].mean().item())\n"
        f"{stat}")


GAUSSIAN = "torch.randn(2000, n, n, dtype=torch.float64, generator=torch.Generator().manual_seed(n))"
COLUMN_FIX = "Q_raw * signs.unsqueeze(-2)"

WRONG: dict[str, str] = {
    # ch2-ex1, A scaled rotation
    "ch2-ex1/hard-coded": (  # the dot products taken to scale like the norms
        'preserved = {"cosine similarities", "attention scores"}\n'
        'ratios = {"dot products": 3.0, "norms": 3.0, "distances": 3.0}'),
    "ch2-ex1/unchanged": (  # everything taken to be preserved, as for c = 1
        "preserved = set(geometry(E))\n"
        'ratios = {"dot products": 1, "norms": 1, "distances": 1}'),
    "ch2-ex1/inverse": (  # after / before read the wrong way round
        'preserved = {"cosine similarities"}\n'
        'ratios = {"dot products": 1 / c**2, "norms": 1 / c, "distances": 1 / c}'),
    "ch2-ex1/type": (
        'preserved = {"cosine similarities"}\n'
        'ratios = {"dot products": "9", "norms": "3", "distances": "3"}'),
    "ch2-ex1/nan-ratio": (  # elementwise after / before: 0 / 0 on the distances' diagonal
        'preserved = {"cosine similarities"}\n'
        "scaled = geometry(E @ (c * Q))\n"
        "ratios = {k: (scaled[k] / before[k]).mean().item()\n"
        '          for k in ("dot products", "norms", "distances")}'),
    "ch2-ex1/own-rel_error": (  # a helper under the chapter's name that sees no change
        "def rel_error(Y_hat, Y):\n"
        "    return 0.0\n"
        "preserved = set(geometry(E))\n"
        'ratios = {"dot products": 1, "norms": 1, "distances": 1}'),
    # ch2-ex2, Two reflections make a rotation
    "ch2-ex2/unchanged": (  # a reflection of everything, and the angle φ
        "H1 = -torch.eye(5, dtype=torch.float64)\n"
        "H2 = householder(givens(5, 0, 1, phi)[0])\n"
        "angle = 2 * phi"),
    "ch2-ex2/half-angle": (  # the angle between the mirrors, not the turn
        "H1 = householder(torch.eye(5, dtype=torch.float64)[0])\n"
        "H2 = householder(givens(5, 0, 1, phi)[0])\n"
        "angle = phi"),
    "ch2-ex2/transpose": (  # the product read in the other order, H2 H1
        "H1 = householder(torch.eye(5, dtype=torch.float64)[0])\n"
        "H2 = householder(givens(5, 0, 1, phi)[0])\n"
        "angle = -2 * phi"),
    "ch2-ex2/type": (
        "H1 = householder(torch.eye(5, dtype=torch.float64)[0])\n"
        "H2 = householder(givens(5, 0, 1, phi)[0])\n"
        'angle = "50°"'),
    # ch2-ex3, Sign flips and positive rescalings through four more nonlinearities
    "ch2-ex3/hard-coded": (  # "elementwise, so it is equivariant"
        "under_PS = {name: True for name in phis}\n"
        "under_PD = {name: True for name in phis}"),
    "ch2-ex3/even-too": (  # |x| taken for symmetric enough under a sign flip
        'under_PS = {"leaky ReLU": False, "|x|": True, "tanh": True, "softplus": False}\n'
        'under_PD = {"leaky ReLU": True, "|x|": True, "tanh": False, "softplus": False}'),
    "ch2-ex3/wrong-matrix": (  # measured with the plain permutation P for both
        "under_PS = {name: equivariance_error(phi, BASES['P']) <= TOL\n"
        "            for name, phi in phis.items()}\n"
        "under_PD = dict(under_PS)"),
    "ch2-ex3/trimmed-phis": (  # phis cut down to the one function the answer is sure of
        'phis = {"tanh": torch.tanh}\n'
        'under_PS = {"tanh": True}\n'
        'under_PD = {"tanh": False}'),
    "ch2-ex3/swapped": (  # the two groups' verdicts exchanged
        'under_PD = {"leaky ReLU": False, "|x|": False, "tanh": True, "softplus": False}\n'
        'under_PS = {"leaky ReLU": True, "|x|": True, "tanh": False, "softplus": False}'),
    "ch2-ex3/type": (  # the verdicts as words, not flags
        'under_PS = {"leaky ReLU": "broken", "|x|": "broken", "tanh": "exact",'
        ' "softplus": "broken"}\n'
        'under_PD = {"leaky ReLU": "exact", "|x|": "exact", "tanh": "broken",'
        ' "softplus": "broken"}'),
    # ch2-ex5, LayerNorm has a privileged direction
    "ch2-ex5/unchanged": (  # the identity twice: it mixes nothing and keeps LayerNorm
        EX5_C + "M = torch.eye(5, dtype=torch.float64)\nT = torch.eye(5, dtype=torch.float64)"),
    "ch2-ex5/merely-relabels": (  # a permutation fixes 1 too, but only relabels
        EX5_C + "M = permutation_matrix([1, 2, 3, 4, 0])\n" + EX5_T),
    "ch2-ex5/fix-1": (  # the symmetry table's matrix: it keeps LayerNorm, but sends 1 to 1, not -1
        EX5_C + 'M = GROUPS["fix 1"]\n' + EX5_T),
    "ch2-ex5/mirror": (  # the mirror across v ⟂ 1 itself: 1 M = 1
        EX5_C + "M = householder(torch.tensor([1.0, 1, -2, 0, 0]).double())\n" + EX5_T),
    "ch2-ex5/haar": (  # a Haar-random M does not fix 1
        EX5_C + "M = Q64\n" + EX5_T),
    "ch2-ex5/stretch-T": (  # 1 ↦ 3·1 keeps 1⊥ and the direction of 1: LayerNorm keeps it
        EX5_C + EX5_M + 'T = GROUPS["1 ↦ 3·1"]'),
    "ch2-ex5/haar-T": (  # breaks LayerNorm, but moves the rows of 1⊥ too
        EX5_C + EX5_M + "T = Q64"),
    "ch2-ex5/wrong-scale": (  # the all-ones matrix divided by d² instead of d
        "C = torch.eye(5, dtype=torch.float64) - torch.ones(5, 5, dtype=torch.float64) / 25\n"
        + EX5_M + EX5_T),
    "ch2-ex5/type": ('C = "I - J / 5"\n' + EX5_M + EX5_T),
    "ch2-ex5/nan": (  # nan passes every test written as "error > tolerance"
        "C = torch.full((5, 5), math.nan)\nM = torch.full((5, 5), math.nan)\n"
        "T = torch.full((5, 5), math.nan)"),
    "ch2-ex5/nan-T": (EX5_C + EX5_M + "T = torch.full((5, 5), math.nan)"),  # a right C and M
    "ch2-ex5/centring-T": (  # C fixes 1⊥ too, but LN(x C) = LN(x) C: the identity holds
        EX5_C + EX5_M + "T = C"),
    "ch2-ex5/own-perm_distance": (  # a relabelling and flip, with a helper that hides it
        "def perm_distance(M):\n"
        "    return 1.0\n"
        + EX5_C + "M = -permutation_matrix([1, 2, 3, 4, 0])\n" + EX5_T),
    # ch2-ex6, Why the sign fix?
    "ch2-ex6/hard-coded": (  # the predicted statistics typed in, nothing drawn
        "gaussians, fixed = {}, {}\n"
        'stats = {(4, "raw"): (0.0, -0.424), (4, "fixed"): (0.5, 0.0),\n'
        '         (5, "raw"): (1.0, -0.375), (5, "fixed"): (0.5, 0.0)}'),
    "ch2-ex6/typed-stats": (  # real draws, but the Haar values typed in
        "gaussians = {n: torch.randn(2000, n, n, dtype=torch.float64,\n"
        "                            generator=torch.Generator().manual_seed(1))\n"
        "             for n in (4, 5)}\n"
        "fixed = {}\n"
        "for n in (4, 5):\n"
        "    Q_raw, R_raw = torch.linalg.qr(gaussians[n])\n"
        "    fixed[n] = Q_raw * torch.sign(R_raw.diagonal(dim1=-2, dim2=-1)).unsqueeze(-2)\n"
        "stats = {(n, k): (0.5, 0.0) for n in (4, 5) for k in ('raw', 'fixed')}"),
    "ch2-ex6/no-fix": ex6_answer(GAUSSIAN, "Q_raw"),  # the raw factors handed in twice
    "ch2-ex6/uniform": ex6_answer(  # uniform draws in [0, 1), not Gaussian ones
        "torch.rand(2000, n, n, dtype=torch.float64, generator=torch.Generator().manual_seed(n))",
        COLUMN_FIX),
    "ch2-ex6/sign-draws": ex6_answer(  # ±1 entries: mean 0 and standard deviation 1, not Gaussian
        "torch.randn(2000, n, n, dtype=torch.float64,"
        " generator=torch.Generator().manual_seed(n)).sign()", COLUMN_FIX),
    "ch2-ex6/row-fix": ex6_answer(  # the rows times the signs: the same statistics, not a factor
        GAUSSIAN, "Q_raw * signs.unsqueeze(-1)"),
    "ch2-ex6/diag-embed": ex6_answer(GAUSSIAN, "torch.diag_embed(signs) @ Q_raw"),  # S Q, not Q S
    # one matrix drawn and repeated 2000 times: its entries look Gaussian for some seeds
    # (227, re-seeded 16), but the draws are not independent
    "ch2-ex6/one-draw-expanded": ex6_answer(
        "torch.randn(n, n, dtype=torch.float64,"
        " generator=torch.Generator().manual_seed(227)).expand(2000, n, n)", COLUMN_FIX),
    "ch2-ex6/reseeded-loop": ex6_answer(
        "torch.stack([torch.randn(n, n, dtype=torch.float64,"
        " generator=torch.Generator().manual_seed(16)) for _ in range(2000)])", COLUMN_FIX),
    # symmetric draws: every entry N(0, 1), but G[i, j] = G[j, i]
    "ch2-ex6/symmetric": ex6_answer(
        "(lambda A: (A + A.mT) / 2 ** 0.5 * torch.where(torch.eye(n, dtype=torch.bool),"
        " 2 ** -0.5, 1.0))(torch.randn(2000, n, n, dtype=torch.float64,"
        " generator=torch.Generator().manual_seed(n)))", COLUMN_FIX),
    "ch2-ex6/nan-stats": ex6_answer(
        GAUSSIAN, COLUMN_FIX, "stats = {key: (math.nan, math.nan) for key in stats}"),
    "ch2-ex6/percent": ex6_answer(  # the fraction given as a percentage
        GAUSSIAN, COLUMN_FIX, "stats = {key: (100 * a, b) for key, (a, b) in stats.items()}"),
    "ch2-ex6/type": ex6_answer(  # right draws and factors, the statistics in words
        GAUSSIAN, COLUMN_FIX, "stats = {key: ('half', 'zero') for key in stats}"),
    # ch2-ex7, Learn the rotation
    "ch2-ex7/unchanged": "Q_learned = torch.eye(n_act, dtype=torch.float64)",
    "ch2-ex7/hadamard": "Q_learned = hadamard(n_act)",  # a fixed rotation, not learned
    "ch2-ex7/haar": "Q_learned = random_orthogonal(n_act, seed=3)",  # a fresh draw
    "ch2-ex7/lucky-draw": (  # the best of 200 Haar draws
        "draws = haar_batch(n_act, 200, seed=99)\n"
        "Q_learned = draws[int4_errors(draws)[0].argmin()]"),
    "ch2-ex7/not-orthogonal": (  # the rows flattened by a non-orthogonal map
        "Q_learned = 2 * hadamard(n_act)"),
    "ch2-ex7/rebinds-bars": (  # a fresh Haar draw, with the bars moved out of its way
        "INT4_BAR, FLAT_BAR = 1.0, 10.0\n"
        "Q_learned = random_orthogonal(n_act, seed=3)"),
    "ch2-ex7/rebinds-n_act": (  # a 1 × 1 rotation, with n_act set to match it
        "n_act = 1\n"
        "Q_learned = torch.eye(n_act, dtype=torch.float64)"),
    "ch2-ex7/type": 'Q_learned = "cayley"',
    "ch2-ex7/nan": "Q_learned = torch.full((n_act, n_act), math.nan)",  # refused, not measured
}

RIGHT: dict[str, str] = {
    "ch2-ex1/python-numbers": (  # a list, and Python integers
        'preserved = ["cosine similarities"]\n'
        'ratios = {"dot products": 9, "norms": 3, "distances": 3}'),
    "ch2-ex1/numpy-float32": (
        "import numpy as np\n"
        'preserved = {"cosine similarities"}\n'
        'ratios = {"dot products": np.float32(c * c), "norms": np.float32(c),\n'
        '          "distances": np.float32(c)}'),
    "ch2-ex1/tensors": (  # 0-dim tensors straight from the measurement
        'preserved = {"cosine similarities"}\n'
        "scaled = geometry(E @ (c * Q))\n"
        "ratios = {k: scaled[k].norm() / before[k].norm()\n"
        '          for k in ("dot products", "norms", "distances")}'),
    "ch2-ex2/float32-and-a-turn-more": (  # float32, and 2φ + 360°
        "e0 = torch.eye(5)[0]\n"
        "H1 = torch.eye(5) - 2 * torch.outer(e0, e0)\n"
        "v = givens(5, 0, 1, phi)[0].float()\n"
        "H2 = torch.eye(5) - 2 * torch.outer(v, v)\n"
        "angle = 2 * phi + 360"),
    "ch2-ex2/numpy": (
        "H1 = householder(torch.eye(5, dtype=torch.float64)[0]).numpy()\n"
        "H2 = householder(givens(5, 0, 1, phi)[0]).numpy()\n"
        "angle = 50"),
    "ch2-ex2/own-helpers": (  # the chapter's names reused by the answer for its own purposes
        "H1 = householder(torch.eye(5, dtype=torch.float64)[0])\n"
        "H2 = householder(givens(5, 0, 1, phi)[0])\n"
        "angle = 2 * phi\n"
        "def givens(*args):\n"
        "    return None\n"
        'rel_error = "not a function"'),
    "ch2-ex3/numpy-flags": (  # numpy booleans from a direct comparison
        "import numpy as np\n"
        "def flags(M):\n"
        "    return {name: np.bool_((phi(x_test @ M) - phi(x_test) @ M).abs().max().item() < 1e-12)\n"
        "            for name, phi in phis.items()}\n"
        "under_PS, under_PD = flags(SIGNED_PERM), flags(BASES['PD'])"),
    "ch2-ex3/torch-flags": (  # 0-dim boolean tensors, and another signed permutation
        "S2 = torch.diag(torch.tensor([-1.0, 1, -1, 1, 1]).double())[[1, 2, 0, 4, 3]]\n"
        "under_PS = {name: (phi(x_test @ S2) - phi(x_test) @ S2).abs().max() < 1e-12\n"
        "            for name, phi in phis.items()}\n"
        "under_PD = {'leaky ReLU': torch.tensor(True), '|x|': True, 'tanh': False,\n"
        "            'softplus': torch.tensor(False)}"),
    "ch2-ex5/householder-float32": (  # float32 throughout
        "C = (torch.eye(5) - torch.ones(5, 5) / 5).float()\n"
        "M = -householder(torch.tensor([1.0, 1, -2, 0, 0]).double()).float()\n"
        "T = torch.eye(5) + torch.ones(5, 1) @ torch.tensor([[0.0, 0, 2, -1, -1]]) / 5"),
    "ch2-ex5/numpy-singular-T": (  # numpy; fixing_ones for M; T sends 1 to w alone (singular)
        "import numpy as np\n"
        "C = np.eye(5) - np.ones((5, 5)) / 5\n"
        "M = -fixing_ones(5, seed=9).numpy()\n"
        "T = C + np.ones((5, 1)) @ np.array([[1.0, -1, 0, 0, 0]]) / 5"),
    "ch2-ex5/tilt-and-stretch": (  # 1 ↦ 2·1 + w
        EX5_C + EX5_M + "T = torch.eye(5, dtype=torch.float64) + torch.ones(5, 1).double()"
        " @ torch.tensor([[1.0, 1, 1, 0.5, 1.5]]).double() / 5"),
    "ch2-ex6/float32-other-seed": (  # float32 draws from another seed, numpy stats
        "import numpy as np\n"
        "gaussians, fixed, stats = {}, {}, {}\n"
        "for n in (4, 5):\n"
        "    gaussians[n] = torch.randn(2000, n, n,\n"
        "                               generator=torch.Generator().manual_seed(30 + n))\n"
        "    Q_raw, R_raw = torch.linalg.qr(gaussians[n])\n"
        "    signs = torch.sign(torch.diagonal(R_raw, dim1=-2, dim2=-1))\n"
        "    fixed[n] = (Q_raw * signs[:, None, :]).numpy()\n"
        "    for k, Qs in (('raw', Q_raw.numpy()), ('fixed', fixed[n])):\n"
        "        stats[n, k] = np.array([(np.linalg.det(Qs) > 0).mean(), Qs[:, 0, 0].mean()])"),
    "ch2-ex6/diag-embed-right": ex6_answer(  # the fix as a product on the right, Q S
        GAUSSIAN, "Q_raw @ torch.diag_embed(signs)"),
    "ch2-ex7/matrix-exp-float32": (  # exp of a trained skew-symmetric B, float32
        "X32 = X_act.float()\n"
        "B = torch.zeros(n_act, n_act, requires_grad=True)\n"
        "opt = torch.optim.Adam([B], lr=0.05)\n"
        "for _ in range(100):\n"
        "    R = torch.linalg.matrix_exp(B - B.T)\n"
        "    loss = ((X32 @ R).norm(p=8, dim=1) / X32.norm(dim=1)).mean()\n"
        "    opt.zero_grad()\n"
        "    loss.backward()\n"
        "    opt.step()\n"
        "Q_learned = torch.linalg.matrix_exp(B - B.T).detach()"),
}
