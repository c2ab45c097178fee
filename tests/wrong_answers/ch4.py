"""Plausible wrong answers to chapter 4's self-checking exercises.

tests/test_course.py runs each entry after all the official solutions, in the
student edition, and expects the exercise's check to say "not yet".
"""

WRONG: dict[str, str] = {
    # the first rank whose cosine rounds to 0.9, not the first that reaches it
    "ch4-ex2": "smallest_rank = 96",
    # the rank as text
    "ch4-ex2/type": 'smallest_rank = "128"',
    # the stream permuted, but the gains left to rotate_stream's ones
    "ch4-ex3": "W_perm = rotate_stream(W, torch.eye(d)[:, perm])",
    # the chapter's basis from the normalised vectors, not from the raw ones
    "ch4-ex4": 'U_raw = bases["PCA"]',
    # the basis from all calibration windows, not from the first eight
    "ch4-ex5": 'U_few = bases["PCA"]',
    # queries and keys both scaled by 2: the scores grow fourfold
    "ch4-ex1": (
        "P_qk = map_heads(P_small, 2 * torch.eye(D).to(e64),"
        " torch.eye(D).to(e64))"
    ),
    # the chapter's basis, calibrated on the text in its order
    "ch4-ex7": 'U_shuffled = bases["PCA"]',
}
