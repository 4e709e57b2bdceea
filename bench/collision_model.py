"""The collision cost of docs/collision.md, written again for the IPOPT benchmark from the URDF, a
spheres file (`loink spheres`) and a scene file, with this script's own URDF walk: numpy for the
replay, casadi for the NLP.

  J(q) = sum(((q_i - c_i) / h_i)^2) + w_self * sum(max(0, (m_s - d) / m_s)^3) over checked sphere
         pairs + w_scene * sum(max(0, (m_c - d) / m_c)^3) over (sphere, object) pairs,

d the signed sphere distances; pairs on one rigid part, pairs the spheres file skips and links an
object lets touch it are left out, as `loink` does.
"""

import tomllib
import xml.etree.ElementTree as ET
import json

import numpy as np

# The margins (m) and weights of `panda-shelf` (crates/loink/src/problem/chain/urdf/mod.rs).
SELF_MARGIN, SCENE_MARGIN = 0.01, 0.02
SELF_WEIGHT, SCENE_WEIGHT = 10.0, 10.0


def _rpy(r, p, y, lib):
    cr, sr, cp, sp, cy, sy = np.cos(r), np.sin(r), np.cos(p), np.sin(p), np.cos(y), np.sin(y)
    return np.array([[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                     [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                     [-sp, cp * sr, cp * cr]])


class CollisionModel:
    def __init__(self, urdf, base, variables, held, spheres_path, scene_path):
        root = ET.parse(urdf).getroot()
        self.children = {}
        for joint in root.findall("joint"):
            self.children.setdefault(joint.find("parent").get("link"), []).append(joint)
        self.base, self.variables, self.held = base, list(variables), dict(held)
        with open(spheres_path) as f:
            spheres = json.load(f)
        self.skip = {tuple(sorted(p)) for p in spheres["skip"]}
        self.links = {l["link"]: [(np.array(s["centre"]), s["radius"]) for s in l["spheres"]]
                      for l in spheres["links"]}
        with open(scene_path, "rb") as f:
            scene = tomllib.load(f)
        self.half_spaces = scene.get("half_space", [])
        self.boxes = scene.get("box", [])
        self.part = self._parts()
        names = [l for l in self.links if l in self.part]
        self.pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]
                      if self.part[a] != self.part[b] and tuple(sorted((a, b))) not in self.skip]

    def _parts(self):
        """Each link below the base: the deepest variable joint above it (its rigid part)."""
        part, stack = {self.base: None}, [(self.base, None)]
        while stack:
            link, above = stack.pop()
            for joint in self.children.get(link, []):
                child = joint.find("child").get("link")
                name = joint.get("name")
                part[child] = name if name in self.variables else above
                stack.append((child, part[child]))
        return part

    def frames(self, q, lib):
        """Every link's (R, p) in the base frame at q."""
        if lib == "casadi":
            import casadi as ca
        out, stack = {self.base: (np.eye(3), np.zeros(3))}, [self.base]
        while stack:
            link = stack.pop()
            rot, pos = out[link]
            for joint in self.children.get(link, []):
                child = joint.find("child").get("link")
                origin = joint.find("origin")
                xyz = np.array([float(v) for v in (origin.get("xyz", "0 0 0") if origin is not None else "0 0 0").split()])
                rpy = [float(v) for v in (origin.get("rpy", "0 0 0") if origin is not None else "0 0 0").split()]
                r_o = _rpy(*rpy, lib)
                new_pos = pos + _mul(rot, xyz, lib)
                new_rot = _matmul(rot, r_o, lib)
                kind = joint.get("type")
                name = joint.get("name")
                if kind != "fixed":
                    axis_node = joint.find("axis")
                    axis = np.array([float(v) for v in (axis_node.get("xyz") if axis_node is not None else "1 0 0").split()])
                    axis = axis / np.linalg.norm(axis)
                    if name in self.variables:
                        value = q[self.variables.index(name)]
                    else:
                        value = self.held.get(name, 0.0)
                        limit = joint.find("limit")
                        if limit is not None and name not in self.held:
                            value = min(max(0.0, float(limit.get("lower", 0))), float(limit.get("upper", 0)))
                    if kind in ("revolute", "continuous"):
                        new_rot = _matmul(new_rot, _axis_angle(axis, value, lib), lib)
                    else:
                        new_pos = new_pos + _mul(new_rot, axis, lib) * value
                out[child] = (new_rot, new_pos)
                stack.append(child)
        return out

    def clearance(self, q):
        """The smallest signed sphere distance at q over every checked pair (m, numpy)."""
        frames = self.frames(np.asarray(q, dtype=float), "numpy")
        placed = {l: [(frames[l][1] + frames[l][0] @ c, r) for c, r in s] for l, s in self.links.items() if l in frames}
        best = np.inf
        for a, b in self.pairs:
            for pa, ra in placed[a]:
                for pb, rb in placed[b]:
                    best = min(best, np.linalg.norm(pa - pb) - ra - rb)
        for link, spheres in placed.items():
            for h in self.half_spaces:
                if link not in h.get("touch", []):
                    n = np.array(h["normal"], dtype=float) / np.linalg.norm(h["normal"])
                    best = min([best] + [n @ p - h["offset"] - r for p, r in spheres])
            for box in self.boxes:
                if link not in box.get("touch", []):
                    c, half = np.array(box["centre"], dtype=float), np.array(box["size"], dtype=float) / 2
                    for p, r in spheres:
                        e = np.abs(p - c) - half
                        best = min(best, np.linalg.norm(np.maximum(e, 0)) + min(e.max(), 0) - r)
        return best

    def cost(self, q, lib="numpy"):
        """The collision part of J at q (a float, or a casadi expression)."""
        if lib == "casadi":
            import casadi as ca
            fmax, sqrt = ca.fmax, ca.sqrt
        else:
            fmax, sqrt = np.maximum, np.sqrt
        frames = self.frames(q, lib)
        placed = {l: [(frames[l][1] + _mul(frames[l][0], c, lib), r) for c, r in s]
                  for l, s in self.links.items() if l in frames}
        total = 0.0
        for a, b in self.pairs:
            for pa, ra in placed[a]:
                for pb, rb in placed[b]:
                    v = pa - pb
                    d = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + 1e-18) - ra - rb
                    total = total + SELF_WEIGHT * fmax(0, (SELF_MARGIN - d) / SELF_MARGIN) ** 3
        for link, spheres in placed.items():
            for h in self.half_spaces:
                if link in h.get("touch", []):
                    continue
                n = np.array(h["normal"], dtype=float)
                n = n / np.linalg.norm(n)
                for p, r in spheres:
                    d = n[0] * p[0] + n[1] * p[1] + n[2] * p[2] - h["offset"] - r
                    total = total + SCENE_WEIGHT * fmax(0, (SCENE_MARGIN - d) / SCENE_MARGIN) ** 3
            for box in self.boxes:
                if link in box.get("touch", []):
                    continue
                c, half = np.array(box["centre"], dtype=float), np.array(box["size"], dtype=float) / 2
                for p, r in spheres:
                    e = [_abs(p[k] - c[k], lib) - half[k] for k in range(3)]
                    outside = sqrt(sum(fmax(e[k], 0) ** 2 for k in range(3)) + 1e-18)
                    inside = _min0(_max3(e, lib), lib)
                    d = outside + inside - r
                    total = total + SCENE_WEIGHT * fmax(0, (SCENE_MARGIN - d) / SCENE_MARGIN) ** 3
        return total


