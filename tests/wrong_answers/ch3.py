"""Plausible wrong answers to chapter 3's self-checking exercises.

Each entry is run after every official solution; the exercise's check must then say "not yet".
"""

WRONG: dict[str, str] = {
    # the reference's width: lossless, but not the smallest
    "ch3-ex2": "width = k2",
    # unit 0 kept as well as copied: four copies in all
    "ch3-ex4": (
        "P0_3 = torch.cat([P0, P0[:1].repeat(3, 1)])\n"
        "b0_3 = torch.cat([b0, b0[:1].repeat(3)])\n"
        "P1_3 = torch.cat([P1, P1[:, :1] * shares3], dim=1)"
    ),
    # every network given k/3 directions, and the joint error at the wrong width
    "ch3-ex5": (
        "joint3 = best_error(s3)[k1 // 3].item()\n"
        "separate3 = joint3\n"
        "allocation3 = [k1 // 3] * 3"
    ),
    # uncentred and centred swapped
    "ch3-ex3": "compared = {k: (c, u) for k, (u, c) in compared.items()}",
    # one width too small
    "ch3-ex6": "k_80 = 128",
    # the reference's two iterations
    "ch3-ex1": "needed = 2",
    "ch3-ex1/type": 'needed = "nine"',
    # no power iterations and no oversampling, whatever is asked
    "ch3-ex8": "rsvd = lambda A, k, oversample=10, power=2, seed=0: randomized_svd(A, k, 0, 0, seed)",
}
