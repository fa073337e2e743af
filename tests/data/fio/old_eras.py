#!/usr/bin/env python3
"""Writes fixtures in the JSON shapes of older fio, from fio's own source
(axboe/fio stat.c, show_thread_status_json / add_ddir_status_json):
  fio-2.1.json   2.1: no options, no timestamp, no total_ios; io_bytes KiB,
                 bw KiB/s, iops an integer, clat/lat/slat in usec, a
                 percentile list padded with "0.00": 0
  fio-2.19.json  2.19 --output-format=json+: job/global options, timestamp,
                 total_ios; io_bytes still KiB (>> 10), bins by bucket index
                 with FIO_IO_U_PLAT_BITS/VAL/NR (usec buckets)
  fio-3.1.json   3.1 json+: clat_ns/lat_ns/slat_ns, io_bytes in bytes with
                 io_kbytes, bw KiB/s and no bw_bytes (added in 3.2), bins
                 keyed by ns, no job_runtime
Every figure is one job's: 4 KiB random reads, 10000 I/Os in 1000 ms (and a
second, write, job in 2.19). Run: python3 old_eras.py DIR"""
import json, sys, os

PCTS = ["1.000000", "5.000000", "10.000000", "20.000000", "30.000000", "40.000000", "50.000000",
        "60.000000", "70.000000", "80.000000", "90.000000", "95.000000", "99.000000", "99.500000",
        "99.900000", "99.950000", "99.990000"]
# per-I/O completion latencies in usec: 10000 I/Os in four values
LAT_US = [(80, 5000), (96, 4000), (112, 900), (2048, 100)]

def plat_val_to_idx(v, bits=6):
    # fio 2.x stat.c plat_val_to_idx
    msb = v.bit_length() - 1 if v else 0
    if msb <= bits:
        return v
    error_bits = msb - bits
    base = (error_bits + 1) << bits
    offset = ((1 << bits) - 1) & (v >> error_bits)
    return base + offset

def plat_idx_to_val(idx, bits=6):
    # fio stat.c plat_idx_to_val: the mean of the bucket's range
    if idx < (1 << bits) << 1:
        return idx
    error_bits = (idx >> bits) - 1
    base = 1 << (error_bits + bits)
    k = idx % (1 << bits)
    return int(base + (k + 0.5) * (1 << error_bits))

def bucket(v):
    # what fio prints for a sample of v: its bucket's value (percentiles, 3.x bin keys)
    return plat_idx_to_val(plat_val_to_idx(v))

def pct_of(p):
    n = sum(c for _, c in LAT_US)
    want = p / 100.0 * n
    cum = 0
    for v, c in LAT_US:
        cum += c
        if cum >= want:
            return v
    return LAT_US[-1][0]

def lat_block(scale, with_pct, bins=None):
    n = sum(c for _, c in LAT_US)
    mean = sum(v * c for v, c in LAT_US) / n
    var = sum(c * (v - mean) ** 2 for v, c in LAT_US) / (n - 1)
    b = {"min": LAT_US[0][0] * scale, "max": LAT_US[-1][0] * scale, "mean": mean * scale,
         "stddev": var ** 0.5 * scale}
    return b, [(p, bucket(pct_of(float(p)) * scale)) for p in PCTS] if with_pct else None

def dump(d):
    # fio's json.c: "key" : value, floats with %f (6 decimals)
    def enc(v, ind):
        sp = "  " * ind
        if isinstance(v, dict):
            if not v: return "{\n" + sp + "}"
            return "{\n" + ",\n".join(sp + "  " + json.dumps(k) + " : " + enc(x, ind + 1) for k, x in v.items()) + "\n" + sp + "}"
        if isinstance(v, list):
            return "[\n" + ",\n".join(sp + "  " + enc(x, ind + 1) for x in v) + "\n" + sp + "]"
        if isinstance(v, float): return "%f" % v
        if isinstance(v, tuple):  # a list of (key, value) pairs, keys may repeat
            return "{\n" + ",\n".join(sp + "  " + json.dumps(k) + " : " + enc(x, ind + 1) for k, x in v) + "\n" + sp + "}"
        return json.dumps(v)
    return enc(d, 0) + "\n"