def _mul(rot, v, lib):
    return np.array([rot[r][0] * v[0] + rot[r][1] * v[1] + rot[r][2] * v[2] for r in range(3)], dtype=object if lib == "casadi" else float)


def _matmul(a, b, lib):
    return np.array([[sum(a[r][k] * b[k][c] for k in range(3)) for c in range(3)] for r in range(3)],
                    dtype=object if lib == "casadi" else float)


def _axis_angle(axis, angle, lib):
    if lib == "casadi":
        import casadi as ca
        c, s = ca.cos(angle), ca.sin(angle)
    else:
        c, s = np.cos(angle), np.sin(angle)
    x, y, z = axis
    v = 1 - c
    return np.array([[c + x * x * v, x * y * v - z * s, x * z * v + y * s],
                     [y * x * v + z * s, c + y * y * v, y * z * v - x * s],
                     [z * x * v - y * s, z * y * v + x * s, c + z * z * v]],
                    dtype=object if lib == "casadi" else float)


def _abs(v, lib):
    if lib == "casadi":
        import casadi as ca
        return ca.fabs(v)
    return abs(v)


def _max3(e, lib):
    if lib == "casadi":
        import casadi as ca
        return ca.fmax(ca.fmax(e[0], e[1]), e[2])
    return max(e)


def _min0(v, lib):
    if lib == "casadi":
        import casadi as ca
        return ca.fmin(v, 0)
    return min(v, 0.0)
