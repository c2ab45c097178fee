"""Wrong and right answers to chapter 3's self-checking exercises.

tests/test_course.py runs the student edition, pastes each official solution (its check must say
"correct"), then each RIGHT answer (its check must say "correct"), then each WRONG answer (its
check must say "not yet"). Keys are "<exercise label>/<kind>". Each entry sets every answer of
its exercise itself, so that it does not depend on the entries run before it.

Chance that a guess passes (no bar below is met by luck in more than 1 % of draws):
- ch3-ex1: a width guessed uniformly from 2..4096 passes with probability 1/4095 (0.02 %).
- ch3-ex2: no chance component: three copies of unit 0 (weights and bias each within 100 machine
  epsilons of its own dtype: 2.2e-14 in float64, 1.2e-05 in float32), each copy's outgoing
  weights within 100 epsilons of P1_3's dtype (relative to unit 0's) of its share of them.
- ch3-ex4, ch3-ex5: each error must match to 1e-5 (ex4) or 1e-4 (ex5) relative; a uniform guess
  in [0, 1] lands that close with probability below 1e-4 for each number, and all must match.
- ch3-ex6: six shares, each one of the 41 values k/40, must all match: 41**-6, about 2e-10.
- ch3-ex7: `needed` guessed from 1..29 passes 1 time in 29; the ratio must then match the
  check's to a relative 1e-9 in float64 (the check and the solution agree to 9e-12), or 3e-7
  when stored as float32 (a float64 ratio rounded to float32 is off by 6e-8 at most): a guess
  from [1, 1.01) lands that close in under 1e-4 of draws. The ratios from the sketches of seeds
  1 to 12 differ from seed 0's by 1.5e-6 to 3.6e-4, so another sketch does not pass; a loop
  run in float32 throughout is off by 1.2e-4 (seed 0's sketch, 9 iterations), about as far as
  another sketch, so it does not pass either, and the statement asks for float64.
- ch3-ex8: over 200 sketch seeds for each of the check's two cases (A_mp, k = 20, p = 10,
  2 iterations; a 250 x 350 matrix, k = 12, p = 5, 6 iterations), measured with the check's own
  conditions: the correct recipe passed 200 of 200 in both; without power iterations 0 of 200;
  without oversampling 0 of 200; a random orthonormal U (no sketch) 0 of 200. The third case
  (a 200 x 150 matrix of rank exactly k + p = 25, no power iterations) has no chance
  component: any Gaussian sketch spans the whole range. The count of QR factorisations
  (1 + 2 x power) and the Gram matrix test do not depend on the draw.
"""

# ch3-ex5: the right pair of errors, recomputed from the solution's bases
EX5_RIGHT = (
    "def _errors(k):\n"
    "    U, V = U_unc[:, :k], U_cen[:, :k]\n"
    "    return (relative_error(H_off @ U @ U.T, H_off),\n"
    "            relative_error(mu_off + (H_off - mu_off) @ V @ V.T, H_off))\n"
    "right = {k: _errors(k) for k in [16, r]}\n"
)
# ch3-ex6: the measured shares and the first width that keeps 80 %
EX6_RIGHT = (
    "shares = [kept(neighbours(E_joint[:, :k], my_ids), my_truth).mean().item()\n"
    "          for k in NN_WIDTHS]\n"
    "first = next(k for k, v in zip(NN_WIDTHS, shares) if v >= 0.8)\n"
)
# ch3-ex7: the least count and its ratio, from the solution's table
EX7_RIGHT = "least = max(its_ratio)\n"
# ch3-ex7: the power-iteration loop run in float32 throughout, each error from the residual
EX7_FLOAT32_LOOP = (
        "W32, ratios = W0.float(), []\n"
        "Q32 = torch.linalg.qr(W32 @ sketch.to(W32)).Q\n"
        "while True:\n"
        "    residual = W32 - Q32 @ (Q32.T @ W32)\n"
        "    ratios.append((torch.linalg.norm(residual) / torch.linalg.norm(W32)) ** 2 / best ** 2)\n"
        "    if ratios[-1] < 1.01:\n"
        "        break\n"
        "    Q32 = torch.linalg.qr(W32 @ torch.linalg.qr(W32.T @ Q32).Q).Q\n"
)
# ch3-ex8: the recipe with a choice of how the products are orthonormalised
EX8_HEAD = (
    "def rsvd(A, k, oversample=10, power=2, seed=0):\n"
    "    g = torch.Generator().manual_seed(seed)\n"
    "    omega = torch.randn(A.shape[1], k + oversample, generator=g,\n"
    "                        dtype=torch.float64).to(A)\n"
)
EX8_TAIL = (
    "    U_small, s, Vh = torch.linalg.svd(Q.T @ A, full_matrices=False)\n"
    "    return (Q @ U_small)[:, :k], s[:k], Vh[:k].T\n"
)

