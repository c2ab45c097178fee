"""Plausible wrong answers to chapter 2's checked exercises (see tests/test_course.py)."""

WRONG: dict[str, str] = {
    # the dot products scale by c, like the norms; the attention scores kept
    "ch2-ex6": ('preserved = {"cosine similarities", "attention scores"}\n'
                'ratios = {"dot products": c, "norms": c, "distances": c}'),
    # a reflection of everything, the second vector at 2φ, the angle φ
    "ch2-ex2": ("H1 = -torch.eye(5, dtype=torch.float64)\n"
                "H2 = householder(givens(5, 0, 1, 2 * phi)[0])\n"
                "angle = phi"),
    # |x| taken for symmetric enough
    "ch2-ex5": ('sign_verdicts = {"ReLU": "broken", "GELU": "broken",'
                ' "|x|": "exact", "x³": "exact"}'),
    "ch2-ex5/type": 'sign_verdicts = "only x³"',
    # the all-ones matrix divided by d² instead of d; a Haar-random M
    "ch2-ex3": ("C = torch.eye(5, dtype=torch.float64)"
                " - torch.ones(5, 5, dtype=torch.float64) / 25\n"
                "M = Q64"),
    # the raw QR factors taken for Haar-random
    "ch2-ex1": ('stats = {(n, kind): (0.5, 0.0) for n in (4, 5)'
                ' for kind in ("raw", "fixed")}'),
    # the untrained start of the learned rotation
    "ch2-ex4": "Q_learned = torch.eye(n_act, dtype=torch.float64)",
}
