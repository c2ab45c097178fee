"""Answers to chapter 4's self-checking exercises: WRONG ones and RIGHT ones.

tests/test_course.py runs each entry after all the official solutions, in the
student edition: each RIGHT answer must make the exercise's check say
"correct", each WRONG answer "not yet". Keys are "<label>/<kind>".

Chance, measured over 200 draws each: a random orthogonal 64 x 64 matrix
passed none of the principal-axes checks (ch4-ex4, ch4-ex5, ch4-ex7); a
random rank from RANKS is right 1 time in 5, so ch4-ex1 is a choice among
five, not a bar to clear. A random permutation other than perm or its
inverse passed ch4-ex2 in none of 200 draws. The ranks below were measured
on the texts of Python 3.11, 3.12 and 3.13: the weighted table's mean cosine
at k = 96 stays below 0.9 (0.884 to 0.886; 0.875 to 0.906 on nine other
groups of held-out sentences), and at k = 128 above it (0.938).
"""

WRONG: dict[str, str] = {
    # ch4-ex1: one rank too small (its cosine is close to 0.9, but below)
    "ch4-ex1/one-below": "smallest_rank = 96",
    # a rank that reaches 0.9 but is not the smallest: merely sufficient
    "ch4-ex1/largest": "smallest_rank = RANKS[-1]",
    # the smallest rank offered, hard-coded
    "ch4-ex1/hard-coded": "smallest_rank = 64",
    # the rank read off the plain PCA basis instead of the weighted one
    "ch4-ex1/plain-basis": (
        "smallest_rank = next((k for k in RANKS"
        " if table_cosine(plain, k) >= 0.9), RANKS[-1])"
    ),
    # a width that is not one of the ranks offered
    "ch4-ex1/not-a-rank": "smallest_rank = 100",
    # the rank as text
    "ch4-ex1/type": 'smallest_rank = "128"',
    # ch4-ex2: the stream permuted, the gains left to rotate_stream's ones
    "ch4-ex2/gains-reset": "W_perm = rotate_stream(W, torch.eye(d)[:, perm])",
    # the weights returned unchanged
    "ch4-ex2/unchanged": "W_perm = dict(W)",
    # columns by perm, gains by the inverse permutation: inconsistent
    "ch4-ex2/inverse-gains": (
        "W_perm = rotate_stream(W, torch.eye(d)[:, perm])"
        " | {n: W[n][perm.argsort()] for n in GAINS}"
    ),
    # only the token table and the gains relabelled
    "ch4-ex2/table-only": (
        'W_perm = W | {"emb": W["emb"][:, perm]}'
        " | {n: W[n][perm] for n in GAINS}"
    ),
    # the rotation Q in place of the permutation
    "ch4-ex2/rotation": (
        "W_perm = rotate_stream(W, Q.float()) | {n: W[n] for n in GAINS}"
    ),
    # text instead of weights
    "ch4-ex2/type": 'W_perm = "W with perm applied"',
    # ch4-ex4: the chapter's basis, from the normalised vectors
    "ch4-ex4/normalised": 'U_raw = bases["PCA"]',
    # eigh's order, smallest eigenvalue first
    "ch4-ex4/ascending": "U_raw = torch.linalg.eigh(X.T @ X)[1]",
    # the axes as rows instead of columns
    "ch4-ex4/transposed": "U_raw = torch.linalg.eigh(X.T @ X)[1].flip(1).T",
    # the original axes, hard-coded
    "ch4-ex4/hard-coded": "U_raw = torch.eye(d)",
    # a random orthonormal basis: passes by luck in none of 200 draws
    "ch4-ex4/lucky-draw": 'U_raw = bases["random"]',
    "ch4-ex4/type": 'U_raw = "eigenvectors of X.T @ X"',
    # ch4-ex5: the basis from all calibration windows, not the first eight
    "ch4-ex5/all-windows": 'U_few = bases["PCA"]',
    # the first eight windows, but the raw vectors, not scaled to length 1
    "ch4-ex5/raw": (
        "few_raw = stream_vectors(W_folded, few_x).double()\n"
        "U_few = torch.linalg.eigh(few_raw.T @ few_raw)[1].flip(1)"
    ),
    # eigh's order, smallest first
    "ch4-ex5/ascending": "U_few = torch.linalg.eigh(few.T @ few)[1]",
    "ch4-ex5/type": "U_few = 8",
    # ch4-ex6: queries and keys both scaled by 2: the scores grow fourfold
    "ch4-ex6/both-scaled": (
        "eye = torch.eye(D).to(e64)\n"
        "P_qk = map_heads(P_small, 2 * eye, 2 * eye, eye, eye)"
    ),
    # an orthogonal map: exact, but merely the case the chapter showed
    "ch4-ex6/orthogonal": (
        "m = draws(0, P_small[WORD])\n"
        'P_qk = map_heads(P_small, m["A"], m["A"], m["I"], m["I"])'
    ),
    # the weights returned unchanged
    "ch4-ex6/unchanged": "P_qk = dict(P_small)",
    # keys by the inverse, not its transpose
    "ch4-ex6/not-transposed": (
        "eye = torch.eye(D).to(e64)\n"
        "M = (per_head(torch.Generator().manual_seed(1))"
        " * torch.linspace(0.5, 2, D)).to(e64)\n"
        "P_qk = map_heads(P_small, M, torch.linalg.inv(M), eye, eye)"
    ),
    "ch4-ex6/type": "P_qk = 2.0",
    # ch4-ex7: the chapter's basis, calibrated on the text in its order
    "ch4-ex7/in-order": 'U_shuffled = bases["PCA"]',
    # the shuffled windows' raw vectors, not scaled to length 1
    "ch4-ex7/raw": (
        "S_raw = stream_vectors(W_folded, shuffled_x).double()\n"
        "U_shuffled = torch.linalg.eigh(S_raw.T @ S_raw)[1].flip(1)"
    ),
    # uniformly random bytes instead of the shuffled text
    "ch4-ex7/random-bytes": "U_shuffled = unit_basis(random_bytes(5))",
    "ch4-ex7/type": 'U_shuffled = "shuffled basis"',
}

