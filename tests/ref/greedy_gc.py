#!/usr/bin/python3
"""greedy_gc.py - an independent direct simulation of a page-mapped FTL with
greedy garbage collection, written from the policy in docs/sim-model.md
("Page-mapped FTL") and sharing no code with sim/ftl.c. It is the second
opinion tests/cli/ftl_wa_direct.sh holds the simulator's write amplification
against (issue 28: "against an independent direct simulation of your own
outside the project's code").

The drive: LUNITS logical units, NBLOCKS blocks of UPB units each. Two
open blocks (host writes, GC relocations). When the host stream needs a
new block and fewer than RESERVE blocks are erased, the full block with the
fewest valid units is collected (its valid units appended to the GC
stream, the block erased) until RESERVE are erased. No timing: only which
units are written where.

The workload: a sequential fill of every unit, then uniformly random unit
writes. Output (JSON on stdout): the write amplification ((host +
relocated) / host units) over each window of host writes given by
--windows (cumulative unit counts after the fill, comma-separated), and
over the last --steady units of the run.

Host writes between two block boundaries are applied as one numpy batch
(no GC can run inside one): each unit's last copy in the batch is the
valid one, every older copy (before the batch or earlier in it) goes
stale, which is what writing them one at a time gives.
"""
import argparse
import json
import sys

import numpy as np


class Drive:
    def __init__(self, lunits, upb, nblocks, reserve):
        if nblocks * upb < lunits + 2 * upb + reserve * upb:
            raise SystemExit("greedy_gc: too few blocks for the logical units")
        self.lunits, self.upb, self.nblocks, self.reserve = lunits, upb, nblocks, reserve
        self.l2p = np.full(lunits, -1, dtype=np.int64)
        self.p2l = np.full(nblocks * upb, -1, dtype=np.int64)
        self.valid = np.zeros(nblocks, dtype=np.int64)
        self.full = np.zeros(nblocks, dtype=bool)  # written to the end, not open
        self.free = list(range(nblocks - 1, -1, -1))  # erased blocks; pop() takes the lowest
        self.open = {"host": [self.free.pop(), 0], "gc": None}
        self.host_units = 0
        self.moved_units = 0

    def _take(self, stream):
        """A new open block for STREAM (the old one is full)."""
        cur = self.open[stream]
        if cur is not None:
            self.full[cur[0]] = True
        if stream == "host":
            while len(self.free) < self.reserve:
                self._collect()
        self.open[stream] = [self.free.pop(), 0]

    def _collect(self):
        cand = np.where(self.full)[0]
        victim = int(cand[np.argmin(self.valid[cand])])
        base = victim * self.upb
        units = self.p2l[base:base + self.upb]
        units = units[units >= 0].copy()
        self.full[victim] = False  # not a victim again while its units move
        self.moved_units += len(units)
        self._append("gc", units)  # their copies here go stale
        assert self.valid[victim] == 0
        self.free.insert(0, victim)  # erased; taken after the older free blocks

    def _place(self, stream, units):
        """Appends UNITS (distinct, each's last copy) to STREAM's open block,
        which has room for all of them; their older copies go stale."""
        blk, wp = self.open[stream]
        slots = blk * self.upb + wp + np.arange(len(units), dtype=np.int64)
        old = self.l2p[units]
        old = old[old >= 0]
        self.p2l[old] = -1
        np.subtract.at(self.valid, old // self.upb, 1)
        self.l2p[units] = slots
        self.p2l[slots] = units
        self.valid[blk] += len(units)
        self.open[stream][1] = wp + len(units)

    def _append(self, stream, units):
        i = 0
        while i < len(units):
            if self.open[stream] is None or self.open[stream][1] == self.upb:
                self._take(stream)
            room = self.upb - self.open[stream][1]
            self._place(stream, units[i:i + room])
            i += room

    def host_write(self, units):
        """Host writes of UNITS in order (repeats allowed)."""
        i = 0
        while i < len(units):
            if self.open["host"][1] == self.upb:
                self._take("host")
            room = self.upb - self.open["host"][1]
            batch = units[i:i + room]
            # the last copy of each unit in the batch; the earlier ones are
            # written and go stale at once (they take slots, hold no data)
            rev_first = np.unique(batch[::-1], return_index=True)[1]
            keep = np.zeros(len(batch), dtype=bool)
            keep[len(batch) - 1 - rev_first] = True
            blk, wp = self.open["host"]
            slots = blk * self.upb + wp + np.arange(len(batch), dtype=np.int64)
            live, lslots = batch[keep], slots[keep]
            old = self.l2p[live]
            old = old[old >= 0]
            self.p2l[old] = -1
            np.subtract.at(self.valid, old // self.upb, 1)
            self.p2l[slots] = -1
            self.l2p[live] = lslots
            self.p2l[lslots] = live
            self.valid[blk] += len(live)
            self.open["host"][1] = wp + len(batch)
            self.host_units += len(batch)
            i += len(batch)

    def check(self):
        """The maps agree with each other and with the valid counts."""
        m = self.l2p >= 0
        assert np.all(self.p2l[self.l2p[m]] == np.nonzero(m)[0])
        counts = np.bincount(np.nonzero(self.p2l >= 0)[0] // self.upb, minlength=self.nblocks)
        assert np.array_equal(counts, self.valid)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lunits", type=int, required=True)
    ap.add_argument("--upb", type=int, required=True)
    ap.add_argument("--nblocks", type=int, required=True)
    ap.add_argument("--reserve", type=int, default=3)
    ap.add_argument("--writes", type=int, required=True, help="random unit writes after the fill")
    ap.add_argument("--windows", default="", help="cumulative random-write counts ending each window")
    ap.add_argument("--steady", type=int, default=0, help="the last this many writes: the steady WA")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    d = Drive(a.lunits, a.upb, a.nblocks, a.reserve)
    step = 1 << 16
    for s in range(0, a.lunits, step):
        d.host_write(np.arange(s, min(s + step, a.lunits), dtype=np.int64))
    rng = np.random.default_rng(a.seed)
    ends = sorted({int(x) for x in a.windows.split(",") if x} | {a.writes})
    if a.steady:
        ends = sorted(set(ends) | {a.writes - a.steady})
    done, marks = 0, {0: (d.host_units, d.moved_units)}
    for e in ends:
        while done < e:
            n = min(step, e - done)
            d.host_write(rng.integers(0, a.lunits, n, dtype=np.int64))
            done += n
        marks[e] = (d.host_units, d.moved_units)
    d.check()

    def wa(a0, a1):
        h = marks[a1][0] - marks[a0][0]
        return (h + marks[a1][1] - marks[a0][1]) / h if h else None

    out = {"lunits": a.lunits, "upb": a.upb, "nblocks": a.nblocks, "reserve": a.reserve,
           "windows": [], "steady_wa": wa(a.writes - a.steady, a.writes) if a.steady else None}
    prev = 0
    for e in sorted(int(x) for x in a.windows.split(",") if x):
        out["windows"].append({"to": e, "wa": wa(prev, e)})
        prev = e
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
