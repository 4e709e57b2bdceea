"""Reads a problem's results page (bench/results/<robot>.md, written by `loink bench`): its
thread-CPU table, by (set, method), each row's cells as written. bench/compose.sh builds
BENCHMARKS.md's "At a glance" and README's figures from it."""


def rows(out, robot):
    """The thread-CPU table of `out`/`robot`.md, by (set, method)."""
    text = open(f"{out}/{robot}.md", encoding="utf-8").read()
    table = text.split("## Times by thread CPU time", 1)[1].split("## Times by", 1)[0]
    found = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 11 and cells[0] in ("random", "path"):
            found[(cells[0], cells[1])] = cells
    return found
