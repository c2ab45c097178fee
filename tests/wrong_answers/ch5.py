"""Wrong and right answers to chapter 5's self-checking exercises.

tests/test_course.py runs the student edition, pastes each official solution (its check must say
"correct"), then each RIGHT answer (its check must say "correct"), then each WRONG answer (its
check must say "not yet"). Keys are "<exercise label>/<kind>". Each entry sets every answer of
its exercise itself, so that it does not depend on the entries run before it. The student
edition has no solution cells: no entry uses a name that only a solution defines.

Chance that a guess passes:
- ch5-ex1, ch5-ex2, ch5-ex4, ch5-ex5, ch5-ex8: functions, called by the check on fresh inputs of
  its own (other shapes, float32 and float64, rows of zeros, inputs that must be refused); no
  chance component.
- ch5-ex6: four accuracies, each one of the 501 values k/5 (%), must all match, and k_enough one
  of four values: a uniform guess passes with probability 501**-4 / 4, about 4e-12.
- ch5-ex7: two counts, each from 0..64: a uniform guess passes with probability 65**-2 (0.02 %).
"""

# ch5-ex1: the inverse of permute, written without calling it
EX1_BY_HAND = (
    "def unpermute(layers, perms):\n"
    "    inverse = [torch.argsort(torch.as_tensor(p)) for p in perms]\n"
    "    out = []\n"
    "    for i, (W, b) in enumerate(layers):\n"
    "        if i > 0:\n"
    "            W = W[:, inverse[i - 1]]\n"
    "        if i < len(inverse):\n"
    "            W, b = W[inverse[i]], b[inverse[i]]\n"
    "        out.append((W.clone(), b.clone()))\n"
    "    return out\n"
)
# ch5-ex2: the barrier with full validation, in pure Python
EX2_CHECKS = (
    "def _validated(alphas, values):\n"
    "    if len(alphas) < 2 or len(alphas) != len(values):\n"
    "        raise ValueError('at least two alphas, one value per alpha')\n"
    "    if alphas[0] != 0 or alphas[-1] != 1 or any(\n"
    "            b <= a for a, b in zip(alphas, alphas[1:])):\n"
    "        raise ValueError('alphas rise strictly from 0 to 1')\n"
    "    if not all(math.isfinite(v) for v in values):\n"
    "        raise ValueError('finite values only')\n"
)
# ch5-ex4: the assignment problem on a matrix of scores
EX4_HEAD = (
    "def match_cosine(W_A, W_B):\n"
    "    W_A, W_B = W_A.double(), W_B.double()\n"
)
# ch5-ex6: REPAIR's test accuracy with statistics from the first k training digits
EX6_ACC = (
    "def _acc(net, X, y):\n"
    "    return 100 * (forward(net, X).argmax(1) == y).double().mean().item()\n"
    "_ks = [10, 30, 100, 1000]\n"
)
# ch5-ex7: how many units weight matching of B_scaled, and activation matching of B_flipped,
# put elsewhere than for B
EX7_MOVED = (
    "_new_w = weight_matching(A, B_scaled)[0]\n"
    "_new_a = activation_matching(A, B_flipped, X_train)\n"
    "def _moved(new, old):\n"
    "    return sum((p != q).sum().item() for p, q in zip(new, old))\n"
)
# ch5-ex8: align every network to the first, average, and reset the units' statistics
EX8_ALIGN = (
    "def _aligned(networks, X, match=activation_matching):\n"
    "    first = networks[0]\n"
    "    return [first] + [permute(n, match(first, n, X)) for n in networks[1:]]\n"
    "def _mean(nets):\n"
    "    return [tuple(sum(n[i][j] for n in nets) / len(nets) for j in (0, 1))\n"
    "            for i in range(len(nets[0]))]\n"
    "def _repaired(mean_net, targets, X):\n"
    "    merged, H = [], X\n"
    "    for ell, (W, b) in enumerate(mean_net[:-1]):\n"
    "        Zs = [pre_activations(n, X)[ell] for n in targets]\n"
    "        mu = sum(z.mean(0) for z in Zs) / len(Zs)\n"
    "        sd = sum(z.std(0) for z in Zs) / len(Zs)\n"
    "        Z = H @ W.T + b\n"
    "        s = sd / Z.std(0)\n"
    "        W, b = W * s[:, None], (b - Z.mean(0)) * s + mu\n"
    "        merged.append((W, b))\n"
    "        H = torch.relu(H @ W.T + b)\n"
    "    return merged + mean_net[-1:]\n"
)

