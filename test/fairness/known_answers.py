#!/usr/bin/env python3
"""Known answers for the fairness statistics, computed independently of
src/fairness/ in exact rational arithmetic (fractions.Fraction, math.comb):
rates, impact ratios against the highest-rate group, the four-fifths flag,
Fisher's exact test (two-sided, R's rule: the tables no more probable than
the observed one, with R's relative tolerance 1e-7), expected cells and the
"one person moves" rule, and LL144's median and scoring rate.

    python3 test/fairness/known_answers.py > test/fixtures/fairness/known-answers.json

test/fairness/known-answers.test.ts holds src/fairness/ to these to 4 decimals.
"""
import json
from fractions import Fraction as F
from math import comb

FOUR_FIFTHS = F(4, 5)
REL_ERR = 1 + F(1, 10**7)


def fisher(a, b, c, d):
    n1, n2, k = a + b, c + d, a + c
    lo, hi = max(0, k - n2), min(k, n1)
    total = comb(n1 + n2, k)
    probs = {x: F(comb(n1, x) * comb(n2, k - x), total) for x in range(lo, hi + 1)}
    obs = probs[a]
    return min(F(1), sum(p for p in probs.values() if p <= obs * REL_ERR))


def flagged(g, t):
    # g, t: (n, k); flag when rate_g < 0.8 * rate_t
    return F(g[1], g[0]) < FOUR_FIFTHS * F(t[1], t[0])


def flips(g, t):
    now = flagged(g, t)
    moves = []
    if g[1] < g[0]:
        moves.append(((g[0], g[1] + 1), t))
    if g[1] > 0:
        moves.append(((g[0], g[1] - 1), t))
    if t[1] < t[0]:
        moves.append((g, (t[0], t[1] + 1)))
    if t[1] > 0:
        moves.append((g, (t[0], t[1] - 1)))
    for gg, tt in moves:
        top = gg if F(gg[1], gg[0]) > F(tt[1], tt[0]) else tt
        if flagged(gg, top) != now:
            return True
    return False


def expected_under_5(a, b, c, d):
    n = a + b + c + d
    rows, cols = (a + b, c + d), (a + c, b + d)
    return any(F(r * k, n) < 5 for r in rows for k in cols)


def compare(groups):
    """groups: list of [name, n, k]. Each against the highest rate (first of equals)."""
    best = None
    for name, n, k in groups:
        if n > 0 and (best is None or F(k, n) > F(best[2], best[1])):
            best = [name, n, k]
    out = []
    for name, n, k in groups:
        row = {"group": name, "n": n, "k": k, "rate": float(F(k, n)) if n else None}
        if name == best[0]:
            row.update(impact_ratio=1.0, below_four_fifths=False, fisher_p=None, cautions=[], highest=True)
        else:
            t = (best[1], best[2])
            a, b, c, d = k, n - k, best[2], best[1] - best[2]
            cautions = []
            if expected_under_5(a, b, c, d):
                cautions.append("expected_under_5")
            if flips((n, k), t):
                cautions.append("flips_if_one_person_moves")
            row.update(
                impact_ratio=float(F(k, n) / F(best[2], best[1])),
                below_four_fifths=flagged((n, k), t),
                fisher_p=float(fisher(a, b, c, d)),
                cautions=cautions,
                highest=False,
            )
        out.append(row)
    return out


def median(xs):
    s = sorted(F(x) for x in xs)
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2


def scoring_case(scores):
    med = median([x for xs in scores.values() for x in xs])
    groups = [[g, len(xs), sum(1 for x in xs if F(x) > med)] for g, xs in scores.items()]
    return {"scores": scores, "median": float(med), "groups": compare(groups)}


CASES = {
    # Uniform Guidelines Questions and Answers, Q. 12: 80 white applicants, 48
    # selected (60%); 40 black applicants, 12 selected (30%); ratio 30/60 = 50%.
    "ugesp_qa12": [["White", 80, 48], ["Black", 40, 12]],
    # 29 CFR 1607.4 D's own example, as rates of 100 applicants each: whites
    # 60%, American Indians 45% (75%: adverse impact indicated), Hispanics 48%
    # (exactly 80%: not), Blacks 51% (85%: not).
    "ugesp_1607_4d": [["White", 100, 60], ["American Indian", 100, 45], ["Hispanic", 100, 48], ["Black", 100, 51]],
    # Small numbers (Q&A 21): one person moved changes the finding.
    "small_numbers": [["Men", 5, 3], ["Women", 3, 1]],
    # An LL144-style table of sex by race/ethnicity (scored, above the median).
    "ll144_sex_race": [
        ["Male · Hispanic or Latino", 205, 90],
        ["Male · White", 410, 235],
        ["Male · Black or African American", 190, 70],
        ["Male · Asian", 160, 88],
        ["Male · Two or More Races", 41, 19],
        ["Female · Hispanic or Latino", 220, 98],
        ["Female · White", 395, 210],
        ["Female · Black or African American", 210, 84],
        ["Female · Asian", 150, 80],
        ["Female · Two or More Races", 38, 12],
    ],
}

TABLES = [
    # R's fisher.test examples: TeaTasting (p = 0.4857) and Convictions (p = 0.0005367).
    [3, 1, 1, 3],
    [2, 10, 15, 3],
    [12, 68, 48, 32],
    [0, 5, 5, 0],
    [1, 0, 0, 1],
    [7, 3, 2, 9],
    [90, 115, 235, 175],
    [0, 10, 0, 12],
    [500, 9500, 430, 9570],
]

SCORES = {
    # Ties at the median: 12 scores, the middle two both 70, median 70; the
    # three scores of 70 are not above it.
    "ties_at_median": {"A": [40, 55, 70, 81, 90, 95], "B": [30, 62, 70, 70, 72, 99]},
    # Odd count, fractional scores.
    "odd_count": {"A": [12.5, 48.25, 50.0, 77.5, 91.75], "B": [33.0, 50.5, 61.0, 64.25]},
}

print(
    json.dumps(
        {
            "cases": {name: compare(groups) for name, groups in CASES.items()},
            "fisher": [{"table": t, "p": float(fisher(*t))} for t in TABLES],
            "scoring": {name: scoring_case(s) for name, s in SCORES.items()},
        },
        indent=2,
    )
)
