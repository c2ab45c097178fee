"""Wrong and right answers to chapter 1's self-checking exercises.

tests/test_course.py runs the student edition, pastes each official solution
(its check must say "correct"), then each RIGHT answer (it must say "correct")
and each WRONG answer (it must say "not yet"). Keys are "<label>/<kind>"; every
entry is pasted into the student's answer cell as it stands, so it defines
every name its check reads.

The checks read only what they captured when their exercise was set up, so
several entries exploit a check that would read the chapter's names: they
rebind the data the check compares against (and stay wrong), or reuse a
chapter name for their own purposes (and stay right). Functions are called on
the check's own inputs, so an answer that ignores its arguments fails; each
answer is held to its own precision's tolerance (1e-12 for float64 values,
1e-5 for float32 ones, lists and numbers, and for a float64 answer whose every
value float32 holds: a float32 result converted), so a float64 answer off by
1e-6 fails even beside a float32 one. Exercise 1.4's two tables meet in one
product, as precise as its coarser factor: the check asks for one precision
for both. Exercise 1.8's
losses are those of a float32 model: 1e-5 whatever their dtype.

Chance: no check of this chapter has a bar that a random answer can meet. Each
compares the answer with a recomputation from the exercise's inputs, exactly
or to 1e-5: the rows and the operations that take them (ch1-ex1), the
gradients and the operations of the backward pass (ch1-ex9), or every loss of
a replayed training run, with the optimizers' kinds, learning rates and step
counts (ch1-ex8).
Measured over 1,000 draws each (torch.randn, or counts drawn uniformly from
0..1000): a random row_1_grad (ch1-ex2), random U_wide and V_wide (ch1-ex4),
random sides (ch1-ex5) and random counts (ch1-ex7) passed 0 times. Only the
flags can be guessed (half the time), and each sits beside numbers that must
be right too.
"""

# A training loop for the "Two optimizers" exercise: a fresh model, the
# optimizers `make` builds, `steps` steps, and the loss before each step (or,
# with after=True, after it; reduction="sum" trains on the summed loss).
TRAIN = """
def train(make, steps, after=False, reduction="mean"):
    global embed_opt, head_opt
    embed_opt, head_opt = build_model()
    optimizers = make()
    losses = []
    for _ in range(steps):
        loss = F.mse_loss(head_opt(embed_opt(ids_opt))[:, 0], target_opt,
                          reduction=reduction)
        for opt in optimizers:
            opt.zero_grad()
        loss.backward()
        for opt in optimizers:
            opt.step()
        losses.append(loss_now() if after else loss.item())
    return optimizers, losses
"""
PAIR = ("lambda: [optim.SparseAdam(embed_opt.parameters(), lr={lr}),"
        " optim.Adam(head_opt.parameters(), lr={lr})]")

# A custom autograd.Function for "Your own embedding layer", whose backward
# pass is BACKWARD (it reads ids, G, ctx.vocab and pad, the padding row or
# -1). PAD makes a negative padding_idx count from the end, as F.embedding
# does; ctx.padding_idx alone leaves it negative, so no id ever matches it.
FUNCTION = """
class Mine(torch.autograd.Function):
    @staticmethod
    def forward(ctx, ids, E, padding_idx):
        ctx.save_for_backward(ids)
        ctx.vocab, ctx.padding_idx = len(E), padding_idx
        return E[ids]

    @staticmethod
    def backward(ctx, G):
        (ids,) = ctx.saved_tensors
        ids, G = ids.reshape(-1), G.reshape(-1, G.shape[-1])
        grad = G.new_zeros(ctx.vocab, G.shape[-1])
        pad = -1 if ctx.padding_idx is None else {pad}
{backward}
        return None, grad, None


def my_embedding(ids, E, padding_idx=None):
    return Mine.apply(ids, E, padding_idx)
"""

# The two sides of the linearity test for one EmbeddingBag mode.
SIDES = """
def sides_of(mode, T1=E1, T2=E2):
    bag = lambda T: nn.EmbeddingBag.from_pretrained(T, mode=mode)(
        bag_ids, bag_offsets)
    return torch.stack([bag(T1 + T2), bag(T1) + bag(T2)])
"""

# The tied model's misses, counted with `compare` between the best other
# logit and the token's own.
MISSES = """
def count(table, compare):
    logits = table @ table.T
    own = logits.diagonal().clone()
    best_other = logits.fill_diagonal_(-torch.inf).max(dim=1).values
    return int(compare(best_other, own).sum())
"""

