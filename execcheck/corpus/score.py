#!/usr/bin/env python3
"""score.py PAIRS OTHERS OUTDIR [ids...]: score execcheck -sites -json outputs
against the labels of pairs.tsv and others.tsv (called by run.sh)."""
import csv, json, os, sys

FINDINGS = {"hang", "orphan", "launcher"}


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def sites(outdir, pid, side):
    base = os.path.join(outdir, f"{pid}.{side}")
    try:
        rc = open(base + ".rc").read().strip()
    except OSError:
        return None, "not run"
    err = open(base + ".err").read().strip().splitlines() if os.path.exists(base + ".err") else []
    try:
        got = json.load(open(base + ".json")).get("sites") or []
    except Exception as e:  # noqa: BLE001
        got, bad = None, f"error: {e}"
    if rc == "1" and got is not None:
        # A package that does not type-check: execcheck prints the load
        # errors, lists the sites it could check and exits 1.
        return got, ""
    if rc not in ("0", "3"):
        return None, "error: " + (err[0] if err else "exit " + rc)
    if got is None:
        return None, bad
    return got, ""


def at(ss, fileline):
    """the sites at file:line (execcheck's pos is file:line:col); where none
    stands there, the sites at a helper's call whose Start or Run inside
    the helper is there (-sites -json's "started"): a label may name either
    line of one run, the call or the Start it reaches."""
    m = [s for s in ss if s["pos"].rsplit(":", 1)[0] == fileline]
    if not m:
        m = [s for s in ss if s.get("started", "").rsplit(":", 1)[0] == fileline]
    return m


def got_class(ss, fileline):
    if ss is None:
        return "error"
    m = at(ss, fileline)
    if not m:
        return "none"
    if any(s.get("ignored") for s in m):
        return "ignored"
    return "/".join(sorted({s["class"] for s in m}))


def main():
    pairs = load(sys.argv[1])
    others = load(sys.argv[2])
    outdir = sys.argv[3]
    want = set(sys.argv[4:])
    label = {(o["pair"], o["side"], o["pos"], o["class"]): o for o in others}
    tot = {}
    oth = {}
    print(f"{'pair':<5} {'half':<8} {'repo@fix':<44} {'before: want/got':<26} {'after: want/got':<26} verdict")
    for p in pairs:
        pid = p["id"]
        if want and pid not in want:
            continue
        half = p["half"]
        row = []
        right = 0
        for side, col, exp in (("before", "site_before", "expected_before"), ("after", "site_after", "expected_after")):
            ss, err = sites(outdir, pid, side)
            g = got_class(ss, p[col]) if ss is not None else ("error" if err.startswith("error") else err)
            ok = g in p[exp].split("|")
            right += ok
            row.append((p[exp], g, ok, err))
            # other findings of this side
            if ss is not None:
                mine = [id(s) for s in at(ss, p[col])]
                for s in ss:
                    fl = s["pos"].rsplit(":", 1)[0]
                    if id(s) in mine or s["class"] not in FINDINGS or s.get("ignored"):
                        continue
                    o = label.get((pid, side, fl, s["class"]))
                    v = o["verdict"] if o else "unlabeled"
                    oth.setdefault(half, {}).setdefault(v, 0)
                    oth[half][v] += 1
                    if not o:
                        print(f"      unlabeled other finding: {pid} {side} {s['pos']} {s['class']}")
        t = tot.setdefault(half, [0, 0, 0, 0])
        t[0] += right == 2
        t[1] += 1
        t[2] += right
        t[3] += 2
        rf = f"{p['repo']}@{p['fix'][:10]}"
        b, a = row
        fmt = lambda x: f"{x[0]}/{x[1]} {'right' if x[2] else 'WRONG'}"
        print(f"{pid:<5} {half:<8} {rf:<44} {fmt(b):<26} {fmt(a):<26} {'right' if right == 2 else 'wrong'}")
        for x in row:
            if x[3] and x[3] != "":
                print(f"      {x[3]}")
    print()
    # every half that was run, the known ones first, then the others in
    # the order of pairs.tsv (a new round's half needs no change here)
    halves = [h for h in ("tuning", "heldout") if h in tot]
    halves += [h for h in tot if h not in halves]
    for half in halves:
        t = tot[half]
        o = oth.get(half, {})
        n = sum(o.values())
        c = o.get("confirmed", 0)
        extra = f", {o['unlabeled']} unlabeled" if o.get("unlabeled") else ""
        print(f"{half}: pairs right {t[0]}/{t[1]} (sides right {t[2]}/{t[3]}); "
              f"other findings confirmed {c}/{n - o.get('unlabeled', 0)}{extra}")


if __name__ == "__main__":
    main()