WRONG: dict[str, str] = {
    # --- ch3-ex1, the smallest lossless width for the two heads
    # rank W1: lossless, but merely sufficient
    "ch3-ex1/merely-sufficient": "width = rank1",
    # the rank of the layer that reads it, S W2 (its 1100 rows): also merely sufficient
    "ch3-ex1/readout-rank": "width = heads.shape[0]",
    # the width of network A's output: a wrong rank
    "ch3-ex1/output-width": "width = d_out",
    # network A's directions only: B's 100 outputs forgotten
    "ch3-ex1/one-network": "width = d_h1",
    # the layer left as it is
    "ch3-ex1/input-unchanged": "width = W1.shape[0]",
    # one direction too few
    "ch3-ex1/one-fewer": (
        "width = numerical_rank(torch.linalg.svdvals(heads @ W2 @ W1),\n"
        "                       (heads.shape[0], rank1)) - 1"
    ),
    # not a whole number of units
    "ch3-ex1/not-whole": "width = rank1 - 0.5",
    "ch3-ex1/type": 'width = "a thousand"',
    # the chapter's heads rebound to two rows: the check reads its own copy
    "ch3-ex1/rebinds-heads": "heads = heads[:2]\nwidth = 2",
    # --- ch3-ex2, split one unit three ways
    # unit 0 kept as well as copied: four copies in all
    "ch3-ex2/four-copies": (
        "P0_3 = torch.cat([P0, P0[:1].repeat(3, 1)])\n"
        "b0_3 = torch.cat([b0, b0[:1].repeat(3)])\n"
        "P1_3 = torch.cat([P1, P1[:, :1] * P1.new_tensor([0.2, 0.3, 0.5])], dim=1)"
    ),
    # three copies, but an even split of the outgoing weight
    "ch3-ex2/even-split": (
        "P0_3 = torch.cat([P0[1:], P0[:1].repeat(3, 1)])\n"
        "b0_3 = torch.cat([b0[1:], b0[:1].repeat(3)])\n"
        "P1_3 = torch.cat([P1[:, 1:], P1[:, :1].repeat(1, 3) / 3], dim=1)"
    ),
    # the shares put on the incoming weights instead of the outgoing ones
    "ch3-ex2/shares-on-inputs": (
        "shares_in = torch.tensor([0.2, 0.3, 0.5]).to(P0)[:, None]\n"
        "P0_3 = torch.cat([P0[1:], P0[:1] * shares_in])\n"
        "b0_3 = torch.cat([b0[1:], b0[:1].repeat(3)])\n"
        "P1_3 = torch.cat([P1[:, 1:], P1[:, :1].repeat(1, 3)], dim=1)"
    ),
    # the network unchanged
    "ch3-ex2/input-unchanged": "P0_3, b0_3, P1_3 = P0, b0, P1",
    # the second layer transposed
    "ch3-ex2/transpose": (
        "P0_3 = torch.cat([P0[1:], P0[:1].repeat(3, 1)])\n"
        "b0_3 = torch.cat([b0[1:], b0[:1].repeat(3)])\n"
        "P1_3 = torch.cat([P1[:, 1:], P1[:, :1] * P1.new_tensor([0.2, 0.3, 0.5])], dim=1).T"
    ),
    # a share off by 1e-9 in float64: far above float64 rounding, and rejected
    "ch3-ex2/tiny-error": (
        "P0_3 = torch.cat([P0[1:], P0[:1].repeat(3, 1)])\n"
        "b0_3 = torch.cat([b0[1:], b0[:1].repeat(3)])\n"
        "P1_3 = torch.cat([P1[:, 1:], P1[:, :1] * P1.new_tensor([0.2, 0.3, 0.5 + 1e-9])],\n"
        "                 dim=1)"
    ),
    # float64 weights with shares rounded to float32 (torch.tensor's default dtype): off by
    # 3e-9, far above float64 rounding; the message gives the tolerance of the answer's dtype
    "ch3-ex2/float32-shares": (
        "P0_3 = torch.cat([P0[1:], P0[:1].repeat(3, 1)])\n"
        "b0_3 = torch.cat([b0[1:], b0[:1].repeat(3)])\n"
        "P1_3 = torch.cat([P1[:, 1:], P1[:, :1] * torch.tensor([0.2, 0.3, 0.5]).to(P1)], dim=1)"
    ),
    "ch3-ex2/type": 'P0_3, b0_3, P1_3 = "copies", "biases", "shares"',
    # the right projections on unit 0's weights, but each copy's column drifts orthogonally
    # to them (0.2c + v, 0.3c - v, 0.5c): the function changes
    "ch3-ex2/orthogonal-drift": (
        "P0_3 = torch.cat([P0[1:], P0[:1].repeat(3, 1)])\n"
        "b0_3 = torch.cat([b0[1:], b0[:1].repeat(3)])\n"
        "c = P1[:, 0]\n"
        "v = torch.randn(32, generator=torch.Generator().manual_seed(1),\n"
        "                dtype=torch.float64).to(c)\n"
        "v = (v - (v @ c) / (c @ c) * c) * c.norm() / 3\n"
        "P1_3 = torch.cat([P1[:, 1:], (0.2 * c + v)[:, None], (0.3 * c - v)[:, None],\n"
        "                  (0.5 * c)[:, None]], dim=1)"
    ),
    # a float32 bias beside float64 outgoing weights with a share off by 1e-6: the outgoing
    # weights are judged at their own dtype's tolerance, not the bias's
    "ch3-ex2/coarse-bias-hides-share": (
        "P0_3 = torch.cat([P0[1:], P0[:1].repeat(3, 1)])\n"
        "b0_3 = torch.cat([b0[1:], b0[:1].repeat(3)]).float()\n"
        "P1_3 = torch.cat([P1[:, 1:], P1[:, :1] * P1.new_tensor([0.2, 0.3, 0.5 + 1e-6])],\n"
        "                 dim=1)"
    ),
    # the chapter's P1 rebound with unit 0's outgoing weights zeroed, then an even split of
    # them: the check's shares would be 0/0 = nan if it read the chapter's P1
    "ch3-ex2/rebinds-P1": (
        "P0_3 = torch.cat([P0[1:], P0[:1].repeat(3, 1)])\n"
        "b0_3 = torch.cat([b0[1:], b0[:1].repeat(3)])\n"
        "P1 = P1.clone()\n"
        "P1[:, 0] = 0\n"
        "P1_3 = torch.cat([P1[:, 1:], P1[:, :1].repeat(1, 3)], dim=1)"
    ),
    # --- ch3-ex4, merge three networks
    # every network given k/3 directions, and the joint error at the wrong width
    "ch3-ex4/wrong-width": (
        "s3 = torch.cat(spectra3).sort(descending=True).values\n"
        "joint3 = best_error(s3)[k1 // 3].item()\n"
        "separate3 = joint3\n"
        "allocation3 = [k1 // 3] * 3"
    ),
    # right errors, but the allocation of the separate split
    "ch3-ex4/even-allocation": (
        "s3 = torch.cat(spectra3).sort(descending=True).values\n"
        "joint3 = best_error(s3)[k1].item()\n"
        "separate3 = (sum(tail_sums(s ** 2)[k1 // 3] for s in spectra3)\n"
        "             / tail_sums(s3 ** 2)[0]).sqrt().item()\n"
        "allocation3 = [k1 // 3] * 3"
    ),
    # squared errors instead of the errors themselves
    "ch3-ex4/squared": (
        "s3 = torch.cat(spectra3).sort(descending=True).values\n"
        "joint3 = best_error(s3)[k1].item() ** 2\n"
        "separate3 = (sum(tail_sums(s ** 2)[k1 // 3] for s in spectra3)\n"
        "             / tail_sums(s3 ** 2)[0]).item()\n"
        "allocation3 = [int((s >= s3[k1 - 1]).sum()) for s in spectra3]"
    ),
    # network C forgotten: the joint error of A and B alone
    "ch3-ex4/two-networks": (
        "s2 = torch.cat(spectra3[:2]).sort(descending=True).values\n"
        "joint3 = best_error(s2)[k1].item()\n"
        "separate3 = best_error(sA)[k1 // 2].item()\n"
        "allocation3 = [k1 // 2, k1 // 2, 0]"
    ),
    "ch3-ex4/type": 'joint3, separate3, allocation3 = "low", "high", "A, B, C"',
    # --- ch3-ex5, centring: wrong metrics, swapped pairs, wrong keys
    "ch3-ex5/swapped": EX5_RIGHT + "compared = {k: (c, u) for k, (u, c) in right.items()}",
    # the squared relative error
    "ch3-ex5/squared": EX5_RIGHT + "compared = {k: (u ** 2, c ** 2) for k, (u, c) in right.items()}",
    # the centred error divided by the centred norm ‖H_off − μ‖
    "ch3-ex5/divided-by-centred-norm": (
        EX5_RIGHT + "ratio = (torch.linalg.norm(H_off) / torch.linalg.norm(H_off - mu_off)).item()\n"
        "compared = {k: (u, c * ratio) for k, (u, c) in right.items()}"
    ),
    # the network's output measured instead of the activations
    "ch3-ex5/output-metric": (
        "compared = {}\n"
        "for k in [16, r]:\n"
        "    U, V = U_unc[:, :k], U_cen[:, :k]\n"
        "    compared[k] = (relative_error(H_off @ U @ U.T @ M, H_off @ M),\n"
        "                   relative_error((mu_off + (H_off - mu_off) @ V @ V.T) @ M, H_off @ M))"
    ),
    # the ladder's widths instead of the exercise's
    "ch3-ex5/wrong-keys": EX5_RIGHT + "compared = {k + 1: v for k, v in right.items()}",
    "ch3-ex5/type": 'compared = {16: "small", r: "smaller"}',
    # --- ch3-ex6, neighbours of four words
    "ch3-ex6/one-too-small": EX6_RIGHT + (
        "kept_shares, k_80 = shares, NN_WIDTHS[NN_WIDTHS.index(first) - 1]"),
    "ch3-ex6/one-too-large": EX6_RIGHT + (
        "kept_shares, k_80 = shares, NN_WIDTHS[NN_WIDTHS.index(first) + 1]"),
    # the width guessed, nothing measured
    "ch3-ex6/hard-coded": EX6_RIGHT + "kept_shares, k_80 = [0.8] * 6, first",
    # measured with the separate bases instead of the joint one
    "ch3-ex6/separate-basis": EX6_RIGHT + (
        "kept_shares = [kept(neighbours(torch.cat([E_sep[:, :(k + 1) // 2],\n"
        "                                          E_sep[:, h:h + k // 2]], dim=1),\n"
        "                               my_ids), my_truth).mean().item()\n"
        "               for k in NN_WIDTHS]\n"
        "k_80 = first"
    ),
    "ch3-ex6/type": EX6_RIGHT + 'kept_shares, k_80 = shares, "the fifth width"',
    # --- ch3-ex7, power iterations
    # the reference's two iterations
    "ch3-ex7/reference-setting": "needed, ratio_needed = 2, its_ratio[2]",
    "ch3-ex7/one-too-many": EX7_RIGHT + "needed, ratio_needed = least + 1, its_ratio[least]",
    "ch3-ex7/one-too-few": EX7_RIGHT + "needed, ratio_needed = least - 1, its_ratio[least - 1]",
    # the count right, the ratio typed in
    "ch3-ex7/ratio-hard-coded": EX7_RIGHT + "needed, ratio_needed = least, 1.0",
    "ch3-ex7/type": 'needed, ratio_needed = "nine", "about 1"',
    # the same loop from another sketch (seed 1): the same count, a ratio 1.5e-6 to 3.6e-4 off
    "ch3-ex7/other-sketch": (
        "other = torch.randn(W0.shape[1], k1, dtype=torch.float64,\n"
        "                    generator=torch.Generator().manual_seed(1)).to(W0)\n"
        "Q_o, ratios = torch.linalg.qr(W0 @ other).Q, []\n"
        "while True:\n"
        "    WtQ = W0.T @ Q_o\n"
        "    ratios.append((1 - (torch.linalg.norm(WtQ) / torch.linalg.norm(W0)).item() ** 2)\n"
        "                  / best ** 2)\n"
        "    if ratios[-1] < 1.01:\n"
        "        break\n"
        "    Q_o = torch.linalg.qr(W0 @ torch.linalg.qr(WtQ).Q).Q\n"
        "needed, ratio_needed = len(ratios) - 1, ratios[-1]"
    ),
    # another sketch (seed 1) in float64, its ratio stored as float32: the tolerance for a
    # float32 ratio (3e-7, float32's rounding) is five times tighter than the nearest sketch's gap
    "ch3-ex7/other-sketch-float32": (
        "other = torch.randn(W0.shape[1], k1, dtype=torch.float64,\n"
        "                    generator=torch.Generator().manual_seed(1)).to(W0)\n"
        "Q_o, ratios = torch.linalg.qr(W0 @ other).Q, []\n"
        "while True:\n"
        "    residual = W0 - Q_o @ (Q_o.T @ W0)\n"
        "    ratios.append((torch.linalg.norm(residual) / torch.linalg.norm(W0)) ** 2 / best ** 2)\n"
        "    if ratios[-1] < 1.01:\n"
        "        break\n"
        "    Q_o = torch.linalg.qr(W0 @ torch.linalg.qr(W0.T @ Q_o).Q).Q\n"
        "needed, ratio_needed = len(ratios) - 1, ratios[-1].float()"
    ),
    # the whole loop in float32 (each error measured from the residual itself): the ratio is off
    # by 1.2e-4, as far as another sketch's, so the statement asks for float64
    "ch3-ex7/float32-loop": EX7_FLOAT32_LOOP + "needed, ratio_needed = len(ratios) - 1, ratios[-1]",
    # the same float32 loop, its ratio handed in as a Python float (.item()): judged as float64
    "ch3-ex7/float32-loop-item": (
        EX7_FLOAT32_LOOP + "needed, ratio_needed = len(ratios) - 1, ratios[-1].item()"),
    # --- ch3-ex8, a randomized SVD of one's own
    # the chapter's function itself, and a wrapper that calls it
    "ch3-ex8/chapter-function": "rsvd = randomized_svd",
    "ch3-ex8/wraps-chapter-function": (
        "def rsvd(A, k, oversample=10, power=2, seed=0):\n"
        "    U, s = randomized_svd(A, k, oversample, power, seed)\n"
        "    return U, s, (A.T @ U) / s"
    ),
    # a library call instead of the method, seeded to draw the same sketch
    "ch3-ex8/library-svd-lowrank": (
        "def rsvd(A, k, oversample=10, power=2, seed=0):\n"
        "    torch.manual_seed(seed)\n"
        "    U, s, V = torch.svd_lowrank(A, q=k + oversample, niter=power)\n"
        "    return U[:, :k], s[:k], V[:, :k]"
    ),
    # the exact SVD, truncated: optimal, but no sketch at all
    "ch3-ex8/truncated-svd": (
        "def rsvd(A, k, oversample=10, power=2, seed=0):\n"
        "    U, s, Vh = torch.linalg.svd(A, full_matrices=False)\n"
        "    return U[:, :k], s[:k], Vh[:k].T"
    ),
    # power iterations without a QR between the products
    "ch3-ex8/no-qr": EX8_HEAD + (
        "    Y = A @ omega\n"
        "    for _ in range(power):\n"
        "        Y = A @ (A.T @ Y)\n"
        "    Q = torch.linalg.qr(Y).Q\n"
    ) + EX8_TAIL,
    # the power argument ignored
    "ch3-ex8/no-power": EX8_HEAD + "    Q = torch.linalg.qr(A @ omega).Q\n" + EX8_TAIL,
    # a sketch from the global generator, unseeded
    "ch3-ex8/lucky-draw": (
        "def rsvd(A, k, oversample=10, power=2, seed=0):\n"
        "    omega = torch.randn(A.shape[1], k + oversample, dtype=A.dtype)\n"
        "    Q = torch.linalg.qr(A @ omega).Q\n"
        "    for _ in range(power):\n"
        "        Q = torch.linalg.qr(A @ torch.linalg.qr(A.T @ Q).Q).Q\n"
    ) + EX8_TAIL,
    # the chapter's own tensors returned: A_mp's exact factors, whatever A is
    "ch3-ex8/aliases-chapter-tensors": (
        "def rsvd(A, k, oversample=10, power=2, seed=0):\n"
        "    return L_mp[:, :k], sigma_mp[:k], R_mp[:, :k]"
    ),
    # the check's own helper used for the range: A_mp's span, whatever A is
    "ch3-ex8/check-helper": (
        "def rsvd(A, k, oversample=10, power=2, seed=0):\n"
        "    Q = exact_range(L_mp, R_mp, k + oversample, power, seed)\n"
    ) + EX8_TAIL,
    # the solution's stored answer, returned for every matrix
    "ch3-ex8/stored-answer": "rsvd = lambda A, k, *args, **kwargs: (U_mp, s_mp, V_mp)",
    # the recipe, but the smallest of the k triplets first
    "ch3-ex8/ascending": EX8_HEAD + (
        "    Q = torch.linalg.qr(A @ omega).Q\n"
        "    for _ in range(power):\n"
        "        Q = torch.linalg.qr(A @ torch.linalg.qr(A.T @ Q).Q).Q\n"
        "    U_small, s, Vh = torch.linalg.svd(Q.T @ A, full_matrices=False)\n"
        "    return (Q @ U_small)[:, :k].flip(1), s[:k].flip(0), Vh[:k].T.flip(1)"
    ),
    # the values sorted, the vectors left in the wrong order
    "ch3-ex8/vectors-out-of-order": EX8_HEAD + (
        "    Q = torch.linalg.qr(A @ omega).Q\n"
        "    for _ in range(power):\n"
        "        Q = torch.linalg.qr(A @ torch.linalg.qr(A.T @ Q).Q).Q\n"
        "    U_small, s, Vh = torch.linalg.svd(Q.T @ A, full_matrices=False)\n"
        "    return (Q @ U_small)[:, :k].flip(1), s[:k], Vh[:k].T.flip(1)"
    ),
    # no oversampling: a sketch of k columns, the argument ignored
    "ch3-ex8/no-oversample": (
        "def rsvd(A, k, oversample=10, power=2, seed=0):\n"
        "    g = torch.Generator().manual_seed(seed)\n"
        "    omega = torch.randn(A.shape[1], k, generator=g, dtype=torch.float64).to(A)\n"
        "    Q = torch.linalg.qr(A @ omega).Q\n"
        "    for _ in range(power):\n"
        "        Q = torch.linalg.qr(A @ torch.linalg.qr(A.T @ Q).Q).Q\n"
    ) + EX8_TAIL,
    "ch3-ex8/type": 'rsvd = "my randomized SVD"',
    # one QR per iteration: A Aᵀ Q orthonormalised once (as accurate here; not the recipe)
    "ch3-ex8/one-qr-per-iteration": EX8_HEAD + (
        "    Q = torch.linalg.qr(A @ omega).Q\n"
        "    for _ in range(power):\n"
        "        Q = torch.linalg.qr(A @ (A.T @ Q)).Q\n"
    ) + EX8_TAIL,
    # the Gram matrix A Aᵀ formed once, then one QR per iteration
    "ch3-ex8/gram-matrix": EX8_HEAD + (
        "    Q = torch.linalg.qr(A @ omega).Q\n"
        "    G = A @ A.T\n"
        "    for _ in range(power):\n"
        "        Q = torch.linalg.qr(G @ Q).Q\n"
    ) + EX8_TAIL,
    # the Gram matrix with the recipe's count of QR factorisations
    "ch3-ex8/gram-two-qr": EX8_HEAD + (
        "    Q = torch.linalg.qr(A @ omega).Q\n"
        "    G = A @ A.T\n"
        "    for _ in range(power):\n"
        "        Q = torch.linalg.qr(G @ torch.linalg.qr(Q).Q).Q\n"
    ) + EX8_TAIL,
    # no QR after the sketch's product: Q is not orthonormal when power = 0
    "ch3-ex8/no-first-qr": EX8_HEAD + (
        "    Q = A @ omega\n"
        "    for _ in range(power):\n"
        "        Q = torch.linalg.qr(A @ torch.linalg.qr(A.T @ Q).Q).Q\n"
    ) + EX8_TAIL,
}

