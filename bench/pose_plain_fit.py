"""A plain network fitted to the forward map a pose chart learns, on the same region and data
(docs/pose.md, "What the charts meet"): capacity or structure?

The chart of `panda-pose` whose region is q2 ≤ 0, q5 inside ±π/2 (orientations within 110° of
the hand pointing down, on the tabletop set) reports its fit as `task_rmse_m`: the root mean
square over validation configurations of ‖G₁(x) − y‖ in the chart's normalised task
coordinates (position over 0.2496 m, rotation vector over 1.6639 rad), times 0.2496. This
script fits a multilayer perceptron (SiLU, Adam, cosine-decayed learning rate, batch 256) to the
same map, without invertibility, and reports the same figure, with the median position and
rotation-vector errors.

    bench/.venv/bin/python bench/pose_plain_fit.py DATA.csv --hidden 64 --depth 3 --epochs 100

DATA.csv is `loink data --problem panda-pose --cone 60` output (x1..x7, x, y, z, rx, ry, rz, J).
"""
import argparse

import numpy as np

LOWER = np.array([-2.8973, -1.7628, -2.8973, -3.0718, -1.5708, -0.0175, -2.8973])
UPPER = np.array([2.8973, 0.0, 2.8973, -0.0698, 1.5708, 3.7525, 2.8973])
COVER = np.radians(110.0)
X_SHIFT = np.array([0.0, -0.8814, 0.0, -1.5708, 0.0, 1.8675, 0.0])
Y_SCALE = np.array([0.2496] * 3 + [1.6639] * 3)
VALIDATION = 10_000


def silu(z):
    return z / (1.0 + np.exp(-z))


def silu_slope(z):
    s = 1.0 / (1.0 + np.exp(-z))
    return s * (1.0 + z * (1.0 - s))


class Mlp:
    def __init__(self, sizes, rng):
        self.w = [rng.normal(0.0, np.sqrt(2.0 / a), (a, b)) for a, b in zip(sizes[:-1], sizes[1:])]
        self.b = [np.zeros(b) for b in sizes[1:]]
        self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in self.w + self.b]
        self.t = 0

    def params(self):
        return sum(p.size for p in self.w + self.b)

    def forward(self, x):
        hs, zs = [x], []
        for i, (w, b) in enumerate(zip(self.w, self.b)):
            z = hs[-1] @ w + b
            zs.append(z)
            hs.append(silu(z) if i < len(self.w) - 1 else z)
        return hs, zs

    def step(self, x, y, lr):
        hs, zs = self.forward(x)
        g = 2.0 * (hs[-1] - y) / len(x)
        gw, gb = [None] * len(self.w), [None] * len(self.w)
        for i in reversed(range(len(self.w))):
            gw[i], gb[i] = hs[i].T @ g, g.sum(0)
            if i > 0:
                g = (g @ self.w[i].T) * silu_slope(zs[i - 1])
        self.t += 1
        for p, grad, (m, v) in zip(self.w + self.b, gw + gb, self.moments):
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad * grad
            p -= lr * (m / (1 - 0.9 ** self.t)) / (np.sqrt(v / (1 - 0.999 ** self.t)) + 1e-8)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--epochs", type=int, default=100)
    parser.add_argument("--samples", type=int, default=110_000, help="rows used (the last 10,000 validate)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    data = np.loadtxt(args.data, delimiter=",", skiprows=1)
    x, y = data[:, :7], data[:, 7:13]
    keep = np.all((x >= LOWER) & (x <= UPPER), axis=1) & (np.linalg.norm(y[:, 3:], axis=1) <= COVER)
    x, y = x[keep][: args.samples], y[keep][: args.samples]
    if len(x) <= VALIDATION:
        raise SystemExit(f"only {len(x)} rows in the region: write more with loink data")
    y_shift = y.mean(0)
    xn, yn = x - X_SHIFT, (y - y_shift) / Y_SCALE
    train, val = slice(0, len(x) - VALIDATION), slice(len(x) - VALIDATION, len(x))
    net = Mlp([7] + [args.hidden] * args.depth + [6], rng)
    for epoch in range(args.epochs):
        lr = 1e-3 * 0.5 * (1 + np.cos(np.pi * epoch / args.epochs))
        order = rng.permutation(len(x) - VALIDATION)
        for k in range(0, len(order), 256):
            idx = order[k : k + 256]
            net.step(xn[idx], yn[idx], lr)
    out = net.forward(xn[val])[0][-1]
    rmse = np.sqrt(((out - yn[val]) ** 2).sum(1).mean()) * Y_SCALE[0]
    error = out * Y_SCALE + y_shift - y[val]
    print(
        f"{args.depth} × {args.hidden} ({net.params()} parameters), {len(x) - VALIDATION} rows, "
        f"{args.epochs} epochs: task_rmse_m {rmse:.4f}; median position {np.median(np.linalg.norm(error[:, :3], axis=1)) * 1e3:.1f} mm, "
        f"rotation vector {np.degrees(np.median(np.linalg.norm(error[:, 3:], axis=1))):.2f}°"
    )


if __name__ == "__main__":
    main()
