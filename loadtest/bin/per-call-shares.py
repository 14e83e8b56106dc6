#!/usr/bin/env python3
"""CPU per call of the gateway's logging, audit and meters, from an async-profiler CPU profile.

Usage: per-call-shares.py PROFILE.collapsed CALLS [INTERVAL_US]
  PROFILE.collapsed  async-profiler output (event=itimer or cpu, collapsed), whole gateway run
  CALLS              tools/call answered while the profile ran (warm-up and measured runs)
  INTERVAL_US        the sampling interval (default 1000: interval=1ms)

A sample counts for a category when any frame of its stack belongs to it (the first match in
the order below wins), wherever the work ran: an event loop, the log appender's thread or the
audit writer's. Prints samples, share of all samples and microseconds per call.
"""
import sys

CATEGORIES = [
    ("logs", ("ch/qos/logback", "net/logstash", "dev/sluice/observability/ToolCallLog",
              "dev/sluice/observability/LogFields", "dev/sluice/observability/StderrAppender",
              "org/slf4j")),
    ("audit", ("dev/sluice/audit/",)),
    ("meters", ("io/micrometer", "dev/sluice/observability/GatewayMetrics",
                "dev/sluice/observability/CallRing")),
]


def main():
    path, calls = sys.argv[1], int(sys.argv[2])
    interval_us = float(sys.argv[3]) if len(sys.argv) > 3 else 1000.0
    total, counts = 0, {name: 0 for name, _ in CATEGORIES}
    with open(path) as f:
        for line in f:
            stack, n = line.rstrip().rsplit(" ", 1)
            n = int(n)
            total += n
            for name, prefixes in CATEGORIES:
                if any(p in stack for p in prefixes):
                    counts[name] += n
                    break
    print(f"{total} samples, {calls} calls, {total * interval_us / calls:.1f} µs of gateway CPU per call")
    together = 0
    for name, _ in CATEGORIES:
        together += counts[name]
        print(f"  {name:7s} {counts[name]:7d} samples {100 * counts[name] / total:5.1f} % "
              f"{counts[name] * interval_us / calls:6.2f} µs/call")
    print(f"  {'all':7s} {together:7d} samples {100 * together / total:5.1f} % {together * interval_us / calls:6.2f} µs/call")


if __name__ == "__main__":
    main()
