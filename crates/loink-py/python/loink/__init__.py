"""LOInK from Python: learned optimal inverse kinematics on NumPy arrays.

    import loink
    model = loink.Model.load("web/models/panda.json")
    sol = model.solve(targets, refine=3)      # targets: (N, 3) float64, or (3,)
    sol.q, sol.status, sol.residual, sol.cost, sol.margin, sol.micros

Every answer is judged by the same core as the ``loink`` command: the residual by replaying q
through the forward map, the limit margin, the cost, and a status word with one meaning for
every solver (``loink.STATUSES``). See docs/python.md.
"""

from ._loink import STATUSES, Model, Problem, Solutions, __version__

__all__ = ["Model", "Problem", "Solutions", "STATUSES", "__version__"]