PAD = "ctx.padding_idx % ctx.vocab"

# The four ways as functions, each result passed through `{out}`.
FOUR_WAYS = ("ways = [lambda i, E: {out}(F.embedding(i, E)),"
             " lambda i, E: {out}(E[i]),"
             " lambda i, E: {out}(E.index_select(0, i)),"
             " lambda i, E: {out}(F.one_hot(i, len(E)).float() @ E)]")

WRONG: dict[str, str] = {
    # four ways: results instead of functions, one method four times, rows
    # that are not the looked-up ones, a library call for the product
    "ch1-ex1/results-not-functions": "ways = [E_x[ids_x]] * 4",
    "ch1-ex1/one-method-four-times": "ways = [lambda ids, E: E[ids]] * 4",
    "ch1-ex1/hard-coded": "ways = [lambda ids, E: E_x[:20]] * 4",
    "ch1-ex1/unchanged": "ways = [lambda ids, E: E] * 4",
    "ch1-ex1/other-order": FOUR_WAYS.format(out="").replace("(i", "(i.sort().values")
    .replace("E[i]", "E[i.sort().values]").replace("(0, i)", "(0, i.sort().values)"),
    "ch1-ex1/off-by-one": FOUR_WAYS.format(out="").replace("(i,", "((i + 1) % 50,")
    .replace("E[i]", "E[(i + 1) % 50]").replace("(0, i)", "(0, (i + 1) % 50)"),
    "ch1-ex1/library-for-the-product": (
        "ways = [F.embedding, lambda i, E: E[i], lambda i, E: E.index_select(0, i),"
        " lambda i, E: F.embedding(i, E)]"
    ),
    "ch1-ex1/transpose": (
        "ways = [F.embedding, lambda i, E: E[i], lambda i, E: E.index_select(0, i),"
        " lambda i, E: E.T @ F.one_hot(i, 50).float().T]"
    ),
    "ch1-ex1/type": 'ways = ["F.embedding", "E_x[ids_x]", "index_select", "X @ E"]',
    # functions that read the exercise's own table and ids, not their arguments
    "ch1-ex1/ignores-its-arguments": (
        "ways = [lambda i, E: F.embedding(ids_x, E_x), lambda i, E: E_x[ids_x],"
        " lambda i, E: E_x.index_select(0, ids_x),"
        " lambda i, E: F.one_hot(ids_x, 50).float() @ E_x]"
    ),
    # the looked-up rows times an identity: a product, but not of X and E
    "ch1-ex1/rows-times-identity": (
        "ways = [F.embedding, lambda i, E: E[i], lambda i, E: E.index_select(0, i),"
        " lambda i, E: E[i] @ torch.eye(E.shape[1])]"
    ),
    # the vocabulary typed in: right on the exercise's table only
    "ch1-ex1/vocabulary-typed-in": FOUR_WAYS.format(out="").replace("len(E)", "50"),
    # products with the wrong values: rounded, in float16
    "ch1-ex1/product-rounded": FOUR_WAYS.format(out="").replace(
        "float() @ E)", "float() @ E).round(decimals=3)"),
    "ch1-ex1/product-in-float16": FOUR_WAYS.format(out="").replace(
        "float() @ E", "half() @ E.half()"),
    # the sparse product: not the dense X E, whose nans it lacks
    "ch1-ex1/sparse-product": (
        "ways = [F.embedding, lambda i, E: E[i], lambda i, E: E.index_select(0, i),"
        " lambda i, E: torch.sparse.mm(F.one_hot(i, len(E)).to(E.dtype).to_sparse(), E)]"
    ),
    # a lookup given the product's nans by hand: right values, no product
    "ch1-ex1/lookup-with-the-products-nans": (
        "ways = [F.embedding, lambda i, E: E[i], lambda i, E: E.index_select(0, i),"
        " lambda i, E: E[i] + (0 * E).sum(0)]"
    ),
    # a token seen three times: the rows averaged, one row, a guess
    "ch1-ex2/mean": "row_1_grad = G_x.mean(dim=0)",
    "ch1-ex2/one-lookup": "row_1_grad = G_x[0]",
    "ch1-ex2/hard-coded": "row_1_grad = torch.ones(5)",
    "ch1-ex2/lucky-draw": "row_1_grad = torch.randn(5)",
    "ch1-ex2/transpose": "row_1_grad = G_x.sum(dim=1)",
    "ch1-ex2/type": 'row_1_grad = "G_x.sum(dim=0)"',
    # G_x rebound to zeros beside a zero prediction
    "ch1-ex2/rebinds-G_x": "G_x = torch.zeros(3, 5)\nrow_1_grad = torch.zeros(5)",
    # a float64 answer off by 1e-6: within float32's tolerance, not float64's
    "ch1-ex2/float64-off-by-1e-6": "row_1_grad = G_x.double().sum(dim=0) + 1e-6",
    # a float32 sum converted, then moved by 1e-9: no longer float32 values
    "ch1-ex2/float32-converted-off-by-1e-9": "row_1_grad = G_x.sum(dim=0).double() + 1e-9",
    # a column: five numbers, but not a row
    "ch1-ex2/column": "row_1_grad = G_x.sum(dim=0)[:, None]",
    # the one-hot bill: one matrix, one pass, a pair, verdicts of the wrong kind
    "ch1-ex3/float-copy-only": (
        "onehot_bytes = 4 * N_g * V_g\n"
        "onehot_flops = 4 * N_g * V_g * d_g\n"
        "larger_than_table = True"
    ),
    "ch1-ex3/forward-only": (
        "onehot_bytes = 12 * N_g * V_g\n"
        "onehot_flops = 2 * N_g * V_g * d_g\n"
        "larger_than_table = True"
    ),
    "ch1-ex3/pair": (
        "onehot_bytes = (8 * N_g * V_g, 4 * N_g * V_g)\n"
        "onehot_flops = 4 * N_g * V_g * d_g\n"
        "larger_than_table = True"
    ),
    "ch1-ex3/wrong-verdict": (
        "onehot_bytes = 12 * N_g * V_g\n"
        "onehot_flops = 4 * N_g * V_g * d_g\n"
        "larger_than_table = False"
    ),
    "ch1-ex3/string-verdict": (
        "onehot_bytes = 12 * N_g * V_g\n"
        "onehot_flops = 4 * N_g * V_g * d_g\n"
        'larger_than_table = "True"'
    ),
    "ch1-ex3/ratio-verdict": (
        "onehot_bytes = 12 * N_g * V_g\n"
        "onehot_flops = 4 * N_g * V_g * d_g\n"
        "larger_than_table = onehot_bytes / (4 * V_g * d_g)"
    ),
    "ch1-ex3/mebibytes": (
        "onehot_bytes = 12 * N_g * V_g / 2**20\n"
        "onehot_flops = 4 * N_g * V_g * d_g\n"
        "larger_than_table = True"
    ),
    "ch1-ex3/gradient-to-X-too": (
        "onehot_bytes = 12 * N_g * V_g\n"
        "onehot_flops = 6 * N_g * V_g * d_g\n"
        "larger_than_table = True"
    ),
    "ch1-ex3/type": (
        'onehot_bytes, onehot_flops, larger_than_table = "many", "lots", "yes"'
    ),
    # the sizes rebound to 1, beside the bill of a 1 x 1 x 1 product
    "ch1-ex3/rebinds-the-sizes": (
        "N_g = V_g = d_g = 1\n"
        "onehot_bytes, onehot_flops, larger_than_table = 12, 4, True"
    ),
    # biases as extra dimensions: too narrow, ones meeting ones, no biases
    "ch1-ex4/one-column": (
        "U_wide = torch.cat([U_x, b_u[:, None]], dim=1)\n"
        "V_wide = torch.cat([V_x, b_v[:, None]], dim=1)"
    ),
    "ch1-ex4/ones-meet-ones": (
        "U_wide = torch.cat([U_x, b_u[:, None], torch.ones(5, 1)], dim=1)\n"
        "V_wide = torch.cat([V_x, b_v[:, None], torch.ones(7, 1)], dim=1)"
    ),
    "ch1-ex4/unchanged": (
        "U_wide = torch.cat([U_x, torch.zeros(5, 2)], dim=1)\n"
        "V_wide = torch.cat([V_x, torch.zeros(7, 2)], dim=1)"
    ),
    "ch1-ex4/transpose": (
        "U_wide = torch.cat([U_x, b_u[:, None], torch.ones(5, 1)], dim=1).T\n"
        "V_wide = torch.cat([V_x, torch.ones(7, 1), b_v[:, None]], dim=1)"
    ),
    "ch1-ex4/type": 'U_wide, V_wide = "[u, b_u, 1]", "[v, 1, b_v]"',
    # every table and bias rebound to zeros beside zero wide tables
    "ch1-ex4/rebinds-the-tables": (
        "U_x, V_x, b_u, b_v = torch.zeros(5, 3), torch.zeros(7, 3), torch.zeros(5),"
        " torch.zeros(7)\n"
        "U_wide, V_wide = torch.zeros(5, 5), torch.zeros(7, 5)"
    ),
    # both in float64, one off by 1e-6: within float32's tolerance only
    "ch1-ex4/float64-off-by-1e-6": (
        "U_wide = torch.cat([U_x, b_u[:, None], torch.ones(5, 1)], dim=1).double() + 1e-6\n"
        "V_wide = torch.cat([V_x, torch.ones(7, 1), b_v[:, None]], dim=1).double()"
    ),
    # the same, beside a float32 table: one product cannot hold two tolerances
    "ch1-ex4/float64-off-beside-float32": (
        "U_wide = torch.cat([U_x, b_u[:, None], torch.ones(5, 1)], dim=1).double() + 1e-6\n"
        "V_wide = torch.cat([V_x, torch.ones(7, 1), b_v[:, None]], dim=1)"
    ),
    # bag modes: the sum half typed in or measured on mean, a wrong conclusion
    "ch1-ex5/typed-zeros": SIDES + (
        "sum_sides = torch.zeros(2, 2, 4)\n"
        "max_sides = sides_of('max')\n"
        "max_is_a_product = False"
    ),
    "ch1-ex5/mean-instead": SIDES + (
        "sum_sides = sides_of('mean')\n"
        "max_sides = sides_of('max')\n"
        "max_is_a_product = False"
    ),
    "ch1-ex5/wrong-conclusion": SIDES + (
        "sum_sides = sides_of('sum')\n"
        "max_sides = sides_of('max')\n"
        "max_is_a_product = True"
    ),
    "ch1-ex5/one-table": SIDES + (
        "sum_sides = sides_of('sum', E1, 0 * E1)\n"
        "max_sides = sides_of('max', E1, 0 * E1)\n"
        "max_is_a_product = False"
    ),
    "ch1-ex5/type": SIDES + (
        "sum_sides = sides_of('sum')\n"
        "max_sides = sides_of('max')\n"
        'max_is_a_product = "no"'
    ),
    # the two tables rebound to zeros, beside zero sides
    "ch1-ex5/rebinds-the-tables": (
        "E1 = E2 = torch.zeros(6, 4)\n"
        "sum_sides = max_sides = torch.zeros(2, 2, 4)\n"
        "max_is_a_product = False"
    ),
    # float64 sums off by 1e-6 beside right float32 max sides
    "ch1-ex5/float64-off-beside-float32": SIDES + (
        "sum_sides = sides_of('sum', E1.double(), E2.double()) + 1e-6\n"
        "max_sides = sides_of('max')\n"
        "max_is_a_product = False"
    ),
    # the tied model: the belief, the hits, argmin, the two d swapped
    "ch1-ex7/belief": "misses = {8: 0, 256: 0}",
    "ch1-ex7/hits": MISSES + (
        "misses = {d: count(T, torch.less) for d, T in tables_tied.items()}"
    ),
    "ch1-ex7/argmin": (
        "misses = {d: int(((T @ T.T).argmin(dim=1) != torch.arange(1000)).sum())"
        " for d, T in tables_tied.items()}"
    ),
    "ch1-ex7/swapped": MISSES + (
        "misses = {8: count(tables_tied[256], torch.greater),"
        " 256: count(tables_tied[8], torch.greater)}"
    ),
    "ch1-ex7/type": "misses = [735, 0]",
    # tables without a miss put in place of the exercise's, beside the belief
    "ch1-ex7/rebinds-the-tables": (
        "tables_tied = {d: torch.eye(1000, d, dtype=torch.float64) for d in [8, 256]}\n"
        "misses = {8: 0, 256: 0}"
    ),
    # two optimizers: 300 steps kept to their first 30, one optimizer, SGD for
    # the table, the default learning rates, a model trained twice
    "ch1-ex8/300-cut-to-30": TRAIN + (
        f"pair_of_optimizers, losses_opt = train({PAIR.format(lr=0.1)}, 300)\n"
        "losses_opt = losses_opt[:30]"
    ),
    "ch1-ex8/adam-only": TRAIN + (
        "pair_of_optimizers, losses_opt = train("
        "lambda: [optim.Adam(head_opt.parameters(), lr=0.1)], 30)"
    ),
    "ch1-ex8/sgd-table": TRAIN + (
        "pair_of_optimizers, losses_opt = train("
        "lambda: [optim.SGD(embed_opt.parameters(), lr=0.1),"
        " optim.Adam(head_opt.parameters(), lr=0.1)], 30)"
    ),
    "ch1-ex8/default-lr": TRAIN + (
        "pair_of_optimizers, losses_opt = train("
        "lambda: [optim.SparseAdam(embed_opt.parameters()),"
        " optim.Adam(head_opt.parameters())], 30)"
    ),
    "ch1-ex8/not-fresh": TRAIN + (
        f"train({PAIR.format(lr=0.1)}, 30)\n"
        "pair_of_optimizers = [optim.SparseAdam(embed_opt.parameters(), lr=0.1),"
        " optim.Adam(head_opt.parameters(), lr=0.1)]\n"
        "losses_opt = []\n"
        "for _ in range(30):\n"
        "    loss = F.mse_loss(head_opt(embed_opt(ids_opt))[:, 0], target_opt)\n"
        "    for opt in pair_of_optimizers:\n"
        "        opt.zero_grad()\n"
        "    loss.backward()\n"
        "    for opt in pair_of_optimizers:\n"
        "        opt.step()\n"
        "    losses_opt.append(loss.item())"
    ),
    "ch1-ex8/start-loss-thirty-times": TRAIN + (
        f"pair_of_optimizers, losses_opt = train({PAIR.format(lr=0.1)}, 30)\n"
        "losses_opt = [start_loss] * 30"
    ),
    "ch1-ex8/first-loss-zeroed": TRAIN + (
        f"pair_of_optimizers, losses_opt = train({PAIR.format(lr=0.1)}, 30)\n"
        "losses_opt[0] = 0.0"
    ),
    "ch1-ex8/lr-1": TRAIN + (
        f"pair_of_optimizers, losses_opt = train({PAIR.format(lr=1.0)}, 30)"
    ),
    "ch1-ex8/lr-0.05": TRAIN + (
        f"pair_of_optimizers, losses_opt = train({PAIR.format(lr=0.05)}, 30)"
    ),
    "ch1-ex8/after-each-step": TRAIN + (
        f"pair_of_optimizers, losses_opt = train({PAIR.format(lr=0.1)}, 30,"
        " after=True)"
    ),
    "ch1-ex8/sum-loss": TRAIN + (
        f"pair_of_optimizers, losses_opt = train({PAIR.format(lr=0.1)}, 30,"
        " reduction='sum')"
    ),
    # the right steps on other data: ids and targets rebound to zeros
    "ch1-ex8/rebinds-the-data": TRAIN + (
        "ids_opt, target_opt = torch.zeros(64, dtype=torch.long), torch.zeros(64)\n"
        f"pair_of_optimizers, losses_opt = train({PAIR.format(lr=0.1)}, 30)"
    ),
    "ch1-ex8/type": (
        'pair_of_optimizers = ["SparseAdam", "Adam"]\n'
        "losses_opt = [float(start_loss)] * 30"
    ),
    # your own embedding layer: padding ignored, repeated ids overwritten,
    # the library call instead of the method, autograd's own indexing, X built
    # and multiplied, PyTorch's own backward, a negative padding_idx taken
    # literally or refused, a Python loop instead of index_add_
    "ch1-ex9/ignores-padding": FUNCTION.format(
        pad=PAD, backward="        grad.index_add_(0, ids, G)"),
    "ch1-ex9/assignment": FUNCTION.format(
        pad=PAD, backward=("        keep = ids != pad\n"
                           "        grad[ids[keep]] = G[keep]")),
    "ch1-ex9/library-call": (
        "my_embedding = lambda ids, E, padding_idx=None: F.embedding("
        "ids, E, padding_idx=padding_idx)"
    ),
    "ch1-ex9/plain-indexing": "my_embedding = lambda ids, E, padding_idx=None: E[ids]",
    "ch1-ex9/forms-X": FUNCTION.format(
        pad=PAD, backward=("        X = F.one_hot(ids, ctx.vocab).to(G)\n"
                           "        X[ids == pad] = 0\n"
                           "        grad = X.T @ G")),
    "ch1-ex9/library-backward": FUNCTION.format(
        pad=PAD, backward=("        grad = torch.ops.aten.embedding_dense_backward("
                           "G, ids, ctx.vocab, pad, False)")),
    "ch1-ex9/negative-padding-literal": FUNCTION.format(
        pad="ctx.padding_idx", backward=("        keep = ids != pad\n"
                                         "        grad.index_add_(0, ids[keep], G[keep])")),
    "ch1-ex9/negative-padding-refused": FUNCTION.format(
        pad=PAD, backward=("        keep = ids != pad\n"
                           "        grad.index_add_(0, ids[keep], G[keep])"))
    + ("_mine = my_embedding\n"
       "def my_embedding(ids, E, padding_idx=None):\n"
       "    if padding_idx is not None and not 0 <= padding_idx < len(E):\n"
       "        raise ValueError('padding_idx must lie in 0..V-1')\n"
       "    return _mine(ids, E, padding_idx)\n"),
    "ch1-ex9/python-loop": FUNCTION.format(
        pad=PAD, backward=("        for n in range(len(ids)):\n"
                           "            if ids[n] != pad:\n"
                           "                grad[ids[n]] += G[n]")),
    "ch1-ex9/type": 'my_embedding = "index_add_"',
    # the exercise's own table, whatever table it is given
    "ch1-ex9/ignores-its-arguments": FUNCTION.format(
        pad=PAD, backward=("        keep = ids != pad\n"
                           "        grad.index_add_(0, ids[keep], G[keep])"))
    .replace("return E[ids]", "return E_m[ids]"),
    # no padding read as padding_idx = -1, which drops the last row
    "ch1-ex9/none-pads-last-row": FUNCTION.format(
        pad=PAD, backward=("        keep = ids != pad % ctx.vocab\n"
                           "        grad.index_add_(0, ids[keep], G[keep])")),
    # a gradient table started at nan: every gap is nan, which no bound passes
    "ch1-ex9/nan-start": FUNCTION.format(
        pad=PAD, backward=("        grad = torch.full_like(grad, float('nan'))\n"
                           "        keep = ids != pad\n"
                           "        grad.index_add_(0, ids[keep], G[keep])")),
    # the exercise's cases emptied, beside a Function that ignores padding
    "ch1-ex9/empties-the-cases": "cases_m = []\n" + FUNCTION.format(
        pad=PAD, backward="        grad.index_add_(0, ids, G)"),
}

