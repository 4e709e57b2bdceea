"""The Python bindings against the `loink` command and against themselves.

Run by scripts/test-python.sh (part of `make test`) in a fresh virtual environment with the
module installed by pip; the `loink` binary comes from target/release (or $LOINK_BIN).
"""

import csv
import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

import loink

ROOT = Path(__file__).resolve().parents[3]
MODELS = ROOT / "web" / "models"
LOINK_BIN = Path(os.environ.get("LOINK_BIN", ROOT / "target" / "release" / "loink"))


def cli(*args):
    """Runs the `loink` command; its stdout."""
    assert LOINK_BIN.exists(), f"build the CLI first: cargo build --release -p loink-train ({LOINK_BIN})"
    done = subprocess.run([str(LOINK_BIN), *map(str, args)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


@pytest.fixture(scope="module")
def panda():
    return loink.Model.load(MODELS / "panda.json")


@pytest.fixture(scope="module")
def panda_targets(tmp_path_factory):
    path = tmp_path_factory.mktemp("targets") / "panda.csv"
    cli("targets", "--robot", "panda", "--count", 200, "--seed", 2026, "--out", path)
    header, rows = read_csv(path)
    assert header == ["x", "y", "z"]
    return path, np.array(rows, dtype=float)


def test_version_is_the_workspace_version():
    cargo = (ROOT / "Cargo.toml").read_text()
    version = cargo.split("[workspace.package]")[1].split('version = "')[1].split('"')[0]
    assert loink.__version__ == version
    assert loink.STATUSES == [
        "converged", "approximate", "capped", "unreachable", "limits", "unverified", "invalid",
    ]


@pytest.mark.parametrize("refine,feedback", [(3, 0), (0, 0), (0, 2)])
def test_answers_equal_loink_eval(panda, panda_targets, tmp_path, refine, feedback):
    path, targets = panda_targets
    out = tmp_path / "results.csv"
    cli("eval", "--model", MODELS / "panda.json", "--targets", path, "--out", out,
        "--refine", refine, "--feedback", feedback, "--no-gap")
    header, rows = read_csv(out)
    qcols = [header.index(f"q{i}") for i in range(1, 7)]
    want_q = np.array([[float(r[c]) for c in qcols] for r in rows])
    want_status = [r[header.index("status")] for r in rows]
    want_residual = np.array([float(r[header.index("residual")]) for r in rows])
    want_cost = np.array([float(r[header.index("cost")]) for r in rows])
    sol = panda.solve(targets, refine=refine, feedback=feedback)
    assert len(sol) == len(rows)
    assert np.max(np.abs(sol.q - want_q)) <= 1e-12
    assert sol.status == want_status
    assert np.allclose(sol.residual, want_residual, rtol=1e-9, atol=1e-15)
    assert np.allclose(sol.cost, want_cost, rtol=1e-12, atol=1e-15)
    if refine == 3:
        assert sol.status.count("converged") >= 190
    # Every row reports its solve time (a figure, never a bound).
    assert np.all(np.isfinite(sol.micros)) and np.all(sol.micros >= 0)


def test_one_thread_and_every_core_give_the_same_answers(panda, panda_targets):
    _, targets = panda_targets
    one = panda.solve(targets, refine=3, threads=1)
    two = panda.solve(targets, refine=3, threads=2)
    every = panda.solve(targets, refine=3)
    assert np.array_equal(one.q, two.q) and np.array_equal(one.q, every.q)
    assert one.status == two.status == every.status
    with pytest.raises(ValueError, match="threads"):
        panda.solve(targets, threads=0)


def test_a_single_target_and_a_list_are_one_row(panda):
    sol = panda.solve([0.45, -0.20, 0.35], refine=3)
    assert sol.q.shape == (1, 6)
    assert sol.status == ["converged"]
    assert sol.residual[0] <= 1e-6
    # The answer replays: the problem's own forward map puts the tip on the target.
    assert np.allclose(panda.problem.forward(sol.q), [[0.45, -0.20, 0.35]], atol=1e-6)
    assert np.array_equal(sol.reached, panda.problem.forward(sol.q))


def test_every_status_comes_back_with_its_meaning(panda, tmp_path):
    problem = panda.problem
    targets = np.array([
        [0.45, -0.20, 0.35],   # reachable
        [3.0, 0.0, 0.0],       # far outside the reach
        [0.0, 0.0, -0.5],      # under the base: the learned answer breaks a limit
        [np.nan, 0.0, 0.0],    # no target
    ])
    refined = panda.solve(targets, refine=3).status
    assert refined[0] == "converged"
    assert refined[1] == "unreachable"
    assert refined[3] == "invalid"
    one_shot = panda.solve(targets).status
    assert one_shot[0] == "approximate"
    assert one_shot[2] == "limits"
    dls = problem.solve(targets, solver="dls").status
    assert dls[0] == "converged" and dls[2] == "capped" and dls[3] == "invalid"
    # A model known only from data: nothing can replay its answers.
    data, model = tmp_path / "d.csv", tmp_path / "m.json"
    cli("data", "--problem", "soft4", "--count", 400, "--seed", 2, "--out", data)
    cli("train", "--data", data, "--epochs", 2, "--depth", 2, "--hidden", "8,8",
        "--head-hidden", 8, "--batch", 128, "--check-targets", 5, "--seed", 3, "--out", model)
    data_only = loink.Model.load(model)
    assert data_only.solve([[0.1, 0.2]]).status == ["unverified"]
    with pytest.raises(ValueError, match="known only through data"):
        data_only.problem.forward(np.zeros(4))


def test_statuses_judge_by_replay(panda, panda_targets):
    _, targets = panda_targets
    sol = panda.solve(targets, refine=3)
    problem = panda.problem
    ok = np.array([s == "converged" for s in sol.status])
    reached = problem.forward(sol.q[ok])
    assert np.max(np.linalg.norm(reached - targets[ok], axis=1)) <= 1e-6
    assert np.all(sol.margin[ok] >= -1e-6)
    assert np.allclose(problem.cost(sol.q[ok]), sol.cost[ok], rtol=1e-12)
    assert np.all(sol.q[ok] >= problem.lower - 1e-6) and np.all(sol.q[ok] <= problem.upper + 1e-6)


def test_nan_rows_are_invalid_and_the_rest_are_solved(panda):
    targets = np.array([[0.45, -0.2, 0.35], [np.nan, 0, 0], [0.3, np.inf, 0.5], [0.3, 0.3, 0.5]])
    sol = panda.solve(targets, refine=3)
    assert sol.status == ["converged", "invalid", "invalid", "converged"]
    assert np.all(np.isnan(sol.q[1])) and np.all(np.isnan(sol.q[2]))
    assert sol.reached.shape == (4, 3) and np.all(np.isnan(sol.reached[1]))
    assert "not a finite number" in sol.note[1]
    assert "counts" not in repr(sol) and "invalid: 2" in repr(sol)
    assert sol.counts()["invalid"] == 2


@pytest.mark.parametrize("bad", [
    np.zeros((3, 2)), np.zeros((3, 4)), np.zeros(2), np.zeros((2, 3, 3)), np.zeros(()),
])
def test_a_wrong_shape_names_the_expected_one(panda, bad):
    with pytest.raises(ValueError, match=r"shape \(N, 3\) or \(3,\), columns x,y,z"):
        panda.solve(bad)


@pytest.mark.parametrize("bad", [
    np.zeros((3, 3), dtype=bool), np.zeros((3, 3), dtype=complex), np.array([["a", "b", "c"]]),
    [[0.1, "x", 0.2]], np.array([[None, None, None]], dtype=object),
])
def test_a_wrong_dtype_is_refused(panda, bad):
    with pytest.raises(ValueError, match=r"shape \(N, 3\)"):
        panda.solve(bad)


def test_integer_targets_are_numbers(panda):
    assert panda.solve(np.zeros((1, 3), dtype=np.int32)).status[0] in loink.STATUSES


def test_pose_targets_take_the_quaternion_columns():
    model = loink.Model.load(MODELS / "panda-pose.json")
    problem = model.problem
    assert (problem.n, problem.m) == (7, 6)
    assert problem.task_columns == ["x", "y", "z", "qw", "qx", "qy", "qz"]
    target = problem.default_target
    sol = model.solve(target, refine=3)
    assert sol.status == ["converged"] and sol.angle[0] <= 1e-6
    assert sol.reached.shape == (1, 7) and np.allclose(sol.reached[0], target, atol=1e-6)
    # A quaternion twice too long is no orientation; one 5 % long is normalised.
    long = target.copy()
    long[3:] *= 2.0
    near = target.copy()
    near[3:] *= 1.05
    statuses = model.solve(np.vstack([long, near]), refine=3).status
    assert statuses == ["invalid", "converged"]
    with pytest.raises(ValueError, match=r"\(N, 7\)"):
        model.solve(np.zeros((2, 6)))


def test_forward_targets_solve_back(panda):
    problem = loink.Problem.preset("panda-pose")
    rng = np.random.default_rng(7)
    q = rng.uniform(problem.lower, problem.upper, size=(20, problem.n))
    targets = problem.forward(q)
    assert targets.shape == (20, 7)
    assert np.allclose(np.linalg.norm(targets[:, 3:], axis=1), 1.0)
    sol = problem.solve(targets, solver="dls")
    assert sol.status.count("converged") >= 19
    # The classical answer of an arm with a closed form: on every target, never dearer than
    # the reference optimum by more than 1 % on most.
    searched = problem.solve(targets, solver="closed-form-search")
    assert searched.status == ["converged"] * 20
    assert np.all(searched.residual < 1e-9)
    optimum = problem.solve(targets, solver="reference")
    assert np.sum(searched.cost <= optimum.cost * 1.01 + 1e-9) >= 18
    with pytest.raises(ValueError, match="closed form"):
        loink.Problem.preset("panda").solve([[0.45, -0.2, 0.35]], solver="closed-form-search")
    with pytest.raises(ValueError, match="row 1 of q"):
        problem.forward(np.vstack([q[0], np.full(7, np.nan)]))
    with pytest.raises(ValueError, match=r"shape \(N, 7\)"):
        problem.cost(np.zeros((2, 6)))


def test_classical_solvers_and_their_refusals():
    problem = loink.Problem.preset("planar3")
    target = problem.default_target
    ref = problem.solve(target, solver="reference")
    dls = problem.solve(target, solver="dls")
    assert ref.status == dls.status == ["converged"]
    assert ref.cost[0] <= dls.cost[0] + 1e-9
    with pytest.raises(ValueError, match="no classical solver"):
        problem.solve(target, solver="loink")
    with pytest.raises(ValueError):
        loink.Problem.preset("planar3").solve([[0.5, 0.2]], solver="analytic")
    assert "planar3" in loink.Problem.presets()
    with pytest.raises(ValueError, match="nope"):
        loink.Problem.preset("nope")


def test_other_model_kinds_load_and_solve():
    targets = np.array([[0.45, -0.20, 0.35]])
    for name, kind in [("panda-mse.json", "mse"), ("panda-flow.json", "flow"),
                       ("panda-pose.json", "charts")]:
        model = loink.Model.load(MODELS / name)
        assert model.kind == kind
        if kind != "charts":
            assert model.solve(targets).status[0] in loink.STATUSES
            with pytest.raises(ValueError, match="LOInK model"):
                model.solve(targets, refine=3)
    assert loink.Model.load(MODELS / "panda-pose.json").charts == 8


def test_hostile_and_missing_files(tmp_path):
    with pytest.raises(FileNotFoundError, match="cannot read model file"):
        loink.Model.load(tmp_path / "missing.json")
    text = (MODELS / "panda.json").read_text()
    model = json.loads(text)

    def edited(change):
        copy = json.loads(text)
        change(copy)
        return json.dumps(copy)

    cases = {
        "truncated.json": text[: len(text) // 2],
        "empty.json": "",
        "binary.json": "\x00\xff garbage",
        "nested.json": "[" * 100000,
        "version.json": edited(lambda m: m.update(version=99)),
        "limits.json": edited(lambda m: m["problem"].update(lower=m["problem"]["upper"])),
        "short-shift.json": edited(lambda m: m["normalisation"].update(x_shift=[0.0])),
        "string-weight.json": edited(lambda m: m["normalisation"].update(x_scale=["1"] * 6)),
        "huge-depth.json": edited(lambda m: m["hyper"].update(depth=10**12)),
    }
    assert model["format"] == "loink-model"
    for name, body in cases.items():
        path = tmp_path / name
        path.write_text(body, encoding="utf-8", errors="surrogateescape")
        with pytest.raises(ValueError, match="model file"):
            loink.Model.load(path)
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(ValueError, match="cannot read model file"):
        loink.Model.load(tmp_path / "dir.json")


def test_a_urdf_with_a_longer_upper_arm(tmp_path):
    urdf = (ROOT / "robots" / "panda" / "panda.urdf").read_text()
    longer = urdf.replace('xyz="0 -0.316 0"', 'xyz="0 -0.416 0"', 1)
    assert longer != urdf
    path = tmp_path / "panda_long.urdf"
    path.write_text(longer)
    problem = loink.Problem.from_urdf(path, base="panda_link0", tip="panda_hand_tcp",
                                      hold={"panda_joint7": 0.0})
    shipped = loink.Problem.from_urdf(ROOT / "robots" / "panda" / "panda.urdf",
                                      base="panda_link0", tip="panda_hand_tcp",
                                      hold={"panda_joint7": 0.0})
    assert problem.name == "panda_long" and (problem.n, problem.m) == (6, 3)
    zero = np.zeros(6)
    assert problem.forward(zero)[0, 2] == pytest.approx(shipped.forward(zero)[0, 2] + 0.1, abs=1e-12)
    rng = np.random.default_rng(11)
    q = rng.uniform(problem.lower, problem.upper, size=(200, 6))
    targets = problem.forward(q)
    sol = problem.solve(targets, solver="dls")
    ok = np.array([s == "converged" for s in sol.status])
    assert ok.sum() >= 198
    assert np.max(sol.residual[ok]) <= 1e-6
    assert np.max(np.linalg.norm(problem.forward(sol.q[ok]) - targets[ok], axis=1)) <= 1e-6
    pose = loink.Problem.from_urdf(path, base="panda_link0", tip="panda_hand_tcp", task="pose")
    assert pose.task_columns == ["x", "y", "z", "qw", "qx", "qy", "qz"]


def test_a_finger_that_follows_the_other(tmp_path):
    # The shipped Panda's right finger follows the left one (<mimic>): to the right finger the
    # chain has eight joints and eight variables, the last named after the left finger's joint.
    path = ROOT / "robots" / "panda" / "panda.urdf"
    problem = loink.Problem.from_urdf(path, base="panda_link0", tip="panda_rightfinger")
    assert problem.n == 8
    assert problem.joint_names[-1] == "panda_finger_joint1"
    assert any("'panda_finger_joint2' follows 'panda_finger_joint1'" in n for n in problem.notes)
    hand = loink.Problem.from_urdf(path, base="panda_link0", tip="panda_hand_tcp")
    assert hand.notes == [] and hand.joint_names == [f"panda_joint{i}" for i in range(1, 8)]
    rng = np.random.default_rng(5)
    q = rng.uniform(problem.lower, problem.upper, size=(50, 8))
    sol = problem.solve(problem.forward(q), solver="dls")
    assert sol.counts()["converged"] == 50
    assert np.abs(problem.forward(sol.q) - problem.forward(q)).max() <= 1e-6
    with pytest.raises(ValueError, match="hold 'panda_finger_joint1' instead"):
        loink.Problem.from_urdf(path, base="panda_link0", tip="panda_rightfinger",
                                hold={"panda_finger_joint2": 0.01})


def test_urdf_errors_are_value_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        loink.Problem.from_urdf(tmp_path / "none.urdf", base="a", tip="b")
    path = ROOT / "robots" / "panda" / "panda.urdf"
    with pytest.raises(ValueError, match="no_such_link"):
        loink.Problem.from_urdf(path, base="panda_link0", tip="no_such_link")
    with pytest.raises(ValueError, match="no task"):
        loink.Problem.from_urdf(path, base="panda_link0", tip="panda_hand_tcp", task="wiggle")
    with pytest.raises(ValueError, match="finite"):
        loink.Problem.from_urdf(path, base="panda_link0", tip="panda_hand_tcp",
                                hold={"panda_joint7": float("nan")})
    bad = tmp_path / "bad.urdf"
    bad.write_text("<robot><link name='a'/>")
    with pytest.raises(ValueError):
        loink.Problem.from_urdf(bad, base="a", tip="b")


def test_a_urdf_with_spheres_and_a_scene_keeps_clear(tmp_path):
    panda = ROOT / "robots" / "panda"
    problem = loink.Problem.from_urdf(
        panda / "panda.urdf", base="panda_link0", tip="panda_hand_tcp", hold={"panda_joint7": 0.0},
        spheres=panda / "panda-spheres.json", scene=panda / "shelf.toml")
    assert "dₐᵦ" in problem.cost_formula and "dₛ" in problem.cost_formula
    # Stretched forward at the board's height: the forearm is in the shelf, which the cost prices.
    stretched = np.array([[0.0, 0.6, 0.0, -1.2, 0.0, 1.8]])
    plain = loink.Problem.preset("panda")
    assert problem.cost(stretched)[0] > plain.cost(stretched)[0] + 1.0
    assert problem.cost(stretched)[0] == pytest.approx(loink.Problem.preset("panda-shelf").cost(stretched)[0])
    bad = tmp_path / "bad.toml"
    bad.write_text("[[box]]\nname = 'shelf'\ncentre = [0.6, 0, 0.45]\nsize = [0.6, -1.2, 0.03]\n")
    with pytest.raises(ValueError, match="size"):
        loink.Problem.from_urdf(panda / "panda.urdf", base="panda_link0", tip="panda_hand_tcp",
                                spheres=panda / "panda-spheres.json", scene=bad)
    with pytest.raises(ValueError, match="spheres"):
        loink.Problem.from_urdf(panda / "panda.urdf", base="panda_link0", tip="panda_hand_tcp", scene=bad)
