#!/usr/bin/env python3
"""tests/e2e/check.py OUT_DIR — the host's checks of what the e2e guest
(tests/e2e/guest.sh) wrote: the DUT summary that ssdrev built from the real
controller against nvme-cli's own id-ctrl / id-ns of it, the review's archive
(purge method, DUT section, temperature polled during the run), and the
io_uring runs (submit and wait modes). Prints one line per check; exit 1 if
any fails."""
import json
import os
import sys

out = sys.argv[1]
failed = []


def check(name, cond, detail=""):
    print("e2e-host %s %s%s" % ("ok  " if cond else "FAIL", name, (": " + detail) if detail and not cond else ""))
    if not cond:
        failed.append(name)


def load(rel):
    with open(os.path.join(out, rel)) as f:
        return json.load(f)


ctrl = load("id-ctrl.json")
dut = load("dut.json")
# What the controller reports, as ssdrev reads it (nvme-cli converts Kelvin as K - 273).
check("dut model", dut.get("model") == ctrl["mn"].strip(), "%r vs %r" % (dut.get("model"), ctrl["mn"]))
check("dut firmware", dut.get("firmware") == ctrl["fr"].strip(), "%r vs %r" % (dut.get("firmware"), ctrl["fr"]))
check("dut warning temperature", dut.get("warn_temp_c") == ctrl["wctemp"] - 273, str(dut.get("warn_temp_c")))
check("dut critical temperature", dut.get("crit_temp_c") == ctrl["cctemp"] - 273, str(dut.get("crit_temp_c")))
npsd = ctrl["npss"] + 1
check("dut power states", len(dut.get("power_states", [])) == npsd, "%d vs %d" % (len(dut.get("power_states", [])), npsd))
# smartctl ran in the guest too: protocol and LBA size come only from its JSON
check("dut from smartctl", dut.get("protocol") == "NVMe" and dut.get("lba_bytes") in (512, 4096), str(dut.get("protocol")))
check("dut host-set threshold", dut.get("temp_thresh_c") is not None and dut["temp_thresh_c"] < dut.get("warn_temp_c", 999),
      str(dut.get("temp_thresh_c")))

ns = load("id-ns.json")
lbaf = ns["lbafs"][ns["flbas"] & 0xF]
lba = 1 << lbaf["ds"]
m = load("review/manifest.json")
mdut = m.get("dut", {})
check("review DUT model", mdut.get("model") == ctrl["mn"].strip(), str(mdut.get("model")))
check("review DUT capacity", mdut.get("capacity_bytes") == ns["nsze"] * lba == 256 << 20, str(mdut.get("capacity_bytes")))
check("review DUT LBA size", mdut.get("lba_bytes") == lba, str(mdut.get("lba_bytes")))
check("review target is a block device", m["target"].get("kind") == "block", str(m["target"]))
check("purge used the device's discard", m["target"].get("purge") == "discard", str(m["target"].get("purge")))
check("every step complete", all(v == "complete" for v in m["steps"].values()), str(m["steps"]))
temps = [t for t in m["tests"] if t.get("kind") == "temperature"]
samples = [s for t in temps for s in t.get("samples", [])]
check("temperature polled from the controller during the review", len(temps) >= 3 and len(samples) >= 6,
      "%d series, %d samples" % (len(temps), len(samples)))
# the guest set the threshold one degree above the SMART temperature it read
want = (dut.get("temp_thresh_c") or 0) - 1
check("temperatures are the controller's SMART temperature", samples and all(abs(s[1] - want) <= 1 for s in samples),
      "want %s: %s" % (want, samples[:5]))
jobs = [t for t in m["tests"] if "result" in t and "params" in t]
check("review jobs ran on io_uring, each I/O submitted as prepared",
      jobs and all(t["result"].get("engine") == "io_uring" and t["result"].get("submit") == "each" for t in jobs),
      str([(t["name"], t["result"].get("engine"), t["result"].get("submit")) for t in jobs][:4]))
for w in ("sleep", "iopoll"):
    r = load("uring-%s/manifest.json" % w)["tests"][0]["result"]
    check("io_uring --wait %s" % w, r.get("wait") == w and r.get("ios") == 4000 and r.get("errors") == 0, str(r))

if failed:
    print("e2e-host: %d failed: %s" % (len(failed), ", ".join(failed)))
    sys.exit(1)
