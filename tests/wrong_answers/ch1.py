"""Plausible wrong answers to chapter 1's self-checking exercises.

tests/test_course.py runs each entry after all the official solutions, in the
student edition, and expects the exercise's check to say "not yet".
"""

WRONG: dict[str, str] = {
    # three correct lookups and one that is off by one everywhere
    "ch1-ex1": "ways = [E_x[ids_x]] * 3 + [E_x[ids_x] + 1]",
    # the upstream rows averaged instead of added
    "ch1-ex2": "row_1_grad = G_x.mean(dim=0)",
    # only the float copy of X, only the forward product, and the wrong verdict
    "ch1-ex4": (
        "onehot_bytes = 4 * N_g * V_g\n"
        "onehot_flops = 2 * N_g * V_g * d_g\n"
        "larger_than_table = False"
    ),
    # answers of the wrong type: words instead of numbers
    "ch1-ex4/type": (
        'onehot_bytes, onehot_flops, larger_than_table = "many", "lots", "yes"'
    ),
    # the biases as one extra column each: the dot product multiplies them
    "ch1-ex6": (
        "U_wide = torch.cat([U_x, b_u[:, None]], dim=1)\n"
        "V_wide = torch.cat([V_x, b_v[:, None]], dim=1)"
    ),
    # no gap measured, and max taken to be linear
    "ch1-ex3": 'gaps = {"sum": 0.0, "max": 0.0}\nmax_is_linear = True',
    # the belief that every token is its own top prediction
    "ch1-ex5": "misses = {8: 0, 256: 0}",
    # one Adam for the dense layer only, and a single loss
    "ch1-ex7": (
        "pair_of_optimizers = [optim.Adam(head_opt.parameters(), lr=0.1)]\n"
        "losses_opt = [start_loss.item()]"
    ),
    # a lookup whose gradient ignores padding_idx
    "ch1-ex9": "my_embedding = lambda ids, E, padding_idx=None: E[ids]",
}
