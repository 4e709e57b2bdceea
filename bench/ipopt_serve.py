"""The line protocol of the IPOPT scripts' `--serve` mode, through which `loink bench`
interleaves IPOPT with its own solvers target by target. One request per line on stdin; each
start is answered with one line, then `end`:

    request:  <index> mid <y1> … <ym>                 one start from the mid-range seed c
              <index> random-<K> <y1> … <ym>          K random starts, uniform in the limits
                                                      (numpy, seeded by [seed, index])
              <index> seed <y1> … <ym> <q1> … <qn>    one start from the given q (warm start)
    answer:   <q1> … <qn> <ok> <capped> <iterations> <micros> <cpu_micros>   per start, in order
              end

`ok` is 1 when IPOPT met its stopping test, `capped` 1 when it hit an iteration or time cap;
`micros` is the wall time of the solve call, `cpu_micros` this thread's CPU time over it; the
caller judges the answer itself by forward-kinematics replay. A malformed request gets
`error <message>` and the server keeps going.
"""

import sys

import numpy as np


def serve(solve_once, centre, sample_q, m, seed, warm_target):
    """Answers requests until stdin closes.

    solve_once(target list, start list) -> (q, ok, capped, iterations, micros, cpu_micros);
    centre: the mid-range seed (array of n); sample_q(rng, count) -> count uniform seeds;
    m: the task dimension; warm_target: a reachable target for the first call (loads MUMPS).
    """
    n = len(centre)
    solve_once(list(warm_target), list(centre))
    print("ready", flush=True)
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        try:
            index, method = int(parts[0]), parts[1]
            if len(parts) < 2 + m:
                raise ValueError(f"a target has {m} values")
            target = [float(v) for v in parts[2 : 2 + m]]
            if not all(np.isfinite(target)):
                raise ValueError("target must be finite")
            rest = parts[2 + m :]
            if method == "mid" and not rest:
                seeds = [np.asarray(centre)]
            elif method.startswith("random-") and not rest:
                count = int(method[len("random-") :])
                if not 1 <= count <= 1000:
                    raise ValueError("random-K needs 1 <= K <= 1000")
                seeds = list(sample_q(np.random.default_rng([seed, index]), count))
            elif method == "seed":
                seeds = [np.array([float(v) for v in rest])]
                if len(rest) != n or not np.all(np.isfinite(seeds[0])):
                    raise ValueError(f"seed needs {n} finite joint values")
            else:
                raise ValueError(f"unknown request '{method}' with {len(rest)} extra values")
        except (ValueError, IndexError) as err:
            print(f"error {err}", flush=True)
            continue
        out = []
        for start in seeds:
            q, ok, capped, its, us, cpu = solve_once(target, np.asarray(start).tolist())
            out.append(
                " ".join(repr(float(v)) for v in q)
                + f" {int(ok)} {int(capped)} {its} {float(us)!r} {float(cpu)!r}"
            )
        out.append("end")
        print("\n".join(out), flush=True)