WRONG: dict[str, str] = {
    # --- ch5-ex1, undo a permutation
    # the same permutation again: undoes only permutations that are their own inverse
    "ch5-ex1/permute-again": "def unpermute(layers, perms):\n    return permute(layers, perms)",
    # the rows and biases put back, the columns of the next layer left permuted
    "ch5-ex1/rows-only": (
        "def unpermute(layers, perms):\n"
        "    out = []\n"
        "    for i, (W, b) in enumerate(layers):\n"
        "        if i < len(perms):\n"
        "            inverse = torch.argsort(torch.as_tensor(perms[i]))\n"
        "            W, b = W[inverse], b[inverse]\n"
        "        out.append((W, b))\n"
        "    return out"
    ),
    # the input unchanged
    "ch5-ex1/input-unchanged": "def unpermute(layers, perms):\n    return layers",
    # right values, but written into the arguments
    "ch5-ex1/in-place": (
        "def unpermute(layers, perms):\n"
        "    back = permute(layers, [torch.argsort(torch.as_tensor(p)) for p in perms])\n"
        "    for (W, b), (W_back, b_back) in zip(layers, back):\n"
        "        W.copy_(W_back)\n"
        "        b.copy_(b_back)\n"
        "    return layers"
    ),
    # right values, in float64 whatever the input's dtype
    "ch5-ex1/dtype": (
        "def unpermute(layers, perms):\n"
        "    return permute([(W.double(), b.double()) for W, b in layers],\n"
        "                   [torch.argsort(torch.as_tensor(p)) for p in perms])"
    ),
    # the chapter's network B, whatever the arguments
    "ch5-ex1/hard-coded": "def unpermute(layers, perms):\n    return B",
    "ch5-ex1/type": 'unpermute = "argsort"',
    # --- ch5-ex2, the barrier on any grid
    # the chapter's barrier, which needs the eleven evenly spaced alphas
    "ch5-ex2/library": "def barrier_on(alphas, values):\n    return barrier(values)",
    # the grid taken as evenly spaced, whatever the alphas say
    "ch5-ex2/even-grid": EX2_CHECKS + (
        "def barrier_on(alphas, values):\n"
        "    _validated(alphas, values)\n"
        "    n = len(values)\n"
        "    return max(v - ((1 - k / (n - 1)) * values[0] + k / (n - 1) * values[-1])\n"
        "               for k, v in enumerate(values))"
    ),
    # the largest value against the mean of the two ends: the midpoint's line only
    "ch5-ex2/mean-of-ends": EX2_CHECKS + (
        "def barrier_on(alphas, values):\n"
        "    _validated(alphas, values)\n"
        "    return max(values) - (values[0] + values[-1]) / 2"
    ),
    # the interior points only: negative for a curve that dips
    "ch5-ex2/interior-only": EX2_CHECKS + (
        "def barrier_on(alphas, values):\n"
        "    _validated(alphas, values)\n"
        "    inner = [v - ((1 - a) * values[0] + a * values[-1])\n"
        "             for a, v in zip(alphas[1:-1], values[1:-1])]\n"
        "    return max(inner) if inner else 0.0"
    ),
    # the right number, but no ValueError for impossible input
    "ch5-ex2/no-validation": (
        "def barrier_on(alphas, values):\n"
        "    return max(v - ((1 - a) * values[0] + a * values[-1])\n"
        "               for a, v in zip(alphas, values))"
    ),
    # every check but the one for values that are not finite: nan and inf pass
    "ch5-ex2/nan-passes": (
        "def barrier_on(alphas, values):\n"
        "    if len(alphas) < 2 or len(alphas) != len(values):\n"
        "        raise ValueError('at least two alphas, one value per alpha')\n"
        "    if alphas[0] != 0 or alphas[-1] != 1 or any(\n"
        "            b <= a for a, b in zip(alphas, alphas[1:])):\n"
        "        raise ValueError('alphas rise strictly from 0 to 1')\n"
        "    return max(v - ((1 - a) * values[0] + a * values[-1])\n"
        "               for a, v in zip(alphas, values))"
    ),
    # repeated alphas refused, alphas that go down accepted
    "ch5-ex2/repeats-only": (
        "def barrier_on(alphas, values):\n"
        "    if len(alphas) < 2 or len(alphas) != len(values):\n"
        "        raise ValueError('at least two alphas, one value per alpha')\n"
        "    if alphas[0] != 0 or alphas[-1] != 1 or len(set(alphas)) != len(alphas):\n"
        "        raise ValueError('alphas from 0 to 1, no repeats')\n"
        "    if not all(math.isfinite(v) for v in values):\n"
        "        raise ValueError('finite values only')\n"
        "    return max(v - ((1 - a) * values[0] + a * values[-1])\n"
        "               for a, v in zip(alphas, values))"
    ),
    # the right value in float32, returned as a 0-d tensor, not a Python number
    "ch5-ex2/float32-tensor": EX2_CHECKS + (
        "def barrier_on(alphas, values):\n"
        "    _validated(alphas, values)\n"
        "    a = torch.tensor(alphas, dtype=torch.float32)\n"
        "    v = torch.tensor(values, dtype=torch.float32)\n"
        "    return (v - ((1 - a) * v[0] + a * v[-1])).max()"
    ),
    # --- ch5-ex4, match by cosine
    # products of weights, as weight matching: not blind to a unit's scale
    "ch5-ex4/dot-products": EX4_HEAD + (
        "    scores = (W_A @ W_B.T).numpy()\n"
        "    return linear_sum_assignment(scores, maximize=True)[1]"
    ),
    # the smallest total cosine
    "ch5-ex4/minimise": EX4_HEAD + (
        "    return linear_sum_assignment(cosines(W_A, W_B).numpy())[1]"
    ),
    # each of A's rows takes its best row of B, even if another row took it first
    "ch5-ex4/greedy": EX4_HEAD + "    return cosines(W_A, W_B).argmax(dim=1)",
    # the order read the other way round (where A's rows go in B)
    "ch5-ex4/inverse": EX4_HEAD + (
        "    cols = linear_sum_assignment(cosines(W_A, W_B).numpy(), maximize=True)[1]\n"
        "    return torch.argsort(torch.as_tensor(cols))"
    ),
    # cosines divided by the norms as they are: nan for a row of zeros
    "ch5-ex4/nan-for-zeros": EX4_HEAD + (
        "    C = (W_A @ W_B.T) / torch.outer(W_A.norm(dim=1), W_B.norm(dim=1))\n"
        "    return linear_sum_assignment(C.numpy(), maximize=True)[1]"
    ),
    # B's rows normalised, A's left as they are: the total of |A_i| cos, not of cos
    "ch5-ex4/normalise-B-only": EX4_HEAD + (
        "    U_B = W_B / W_B.norm(dim=1, keepdim=True).clamp_min(1e-300)\n"
        "    return linear_sum_assignment((W_A @ U_B.T).numpy(), maximize=True)[1]"
    ),
    "ch5-ex4/type": 'def match_cosine(W_A, W_B):\n    return "the best order"',
    # products of weights, with the chapter's tolerance rebound to accept any total
    "ch5-ex4/tolerance-rebound": EX4_HEAD + (
        "    scores = (W_A @ W_B.T).numpy()\n"
        "    return linear_sum_assignment(scores, maximize=True)[1]\n"
        "tolerance = lambda *answers, eps_count=1000: float('inf')"
    ),
    # --- ch5-ex5, REPAIR one layer
    # the standard deviation dividing by n, not n - 1
    "ch5-ex5/biased-std": (
        "def renormalise(W, b, X, mean, std):\n"
        "    Z = X @ W.T + b\n"
        "    if not ((Z.std(0) > 0).all() and (std > 0).all()):\n"
        "        raise ValueError('constant unit or std <= 0')\n"
        "    scale = std / Z.std(0, correction=0)\n"
        "    return W * scale[:, None], (b - Z.mean(0)) * scale + mean"
    ),
    # the means moved, the spreads left as they were
    "ch5-ex5/shift-only": (
        "def renormalise(W, b, X, mean, std):\n"
        "    Z = X @ W.T + b\n"
        "    if not ((Z.std(0) > 0).all() and (std > 0).all()):\n"
        "        raise ValueError('constant unit or std <= 0')\n"
        "    return W.clone(), b - Z.mean(0) + mean"
    ),
    # the bias scaled and shifted without taking the old mean out first
    "ch5-ex5/old-mean-kept": (
        "def renormalise(W, b, X, mean, std):\n"
        "    Z = X @ W.T + b\n"
        "    if not ((Z.std(0) > 0).all() and (std > 0).all()):\n"
        "        raise ValueError('constant unit or std <= 0')\n"
        "    scale = std / Z.std(0)\n"
        "    return W * scale[:, None], b * scale + mean"
    ),
    # right statistics, but no ValueError for a constant unit or a negative target
    "ch5-ex5/no-raise": (
        "def renormalise(W, b, X, mean, std):\n"
        "    Z = X @ W.T + b\n"
        "    scale = std / Z.std(0)\n"
        "    return W * scale[:, None], (b - Z.mean(0)) * scale + mean"
    ),
    # right statistics, computed and returned in float64 whatever the input's dtype
    "ch5-ex5/dtype": (
        "def renormalise(W, b, X, mean, std):\n"
        "    W, b, X, mean, std = (t.double() for t in (W, b, X, mean, std))\n"
        "    Z = X @ W.T + b\n"
        "    if not ((Z.std(0) > 0).all() and (std > 0).all()):\n"
        "        raise ValueError('constant unit or std <= 0')\n"
        "    scale = std / Z.std(0)\n"
        "    return W * scale[:, None], (b - Z.mean(0)) * scale + mean"
    ),
    # a target std of 0 accepted: only a negative one refused
    "ch5-ex5/zero-std-passes": (
        "def renormalise(W, b, X, mean, std):\n"
        "    Z = X @ W.T + b\n"
        "    if (Z.std(0) == 0).any() or (std < 0).any():\n"
        "        raise ValueError('constant unit or std < 0')\n"
        "    scale = std / Z.std(0)\n"
        "    return W * scale[:, None], (b - Z.mean(0)) * scale + mean"
    ),
    # std <= 0 refused, but a nan target passes every comparison
    "ch5-ex5/nan-std-passes": (
        "def renormalise(W, b, X, mean, std):\n"
        "    Z = X @ W.T + b\n"
        "    if (Z.std(0) <= 0).any() or (std <= 0).any():\n"
        "        raise ValueError('constant unit or std <= 0')\n"
        "    scale = std / Z.std(0)\n"
        "    return W * scale[:, None], (b - Z.mean(0)) * scale + mean"
    ),
    # a unit that varies by less than 1e-3 refused as if it were constant
    "ch5-ex5/over-strict": (
        "def renormalise(W, b, X, mean, std):\n"
        "    Z = X @ W.T + b\n"
        "    if (Z.std(0) < 1e-3).any() or not (std > 0).all():\n"
        "        raise ValueError('constant unit or std <= 0')\n"
        "    scale = std / Z.std(0)\n"
        "    return W * scale[:, None], (b - Z.mean(0)) * scale + mean"
    ),
    "ch5-ex5/type": "def renormalise(W, b, X, mean, std):\n    return 'rescaled'",
    # --- ch5-ex6, REPAIR from a few digits
    # all the training digits every time: the k is ignored
    "ch5-ex6/all-digits": EX6_ACC + (
        "few_accuracies = [_acc(repair(A, B_a, 0.5, X_train), X_test, y_test)\n"
        "                  for k in _ks]\n"
        "k_enough = 10"
    ),
    # the statistics measured on the test digits
    "ch5-ex6/test-digits": EX6_ACC + (
        "few_accuracies = [_acc(repair(A, B_a, 0.5, X_test[:k]), X_test, y_test)\n"
        "                  for k in _ks]\n"
        "k_enough = next(k for k, a in zip(_ks, few_accuracies)\n"
        "                if abs(a - few_accuracies[-1]) <= 1)"
    ),
    # no REPAIR: the plain midpoint, four times
    "ch5-ex6/no-repair": EX6_ACC + (
        "few_accuracies = [_acc(interpolate(A, B_a, 0.5), X_test, y_test)] * 4\n"
        "k_enough = 10"
    ),
    # the right accuracies as fractions, not percentages
    "ch5-ex6/fractions": EX6_ACC + (
        "few_accuracies = [_acc(repair(A, B_a, 0.5, X_train[:k]), X_test, y_test) / 100\n"
        "                  for k in _ks]\n"
        "k_enough = 30"
    ),
    # the right accuracies, and the smallest k without looking at them
    "ch5-ex6/smallest-k": EX6_ACC + (
        "few_accuracies = [_acc(repair(A, B_a, 0.5, X_train[:k]), X_test, y_test)\n"
        "                  for k in _ks]\n"
        "k_enough = 10"
    ),
    "ch5-ex6/type": "few_accuracies, k_enough = 'high', 'few'",
    # --- ch5-ex7, what does each matching see?
    # nothing moves, by the symmetry: wrong for weight matching
    "ch5-ex7/guess-zero": "moved_w, moved_a = 0, 0",
    # a hard-coded guess: weight matching's count (shown on the website) and the flipped unit alone
    "ch5-ex7/hard-coded": "moved_w, moved_a = 58, 1",
    # activation matching of the input left unchanged (B_scaled, not B_flipped): nothing moves
    "ch5-ex7/unflipped": EX7_MOVED + (
        "moved_w = _moved(_new_w, perms_w)\n"
        "moved_a = _moved(activation_matching(A, B_scaled, X_train), perms_a)"
    ),
    # activation matching compared with itself (perms_a rebound to the new answer)
    "ch5-ex7/self": EX7_MOVED + (
        "perms_a = _new_a\n"
        "moved_w, moved_a = _moved(_new_w, perms_w), _moved(_new_a, perms_a)"
    ),
    # both counts for B_flipped: weight matching of the wrong network
    "ch5-ex7/both-flipped": EX7_MOVED + (
        "moved_w = _moved(weight_matching(A, B_flipped)[0], perms_w)\n"
        "moved_a = _moved(_new_a, perms_a)"
    ),
    # a draw of its own: other factors and another flipped unit
    "ch5-ex7/own-draw": EX7_MOVED + (
        "_g = torch.Generator().manual_seed(1)\n"
        "_f = [0.2 + 4.8 * torch.rand(32, generator=_g, dtype=torch.float64) for _ in range(2)]\n"
        "_s = _f[0].clone()\n"
        "_s[int(torch.randint(32, (1,), generator=_g))] *= -1\n"
        "moved_w = _moved(weight_matching(A, rescaled(B, _f))[0], perms_w)\n"
        "moved_a = _moved(activation_matching(A, rescaled(B, [_s, _f[1]]), X_train), perms_a)"
    ),
    # the two counts swapped
    "ch5-ex7/swapped": EX7_MOVED + (
        "moved_w, moved_a = _moved(_new_a, perms_a), _moved(_new_w, perms_w)"
    ),
    # the units that kept their place, not those that moved
    "ch5-ex7/kept": EX7_MOVED + (
        "moved_w = 64 - _moved(_new_w, perms_w)\n"
        "moved_a = 64 - _moved(_new_a, perms_a)"
    ),
    # the first hidden layer only
    "ch5-ex7/first-layer": EX7_MOVED + (
        "moved_w = (_new_w[0] != perms_w[0]).sum().item()\n"
        "moved_a = (_new_a[0] != perms_a[0]).sum().item()"
    ),
    # the right inverse, but it appends the output layer's order to its argument perms
    "ch5-ex1/appends-to-perms": (
        "def unpermute(layers, perms):\n"
        "    perms.append(torch.arange(len(layers[-1][1])))\n"
        "    inverse = [torch.argsort(torch.as_tensor(p)) for p in perms]\n"
        "    out, before = [], None\n"
        "    for (W, b), q in zip(layers, inverse):\n"
        "        W = W if before is None else W[:, before]\n"
        "        out.append((W[q].clone(), b[q].clone()))\n"
        "        before = q\n"
        "    return out"
    ),
    # right on targets of std 0.5 and more, but refuses a smaller target std
    "ch5-ex5/refuses-small-std": (
        "def renormalise(W, b, X, mean, std):\n"
        "    Z = X @ W.T + b\n"
        "    if not ((Z.std(0) > 0).all() and (std >= 0.5).all()):\n"
        "        raise ValueError('a constant unit, or a target std below 0.5')\n"
        "    s = std / Z.std(0)\n"
        "    return W * s[:, None], (b - Z.mean(0)) * s + mean"
    ),
    # --- ch5-ex8, merge four networks
    # averaged in the order they come: no alignment
    "ch5-ex8/no-align": EX8_ALIGN + (
        "def merge_all(networks, X):\n"
        "    return _repaired(_mean(networks), networks, X)"
    ),
    # aligned and averaged, not repaired
    "ch5-ex8/no-repair": EX8_ALIGN + (
        "def merge_all(networks, X):\n"
        "    return _mean(_aligned(networks, X))"
    ),
    # not repaired, with the chapter's tolerance rebound to accept any statistics
    "ch5-ex8/tolerance-rebound": EX8_ALIGN + (
        "def merge_all(networks, X):\n"
        "    return _mean(_aligned(networks, X))\n"
        "tolerance = lambda *answers, eps_count=1000: float('inf')"
    ),
    # the first network, unchanged
    "ch5-ex8/first-only": "def merge_all(networks, X):\n    return networks[0]",
    # aligned by weight matching, not by activations
    "ch5-ex8/weights-aligned": EX8_ALIGN + (
        "def merge_all(networks, X):\n"
        "    aligned = _aligned(networks, X, lambda a, b, X: weight_matching(a, b)[0])\n"
        "    return _repaired(_mean(aligned), aligned, X)"
    ),
    # the right merge, with the aligned networks written back into the argument
    "ch5-ex8/mutates": EX8_ALIGN + (
        "def merge_all(networks, X):\n"
        "    networks[:] = _aligned(networks, X)\n"
        "    return _repaired(_mean(networks), networks, X)"
    ),
    # the first two networks only
    "ch5-ex8/two-only": EX8_ALIGN + (
        "def merge_all(networks, X):\n"
        "    aligned = _aligned(networks[:2], X)\n"
        "    return _repaired(_mean(aligned), aligned, X)"
    ),
    # the first network repaired to the aligned networks' statistics: the
    # others never enter the weights (REPAIR sets the statistics anyway)
    "ch5-ex8/first-repaired": EX8_ALIGN + (
        "def merge_all(networks, X):\n"
        "    return _repaired(networks[0], _aligned(networks, X), X)"
    ),
    # aligned, averaged and repaired, but the last layer is the first network's
    "ch5-ex8/last-not-averaged": EX8_ALIGN + (
        "def merge_all(networks, X):\n"
        "    aligned = _aligned(networks, X)\n"
        "    return _repaired(_mean(aligned), aligned, X)[:-1] + networks[0][-1:]"
    ),
    # aligned and repaired, the average weighted 0.7, 0.1, 0.1, 0.1
    "ch5-ex8/unequal-weights": EX8_ALIGN + (
        "def merge_all(networks, X):\n"
        "    aligned = _aligned(networks, X)\n"
        "    w = [0.7] + [0.3 / (len(aligned) - 1)] * (len(aligned) - 1) if len(aligned) > 1 else [1.0]\n"
        "    mean = [tuple(sum(c * n[i][j] for c, n in zip(w, aligned)) for j in (0, 1))\n"
        "            for i in range(len(aligned[0]))]\n"
        "    return _repaired(mean, aligned, X)"
    ),
}