RIGHT: dict[str, str] = {
    # ch4-ex1: the rank as a float, computed
    "ch4-ex1/float": (
        "smallest_rank = float(min(k for k in RANKS"
        " if table_cosine(weighted, k) >= 0.9))"
    ),
    # a numpy integer
    "ch4-ex1/numpy": (
        "import numpy as np\n"
        "smallest_rank = np.int64(next(k for k in RANKS"
        " if table_cosine(weighted, k) >= 0.9))"
    ),
    # ch4-ex2: float64 copies of the right weights
    "ch4-ex2/float64": (
        "W_perm = {n: w.double() for n, w in (rotate_stream(W,"
        " torch.eye(d)[:, perm]) | {n: W[n][perm] for n in GAINS}).items()}"
    ),
    # the inverse relabelling, applied consistently to every weight
    "ch4-ex2/inverse": (
        "inv = perm.argsort()\n"
        "W_perm = rotate_stream(W, torch.eye(d)[:, inv])"
        " | {n: W[n][inv] for n in GAINS}"
    ),
    # numpy arrays
    "ch4-ex2/numpy": (
        "W_perm = {n: w.cpu().numpy() for n, w in (rotate_stream(W,"
        " torch.eye(d)[:, perm]) | {n: W[n][perm] for n in GAINS}).items()}"
    ),
    # ch4-ex4: the SVD's right singular vectors, in float64
    "ch4-ex4/svd": "U_raw = torch.linalg.svd(X, full_matrices=False).Vh.T",
    # float32, signs flipped
    "ch4-ex4/float32": (
        "U_raw = -torch.linalg.eigh(X.T @ X)[1].flip(1).float()"
    ),
    # numpy's eigh
    "ch4-ex4/numpy": (
        "import numpy as np\n"
        "U_raw = np.linalg.eigh((X.T @ X).cpu().numpy())[1][:, ::-1].copy()"
    ),
    # ch4-ex5: the SVD of the unit vectors, float32
    "ch4-ex5/svd": (
        "f = stream_vectors(W_folded, few_x).double()\n"
        "f = f / f.norm(dim=1, keepdim=True)\n"
        "U_few = torch.linalg.svd(f, full_matrices=False).Vh.T.float()"
    ),
    # ch4-ex6: queries by 2, keys by 1/2: the simplest non-orthogonal map
    "ch4-ex6/scalar": (
        "eye = torch.eye(D).to(e64)\n"
        "P_qk = map_heads(P_small, 2 * eye, eye / 2, eye, eye)"
    ),
    # the official answer in float32
    "ch4-ex6/float32": "P_qk = {n: w.float() for n, w in P_qk.items()}",
    # ch4-ex7: the SVD of the shuffled windows' unit vectors
    "ch4-ex7/svd": (
        "S = stream_vectors(W_folded, shuffled_x).double()\n"
        "S = S / S.norm(dim=1, keepdim=True)\n"
        "U_shuffled = torch.linalg.svd(S, full_matrices=False).Vh.T"
    ),
    "ch4-ex7/float32": "U_shuffled = unit_basis(shuffled_x).float()",
}