def zero_dir(era):
    z = {"min": 0, "max": 0, "mean": 0.0, "stddev": 0.0}
    d = {"io_bytes": 0, "bw": 0, "iops": 0 if era == "2.1" else 0.0, "runtime": 0}
    if era != "2.1": d.update({"total_ios": 0, "short_ios": 0, "drop_ios": 0})
    if era == "3.1": d = {"io_bytes": 0, "io_kbytes": 0, "bw": 0, "iops": 0.0, "runtime": 0, "total_ios": 0, "short_ios": 0, "drop_ios": 0}
    sfx = "_ns" if era == "3.1" else ""
    pl = tuple([("0.00", 0)] * 17)
    d["slat" + sfx] = dict(z)
    d["clat" + sfx] = dict(z, percentile=pl)
    d["lat" + sfx] = dict(z)
    d.update({"bw_min": 0, "bw_max": 0, "bw_agg": 0.0, "bw_mean": 0.0, "bw_dev": 0.0})
    return d

def io_dir(era, plus):
    n = sum(c for _, c in LAT_US)
    kib = n * 4
    scale = 1000 if era == "3.1" else 1
    sfx = "_ns" if era == "3.1" else ""
    clat, pct = lat_block(scale, True)
    lat = dict(lat_block(scale, False)[0])
    lat["mean"] += 1.5 * scale
    lat["min"] += 1 * scale
    lat["max"] += 2 * scale
    slat = {"min": 1 * scale, "max": 2 * scale, "mean": 1.5 * scale, "stddev": 0.1 * scale}
    d = {}
    if era == "3.1": d.update({"io_bytes": kib * 1024, "io_kbytes": kib})
    else: d["io_bytes"] = kib
    d["bw"] = kib  # KiB/s over 1000 ms
    d["iops"] = n if era == "2.1" else float(n)
    d["runtime"] = 1000
    if era != "2.1": d.update({"total_ios": n, "short_ios": 0, "drop_ios": 0})
    d["slat" + sfx] = slat
    c = dict(clat)
    c["percentile"] = tuple(pct)
    if plus and era == "2.19":
        bins = [("%d" % i, 0) for i in range(1216)]
        cnt = {}
        for v, k in LAT_US: cnt[plat_val_to_idx(v)] = cnt.get(plat_val_to_idx(v), 0) + k
        bins = [(k, cnt.get(int(k), 0)) for k, _ in bins]
        bins += [("FIO_IO_U_PLAT_BITS", 6), ("FIO_IO_U_PLAT_VAL", 64), ("FIO_IO_U_PLAT_NR", 1216)]
        c["bins"] = tuple(bins)
    if plus and era == "3.1":
        c["bins"] = {str(bucket(v * 1000)): k for v, k in LAT_US}
    d["clat" + sfx] = c
    d["lat" + sfx] = lat
    d.update({"bw_min": kib - 100, "bw_max": kib + 100, "bw_agg": 100.0, "bw_mean": float(kib), "bw_dev": 50.0})
    return d

def job(era, name, rw, plus, opts):
    j = {"jobname": name, "groupid": 0, "error": 0}
    if era != "2.1": j["eta"] = 0; j["elapsed"] = 2
    if opts is not None: j["job options"] = opts
    ddir = {"read": io_dir(era, plus), "write": zero_dir(era)} if rw == "read" else {"read": zero_dir(era), "write": io_dir(era, plus)}
    j["read"] = ddir["read"]; j["write"] = ddir["write"]; j["trim"] = zero_dir(era)
    j.update({"usr_cpu": 5.0, "sys_cpu": 20.0, "ctx": 10010, "majf": 0, "minf": 30})
    return j

def main(out):
    r = {"fio version": "fio-2.1", "jobs": [job("2.1", "rr4k", "read", False, None)]}
    open(os.path.join(out, "fio-2.1.json"), "w").write(dump(r))
    r = {"fio version": "fio-2.19", "timestamp": 1493000000, "timestamp_ms": 1493000000123,
         "time": "Mon Apr 24 02:13:20 2017",
         "global options": {"filename": "/dev/sdb", "direct": "1", "ioengine": "libaio", "size": "1g"},
         "jobs": [job("2.19", "rr4k", "read", True, {"rw": "randread", "bs": "4k", "iodepth": "32"}),
                  job("2.19", "rw4k", "write", True, {"rw": "randwrite", "bs": "4k", "iodepth": "1", "stonewall": ""})]}
    open(os.path.join(out, "fio-2.19.json"), "w").write(dump(r))
    r = {"fio version": "fio-3.1", "timestamp": 1510000000, "timestamp_ms": 1510000000456,
         "time": "Mon Nov  6 20:26:40 2017",
         "global options": {"filename": "/dev/nvme0n1", "direct": "1", "ioengine": "libaio"},
         "jobs": [job("3.1", "rr4k", "read", True, {"rw": "randread", "bs": "4k", "iodepth": "32", "size": "1g"})]}
    open(os.path.join(out, "fio-3.1.json"), "w").write(dump(r))

main(sys.argv[1] if len(sys.argv) > 1 else ".")