RIGHT: dict[str, str] = {
    # ch3-ex1: the width as a float, a numpy integer, a tensor
    "ch3-ex1/float": "width = float(numerical_rank(s_read, W_read.shape))",
    "ch3-ex1/numpy": "import numpy as np\nwidth = np.int64(numerical_rank(s_read, W_read.shape))",
    "ch3-ex1/tensor": "width = torch.tensor(numerical_rank(s_read, W_read.shape))",
    # the chapter's W2 rebound to the layer that reads the hidden one
    "ch3-ex1/rebinds-W2": (
        "W2 = heads @ W2\n"
        "width = numerical_rank(torch.linalg.svdvals(W2 @ U_S), W2.shape)"
    ),
    # ch3-ex2: float32, the copies first in another order of shares, numpy
    "ch3-ex2/float32": (
        "P0_3 = torch.cat([P0[1:], P0[:1].repeat(3, 1)]).float()\n"
        "b0_3 = torch.cat([b0[1:], b0[:1].repeat(3)]).float()\n"
        "P1_3 = torch.cat([P1[:, 1:], P1[:, :1] * P1.new_tensor([0.2, 0.3, 0.5])],\n"
        "                 dim=1).float()"
    ),
    "ch3-ex2/copies-first": (
        "P0_3 = torch.cat([P0[:1].repeat(3, 1), P0[1:]])\n"
        "b0_3 = torch.cat([b0[:1].repeat(3), b0[1:]])\n"
        "P1_3 = torch.cat([P1[:, :1] * P1.new_tensor([0.5, 0.2, 0.3]), P1[:, 1:]], dim=1)"
    ),
    "ch3-ex2/numpy": (
        "P0_3 = torch.cat([P0[1:], P0[:1].repeat(3, 1)]).cpu().numpy()\n"
        "b0_3 = torch.cat([b0[1:], b0[:1].repeat(3)]).cpu().numpy()\n"
        "P1_3 = torch.cat([P1[:, 1:], P1[:, :1] * P1.new_tensor([0.2, 0.3, 0.5])],\n"
        "                 dim=1).cpu().numpy()"
    ),
    # the copies interleaved with the other units, shares in yet another order
    "ch3-ex2/interleaved": (
        "P0_3 = torch.cat([P0[:1], P0[1:64], P0[:1], P0[64:], P0[:1]])\n"
        "b0_3 = torch.cat([b0[:1], b0[1:64], b0[:1], b0[64:], b0[:1]])\n"
        "c = P1[:, :1]\n"
        "P1_3 = torch.cat([0.5 * c, P1[:, 1:64], 0.2 * c, P1[:, 64:], 0.3 * c], dim=1)"
    ),
    # ch3-ex4: numpy and float32 numbers, a tuple or a tensor of counts
    "ch3-ex4/numpy": (
        "import numpy as np\n"
        "s3 = torch.cat(spectra3).sort(descending=True).values\n"
        "joint3 = np.float32(best_error(s3)[k1].item())\n"
        "separate3 = np.float64((sum(tail_sums(s ** 2)[k1 // 3] for s in spectra3)\n"
        "                        / tail_sums(s3 ** 2)[0]).sqrt().item())\n"
        "allocation3 = tuple(np.array([int((s >= s3[k1 - 1]).sum()) for s in spectra3]))"
    ),
    "ch3-ex4/tensors": (
        "s3 = torch.cat(spectra3).sort(descending=True).values\n"
        "joint3 = best_error(s3)[k1]\n"
        "separate3 = (sum(tail_sums(s ** 2)[k1 // 3] for s in spectra3)\n"
        "             / tail_sums(s3 ** 2)[0]).sqrt().float()\n"
        "allocation3 = torch.stack([(s >= s3[k1 - 1]).sum() for s in spectra3])"
    ),
    # ch3-ex5: pairs as numpy arrays, lists, float32 tensors
    "ch3-ex5/numpy": EX5_RIGHT + "import numpy as np\ncompared = {k: np.array(v) for k, v in right.items()}",
    "ch3-ex5/lists": EX5_RIGHT + "compared = {k: list(v) for k, v in right.items()}",
    "ch3-ex5/float32": (
        EX5_RIGHT + "compared = {k: torch.tensor(v, dtype=torch.float32) for k, v in right.items()}"
    ),
    # ch3-ex6: numpy shares and width, float32 shares
    "ch3-ex6/numpy": EX6_RIGHT + "import numpy as np\nkept_shares, k_80 = np.array(shares), np.int64(first)",
    "ch3-ex6/float32": EX6_RIGHT + (
        "kept_shares, k_80 = torch.tensor(shares, dtype=torch.float32), float(first)"),
    # ch3-ex7: numpy integer and float32 ratio, a float count
    "ch3-ex7/numpy": EX7_RIGHT + (
        "import numpy as np\nneeded, ratio_needed = np.int64(least), np.float32(its_ratio[least])"),
    "ch3-ex7/float": EX7_RIGHT + "needed, ratio_needed = float(least), torch.tensor(its_ratio[least])",
    # ch3-ex8: the recipe in float32, and with numpy's QR and SVD
    "ch3-ex8/float32": (
        "def rsvd(A, k, oversample=10, power=2, seed=0):\n"
        "    A = A.float()\n"
        "    g = torch.Generator().manual_seed(seed)\n"
        "    omega = torch.randn(A.shape[1], k + oversample, generator=g,\n"
        "                        dtype=torch.float64).float()\n"
        "    Q = torch.linalg.qr(A @ omega).Q\n"
        "    for _ in range(power):\n"
        "        Q = torch.linalg.qr(A @ torch.linalg.qr(A.T @ Q).Q).Q\n"
    ) + EX8_TAIL,
    # the recipe with other defaults: the check passes every argument itself
    "ch3-ex8/other-defaults": (
        "def rsvd(A, k, oversample=5, power=4, seed=123):\n"
        "    g = torch.Generator().manual_seed(seed)\n"
        "    omega = torch.randn(A.shape[1], k + oversample, generator=g,\n"
        "                        dtype=torch.float64).to(A)\n"
        "    Q = torch.linalg.qr(A @ omega).Q\n"
        "    for _ in range(power):\n"
        "        Q = torch.linalg.qr(A @ torch.linalg.qr(A.T @ Q).Q).Q\n"
    ) + EX8_TAIL,
    "ch3-ex8/numpy": (
        "import numpy as np\n"
        "def rsvd(A, k, oversample=10, power=2, seed=0):\n"
        "    A = A.cpu().numpy()\n"
        "    g = torch.Generator().manual_seed(seed)\n"
        "    omega = torch.randn(A.shape[1], k + oversample, generator=g,\n"
        "                        dtype=torch.float64).numpy()\n"
        "    Q = np.linalg.qr(A @ omega)[0]\n"
        "    for _ in range(power):\n"
        "        Q = np.linalg.qr(A @ np.linalg.qr(A.T @ Q)[0])[0]\n"
        "    U_small, s, Vh = np.linalg.svd(Q.T @ A, full_matrices=False)\n"
        "    return (Q @ U_small)[:, :k], s[:k], Vh[:k].T"
    ),
    # the recipe with the signs of some singular pairs flipped: the same factorisation
    "ch3-ex8/sign-flipped": EX8_HEAD + (
        "    Q = torch.linalg.qr(A @ omega).Q\n"
        "    for _ in range(power):\n"
        "        Q = torch.linalg.qr(A @ torch.linalg.qr(A.T @ Q).Q).Q\n"
        "    U_small, s, Vh = torch.linalg.svd(Q.T @ A, full_matrices=False)\n"
        "    signs = torch.ones(k, dtype=A.dtype)\n"
        "    signs[::2] = -1\n"
        "    return (Q @ U_small)[:, :k] * signs, s[:k], Vh[:k].T * signs\n"
    ),
}