RIGHT: dict[str, str] = {
    "ch1-ex1/numpy": FOUR_WAYS.format(out="torch.Tensor.numpy"),
    "ch1-ex1/python-lists": FOUR_WAYS.format(out="torch.Tensor.tolist"),
    "ch1-ex1/float64": (
        "ways = [lambda i, E: F.embedding(i, E.double()), lambda i, E: E.double()[i],"
        " lambda i, E: torch.index_select(E.double(), 0, i),"
        " lambda i, E: F.one_hot(i, len(E)).double() @ E.double()]"
    ),
    # the product written with einsum (it runs bmm)
    "ch1-ex1/einsum": (
        "ways = [F.embedding, lambda i, E: E[i], lambda i, E: E.index_select(0, i),"
        " lambda i, E: torch.einsum('nv,vd->nd', F.one_hot(i, len(E)).to(E.dtype), E)]"
    ),
    # ids_x reused for the student's own test afterwards
    "ch1-ex1/reuses-ids_x": FOUR_WAYS.format(out="") + "\nids_x = ids_x.flip(0)",
    # the product written out: X times E entry by entry, summed over V
    "ch1-ex1/written-out": (
        "ways = [F.embedding, lambda i, E: E[i], lambda i, E: E.index_select(0, i),"
        " lambda i, E: (F.one_hot(i, len(E)).to(E.dtype)[:, :, None] * E).sum(1)]"
    ),
    "ch1-ex1/matmul": (
        "ways = [F.embedding, lambda i, E: E[i], lambda i, E: E.index_select(0, i),"
        " lambda i, E: torch.matmul(F.one_hot(i, len(E)).to(E.dtype), E)]"
    ),
    "ch1-ex1/eye-and-matmul": (
        "ways = [F.embedding, lambda i, E: E[i], lambda i, E: E.index_select(0, i),"
        " lambda i, E: torch.matmul(torch.eye(len(E))[i], E)]"
    ),
    "ch1-ex2/numpy": "row_1_grad = G_x.numpy().sum(axis=0)",
    "ch1-ex2/python-list": "row_1_grad = [float(v) for v in G_x[2] + G_x[1] + G_x[0]]",
    "ch1-ex2/float64": "row_1_grad = G_x.double().sum(dim=0)",
    "ch1-ex2/reuses-G_x": "row_1_grad = G_x.sum(dim=0)\nG_x = G_x[:1]",
    # float32 results converted to float64: float32's precision, 1e-5
    "ch1-ex2/float32-converted": "row_1_grad = G_x.sum(dim=0).double()",
    "ch1-ex2/autograd-to-numpy-float64": (
        "emb = nn.Embedding(4, 5)\n"
        "emb(torch.tensor([1, 1, 1])).backward(G_x)\n"
        "row_1_grad = emb.weight.grad[1].numpy().astype('float64')"
    ),
    "ch1-ex2/keepdim": "row_1_grad = G_x.sum(dim=0, keepdim=True)",
    "ch1-ex3/floats-by-hand": (
        "onehot_bytes = (8.0 + 4.0) * N_g * V_g\n"
        "onehot_flops = 2 * (2.0 * N_g * V_g * d_g)\n"
        "larger_than_table = onehot_bytes > 4 * V_g * d_g"
    ),
    "ch1-ex3/torch-flag": (
        "onehot_bytes = torch.tensor(12 * N_g * V_g)\n"
        "onehot_flops = 4 * N_g * V_g * d_g\n"
        "larger_than_table = onehot_bytes > 4 * V_g * d_g"
    ),
    "ch1-ex3/numpy": (
        "import numpy as np\n"
        "onehot_bytes = np.int64(N_g) * V_g * 12\n"
        "onehot_flops = np.float64(4 * N_g * V_g * d_g)\n"
        "larger_than_table = onehot_bytes > np.int64(4) * V_g * d_g"
    ),
    # the counts typed in, then the size names reused for a small test
    "ch1-ex3/reuses-the-size-names": (
        "onehot_bytes = 12 * 1024 * 50257\n"
        "onehot_flops = 4 * 1024 * 50257 * 768\n"
        "larger_than_table = onehot_bytes > 4 * 50257 * 768\n"
        "N_g, V_g, d_g = 2, 3, 4"
    ),
    # another parametrisation: the user side doubled, the item side halved
    "ch1-ex4/scaled": (
        "U_wide = 2 * torch.cat([U_x, b_u[:, None], torch.ones(5, 1)], dim=1)\n"
        "V_wide = torch.cat([V_x, torch.ones(7, 1), b_v[:, None]], dim=1) / 2"
    ),
    # the wide tables built under the narrow tables' names
    "ch1-ex4/reuses-U_x": (
        "U_x = torch.cat([U_x, b_u[:, None], torch.ones(5, 1)], dim=1)\n"
        "V_x = torch.cat([V_x, torch.ones(7, 1), b_v[:, None]], dim=1)\n"
        "U_wide, V_wide = U_x, V_x"
    ),
    "ch1-ex4/other-order": (
        "U_wide = torch.cat([b_u[:, None], torch.ones(5, 1), U_x], dim=1)\n"
        "V_wide = torch.cat([torch.ones(7, 1), b_v[:, None], V_x], dim=1)"
    ),
    # a float64 table of float32 values beside a float32 one: one precision
    "ch1-ex4/float32-converted-beside-float32": (
        "U_wide = torch.cat([U_x, b_u[:, None], torch.ones(5, 1)], dim=1).double()\n"
        "V_wide = torch.cat([V_x, torch.ones(7, 1), b_v[:, None]], dim=1)"
    ),
    "ch1-ex4/numpy-float64": (
        "import numpy as np\n"
        "U_wide = np.hstack([U_x.double().numpy(), b_u.double().numpy()[:, None],"
        " np.ones((5, 1))])\n"
        "V_wide = np.hstack([V_x.double().numpy(), np.ones((7, 1)),"
        " b_v.double().numpy()[:, None]])"
    ),
    "ch1-ex5/float64": SIDES + (
        "sum_sides = sides_of('sum', E1.double(), E2.double())\n"
        "max_sides = sides_of('max', E1.double(), E2.double())\n"
        "max_is_a_product = bool((max_sides[0] - max_sides[1]).abs().max() <= 1e-5)"
    ),
    # the sides computed in float32, converted to float64
    "ch1-ex5/float32-converted": SIDES + (
        "sum_sides = sides_of('sum').double()\n"
        "max_sides = sides_of('max').double()\n"
        "max_is_a_product = False"
    ),
    "ch1-ex5/tensor-flag": SIDES + (
        "sum_sides = sides_of('sum')\n"
        "max_sides = sides_of('max')\n"
        "max_is_a_product = (max_sides[0] - max_sides[1]).abs().max() <= 1e-5"
    ),
    "ch1-ex5/numpy-lists": SIDES + (
        "sum_sides = sides_of('sum').numpy()\n"
        "max_sides = sides_of('max').tolist()\n"
        "max_is_a_product = False"
    ),
    # the bag ids reused afterwards for another experiment
    "ch1-ex5/reuses-bag_ids": SIDES + (
        "sum_sides, max_sides = sides_of('sum'), sides_of('max')\n"
        "max_is_a_product = False\n"
        "bag_ids = bag_ids.flip(0)"
    ),
    "ch1-ex7/numpy": (
        "import numpy as np\n"
        "misses = {}\n"
        "for d, T in tables_tied.items():\n"
        "    logits = T.numpy() @ T.numpy().T\n"
        "    misses[np.int64(d)] = np.sum(logits.argmax(axis=1) != np.arange(1000))"
    ),
    "ch1-ex7/float-counts": MISSES + (
        "misses = {d: float(count(T, torch.greater)) for d, T in tables_tied.items()}"
    ),
    # the tables' name reused afterwards for one of them
    "ch1-ex7/reuses-tables_tied": MISSES + (
        "misses = {d: count(T, torch.greater) for d, T in tables_tied.items()}\n"
        "tables_tied = {8: tables_tied[8]}"
    ),
    "ch1-ex8/other-order": TRAIN + (
        "pair_of_optimizers, losses_opt = train("
        "lambda: [optim.Adam(head_opt.parameters(), lr=0.1),"
        " optim.SparseAdam(embed_opt.parameters(), lr=0.1)], 30)"
    ),
    "ch1-ex8/numpy-losses": TRAIN + (
        "import numpy as np\n"
        f"pair_of_optimizers, losses_opt = train({PAIR.format(lr=0.1)}, 30)\n"
        "losses_opt = np.array(losses_opt, dtype=np.float32)"
    ),
    "ch1-ex8/manual-mse": (
        "embed_opt, head_opt = build_model()\n"
        "pair_of_optimizers = [optim.Adam(head_opt.parameters(), lr=0.1),"
        " optim.SparseAdam(embed_opt.parameters(), lr=0.1)]\n"
        "losses_opt = []\n"
        "for _ in range(30):\n"
        "    losses_opt.append(loss_now())\n"
        "    loss = ((head_opt(embed_opt(ids_opt)).squeeze(1) - target_opt) ** 2).mean()\n"
        "    for opt in pair_of_optimizers:\n"
        "        opt.zero_grad()\n"
        "    loss.backward()\n"
        "    for opt in pair_of_optimizers:\n"
        "        opt.step()"
    ),
    # the list of optimizers named optim, like the chapter's torch.optim
    "ch1-ex8/list-named-optim": (
        "embed_opt, head_opt = build_model()\n"
        "optim = [torch.optim.SparseAdam(embed_opt.parameters(), lr=0.1),"
        " torch.optim.Adam(head_opt.parameters(), lr=0.1)]\n"
        "losses_opt = []\n"
        "for _ in range(30):\n"
        "    loss = F.mse_loss(head_opt(embed_opt(ids_opt))[:, 0], target_opt)\n"
        "    losses_opt.append(loss.item())\n"
        "    for opt in optim:\n"
        "        opt.zero_grad()\n"
        "    loss.backward()\n"
        "    for opt in optim:\n"
        "        opt.step()\n"
        "pair_of_optimizers = optim"
    ),
    # the exercise's table reused afterwards for a smaller test of one's own
    "ch1-ex9/reuses-E_m": FUNCTION.format(
        pad=PAD, backward=("        keep = ids != pad\n"
                           "        grad.index_add_(0, ids[keep], G[keep])"))
    + "\nE_m = E_m[:2]\ncases_m = cases_m[:1]",
    "ch1-ex9/masked-rows": FUNCTION.format(
        pad=PAD, backward=("        G = G * (ids != pad)[:, None]\n"
                           "        grad.index_add_(0, ids, G)")),
    "ch1-ex9/index-put": FUNCTION.format(
        pad=PAD, backward=("        keep = ids != pad\n"
                           "        grad.index_put_((ids[keep],), G[keep], accumulate=True)")),
    "ch1-ex9/scatter-add": FUNCTION.format(
        pad=PAD, backward=("        keep = ids != pad\n"
                           "        rows = ids[keep][:, None].expand(-1, G.shape[-1])\n"
                           "        grad.scatter_add_(0, rows, G[keep])")),
}