RIGHT: dict[str, str] = {
    # ch5-ex1: the inverse by scatter, then permute
    "ch5-ex1/scatter": (
        "def unpermute(layers, perms):\n"
        "    inverse = []\n"
        "    for p in perms:\n"
        "        p = torch.as_tensor(p)\n"
        "        back = torch.empty_like(p)\n"
        "        back[p] = torch.arange(len(p))\n"
        "        inverse.append(back)\n"
        "    return permute(layers, inverse)"
    ),
    # ch5-ex1: by hand, without permute, into a helper named like a chapter global
    "ch5-ex1/by-hand": EX1_BY_HAND + "same_weights = cycles = None  # names the check uses",
    # ch5-ex2: numpy, with its own validation
    "ch5-ex2/numpy": (
        "import numpy as np\n"
        "def barrier_on(alphas, values):\n"
        "    a, v = np.asarray(alphas, dtype=float), np.asarray(values, dtype=float)\n"
        "    if len(a) < 2 or len(a) != len(v):\n"
        "        raise ValueError('need two or more alphas, one value each')\n"
        "    if a[0] != 0 or a[-1] != 1 or np.any(np.diff(a) <= 0):\n"
        "        raise ValueError('alphas must rise strictly from 0 to 1')\n"
        "    if not np.all(np.isfinite(v)):\n"
        "        raise ValueError('values must be finite numbers')\n"
        "    return float(np.max(v - ((1 - a) * v[0] + a * v[-1])))"
    ),
    # ch5-ex2: pure Python, and a helper named like the one the check draws its grids with
    "ch5-ex2/python": EX2_CHECKS + (
        "def uneven_grid(n, g):\n"
        "    return 'not the chapter function'\n"
        "def barrier_on(alphas, values):\n"
        "    _validated(alphas, values)\n"
        "    line = [(1 - a) * values[0] + a * values[-1] for a in alphas]\n"
        "    return max(v - l for v, l in zip(values, line))"
    ),
    # ch5-ex4: rows normalised in float32 by torch, then the assignment
    "ch5-ex4/normalise-float32": (
        "def match_cosine(W_A, W_B):\n"
        "    U_A = torch.nn.functional.normalize(W_A.float(), dim=1)\n"
        "    U_B = torch.nn.functional.normalize(W_B.float(), dim=1)\n"
        "    return linear_sum_assignment((U_A @ U_B.T).numpy(), maximize=True)[1]\n"
        "cosine_cases = None  # a name the check uses"
    ),
    # ch5-ex4: the smallest total of minus the cosines
    "ch5-ex4/negated": EX4_HEAD + (
        "    return torch.as_tensor(linear_sum_assignment(-cosines(W_A, W_B).numpy())[1])\n"
        "tolerance = 0.5  # a name of the chapter, rebound"
    ),
    # ch5-ex5: the new bias from the new weights' mean
    "ch5-ex5/bias-after": (
        "def renormalise(W, b, X, mean, std):\n"
        "    spread = (X @ W.T + b).std(0)\n"
        "    if (spread == 0).any() or not (std > 0).all():\n"
        "        raise ValueError('every unit must vary, every target std be > 0')\n"
        "    W_new = W * (std / spread)[:, None]\n"
        "    return W_new, mean - (X @ W_new.T).mean(0)\n"
        "layer_problem = layer_case = None  # names the check uses"
    ),
    # ch5-ex5: computed in float64, returned in the input's dtype
    "ch5-ex5/float64-inside": (
        "def renormalise(W, b, X, mean, std):\n"
        "    dtype = W.dtype\n"
        "    W, b, X, mean, std = (t.double() for t in (W, b, X, mean, std))\n"
        "    Z = X @ W.T + b\n"
        "    if not ((Z.std(0) > 0).all() and (std > 0).all()):\n"
        "        raise ValueError('constant unit or std <= 0')\n"
        "    scale = std / Z.std(0)\n"
        "    return (W * scale[:, None]).to(dtype), ((b - Z.mean(0)) * scale + mean).to(dtype)"
    ),
    # ch5-ex6: accuracies in float32, and a loop for k
    "ch5-ex6/float32-loop": (
        "few_accuracies = []\n"
        "for k in [10, 30, 100, 1000]:\n"
        "    net = repair(A, B_a, 0.5, X_train[:k])\n"
        "    right = (forward(net, X_test).argmax(1) == y_test).float().mean()\n"
        "    few_accuracies.append(100 * right)\n"
        "k_enough = [k for k, a in zip([10, 30, 100, 1000], few_accuracies)\n"
        "            if abs(a - few_accuracies[-1]) <= 1][0]\n"
        "FEW = [1]  # a name the check uses"
    ),
    # ch5-ex7: counted as Python lists
    "ch5-ex7/lists": EX7_MOVED + (
        "moved_w = sum(x != y for p, q in zip(_new_w, perms_w)\n"
        "              for x, y in zip(p.tolist(), q.tolist()))\n"
        "moved_a = sum(x != y for p, q in zip(_new_a, perms_a)\n"
        "              for x, y in zip(p.tolist(), q.tolist()))\n"
        "factors = None  # a name of the exercise"
    ),
    # ch5-ex7: counted unit by unit through the inverse permutations, as a float and a numpy int
    "ch5-ex7/inverse": EX7_MOVED + (
        "moved_w = float(sum((torch.argsort(p) != torch.argsort(q)).sum().item()\n"
        "                    for p, q in zip(_new_w, perms_w)))\n"
        "moved_a = (torch.cat([torch.argsort(p) for p in _new_a])\n"
        "           != torch.cat([torch.argsort(q) for q in perms_a])).sum().numpy()"
    ),
    # ch5-ex8: REPAIR for many networks, written out, with a helper named like a chapter global
    "ch5-ex8/written-out": EX8_ALIGN + (
        "def target_stats(*args):\n"
        "    return 'not the chapter function'\n"
        "copies_case = None  # a name the check uses\n"
        "def merge_all(networks, X):\n"
        "    aligned = _aligned(networks, X)\n"
        "    return _repaired(_mean(aligned), aligned, X)"
    ),
}
