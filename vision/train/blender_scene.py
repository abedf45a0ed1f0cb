"""A tavla throw rendered by Blender, for the independent held-out set (run by Blender, not by Python).

    blender -b -t 1 -P vision/train/blender_scene.py -- --out DIR --name NAME --kind KIND --seed S
    blender -b -t 1 -P vision/train/blender_scene.py -- --out DIR --jobs JOBS.json

Builds a board (frame, two playing fields of felt, leather or wood, 24 points in two colours, the raised
bar, checkers), two bevelled dice with painted pips (opposite faces sum to 7), a table, sky light and area
or lamp lights, and a referee camera over one long side of the board (1280x720, up to about 25 degrees from
straight down). Writes ``NAME.png`` (the throw), ``NAME_empty.png`` (the same board before the throw, the
reference frame of the watch path) and ``NAME.json`` (the truth: see ``vision.train.blender_set``).
A desk scene (``--kind desk``, training only: ``Desk``) is 1-5 rounder dice on a plain table, no board, seen
from close by at 15-55 degrees from straight down, only the patches round the dice rendered; ``--kind
precision`` the same with translucent precision dice (sharp edges, clear coloured bodies whose far pips show
through), seen from straight down to 50 degrees.
A held-out scene's board (45-60 cm wide, frame 15-30 mm, bar 20-40 mm) and dice (15-19 mm) vary with its seed;
training scenes keep the board of ``BOARD_W``, ``BOARD_H``, ``BAR_W`` and ``FRAME_W``. Everything follows from the
seed. Imports only bpy, bmesh, mathutils and the standard library; kept out of
mypy's checks (``[[tool.mypy.overrides]]`` in pyproject.toml) because bpy has no type information.

World units are metres; sizes below are in millimetres (``MM``). The board's centre is the origin, the
playing surface is z = 0, the bottom player sits at -y, and the bottom player's right-hand half is +x.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
import traceback
from array import array
from dataclasses import dataclass
from pathlib import Path

import bmesh
import bpy
from bpy_extras.object_utils import world_to_camera_view
from mathutils import Matrix, Vector

MM = 0.001
BOARD_W, BOARD_H, BAR_W, FRAME_W = 480.0, 400.0, 30.0, 22.0  # playing area incl. bar, frame width (mm)
POINT_W = (BOARD_W / 2 - BAR_W / 2) / 6
SIZE = (1280, 720)
KINDS = ("valid", "cocked", "wrong_half", "off_board")

# value on each local face (opposite faces sum to 7), as in vision.synth.render
FACES: dict[int, tuple[float, float, float]] = {
    1: (0, 0, 1),
    6: (0, 0, -1),
    2: (1, 0, 0),
    5: (-1, 0, 0),
    3: (0, 1, 0),
    4: (0, -1, 0),
}
PIPS: dict[int, list[tuple[float, float]]] = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}
# (name, body RGB, pip RGB, transmission): the dice presets of this set
DICE = [
    ("white_black", (0.85, 0.85, 0.83), (0.02, 0.02, 0.02), 0.0),
    ("red_white", (0.55, 0.03, 0.03), (0.9, 0.9, 0.9), 0.0),
    ("ivory_black", (0.78, 0.70, 0.52), (0.03, 0.02, 0.02), 0.0),
    ("black_white", (0.02, 0.02, 0.02), (0.85, 0.85, 0.85), 0.0),
    ("translucent_red", (0.7, 0.05, 0.05), (0.9, 0.9, 0.9), 0.7),
    ("translucent_green", (0.05, 0.45, 0.12), (0.9, 0.9, 0.9), 0.7),
    ("blue_white", (0.03, 0.1, 0.45), (0.9, 0.9, 0.9), 0.0),
    ("white_red", (0.85, 0.85, 0.85), (0.6, 0.02, 0.02), 0.0),
]


def training_dice(r: random.Random) -> tuple[str, tuple[float, float, float], tuple[float, float, float], float]:
    """Dice for training scenes: random body and pip colours, never the held-out presets above (the held-out
    set keeps its dice apart from training, as the OpenCV renderer's held-out set does)."""
    body = random_colour(r)
    light_body = sum(body) / 3 > 0.4
    pip = random_colour(r, light=not light_body)
    if r.random() < 0.6:  # most dice have white or black pips
        pip = (0.02, 0.02, 0.02) if light_body else (0.9, 0.9, 0.88)
    transmission = r.uniform(0.5, 0.8) if r.random() < 0.2 else 0.0
    return "random", body, pip, transmission


# ---------------------------------------------------------------- materials


def material(
    name: str,
    colour: tuple[float, float, float],
    roughness: float = 0.5,
    kind: str = "plain",
    rng: random.Random | None = None,
    transmission: float = 0.0,
    specular: float = 0.5,
) -> bpy.types.Material:
    """A principled material; ``kind`` adds a procedural texture: wood grain, felt fuzz or leather grain."""
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    bsdf = nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*colour, 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    bsdf.inputs["Specular"].default_value = specular
    if transmission > 0:
        bsdf.inputs["Transmission"].default_value = transmission
        bsdf.inputs["IOR"].default_value = 1.5
    if kind == "plain":
        return mat
    r = rng or random.Random(0)
    coord = nodes.new("ShaderNodeTexCoord")
    ramp = nodes.new("ShaderNodeValToRGB")
    dark = tuple(max(0.0, c * r.uniform(0.55, 0.8)) for c in colour)
    ramp.color_ramp.elements[0].color = (*dark, 1.0)
    ramp.color_ramp.elements[1].color = (*colour, 1.0)
    if kind == "wood":
        mapping = nodes.new("ShaderNodeMapping")
        mapping.inputs["Scale"].default_value = (
            (1.0, r.uniform(6, 14), 1.0) if r.random() < 0.5 else (r.uniform(6, 14), 1.0, 1.0)
        )
        mapping.inputs["Rotation"].default_value = (0, 0, r.uniform(-0.05, 0.05))
        wave = nodes.new("ShaderNodeTexWave")
        wave.wave_type = "BANDS"
        wave.bands_direction = "X" if mapping.inputs["Scale"].default_value[0] < 2 else "Y"
        wave.inputs["Scale"].default_value = r.uniform(8, 25)
        wave.inputs["Distortion"].default_value = r.uniform(3, 10)
        wave.inputs["Detail"].default_value = 3
        links.new(coord.outputs["Object"], mapping.inputs["Vector"])
        links.new(mapping.outputs["Vector"], wave.inputs["Vector"])
        links.new(wave.outputs["Fac"], ramp.inputs["Fac"])
    else:  # felt (fine fuzz) or leather (cells)
        tex = nodes.new("ShaderNodeTexNoise") if kind == "felt" else nodes.new("ShaderNodeTexVoronoi")
        tex.inputs["Scale"].default_value = r.uniform(200, 500) if kind == "felt" else r.uniform(150, 300)
        links.new(coord.outputs["Object"], tex.inputs["Vector"])
        out = tex.outputs["Fac"] if kind == "felt" else tex.outputs["Distance"]
        ramp.color_ramp.elements[0].position = 0.2
        links.new(out, ramp.inputs["Fac"])
        bump = nodes.new("ShaderNodeBump")
        bump.inputs["Strength"].default_value = 0.15 if kind == "felt" else 0.3
        bump.inputs["Distance"].default_value = 0.0005
        links.new(out, bump.inputs["Height"])
        links.new(bump.outputs["Normal"], bsdf.inputs["Normal"])
    links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
    return mat


def random_colour(rng: random.Random, light: bool | None = None) -> tuple[float, float, float]:
    h, s = rng.random(), rng.uniform(0.2, 0.8)
    v = rng.uniform(0.45, 0.8) if light else rng.uniform(0.05, 0.35) if light is False else rng.uniform(0.05, 0.9)
    import colorsys

    return colorsys.hsv_to_rgb(h, s, v)


# ---------------------------------------------------------------- geometry


def linked(name: str, data: bpy.types.ID, mat: bpy.types.Material | None = None) -> bpy.types.Object:
    """A new object in the scene from mesh (or light, camera) data, with its material."""
    obj = bpy.data.objects.new(name, data)
    bpy.context.collection.objects.link(obj)
    if mat is not None:
        obj.data.materials.append(mat)
    return obj


def bevel(obj: bpy.types.Object, width_mm: float, segments: int) -> None:
    """Round the object's edges: real boards, checkers and dice have no knife-sharp edges."""
    mod = obj.modifiers.new("bevel", "BEVEL")
    mod.width = width_mm * MM
    mod.segments = segments


def box(
    name: str,
    x0: float,
    y0: float,
    z0: float,
    x1: float,
    y1: float,
    z1: float,
    mat: bpy.types.Material,
    rounding: float = 0.0,
) -> bpy.types.Object:
    """An axis-aligned box from two corners in millimetres, its edges rounded by ``rounding`` mm."""
    mesh = bpy.data.meshes.new(name)
    bm = bmesh.new()
    bmesh.ops.create_cube(bm, size=1.0)
    for v in bm.verts:
        v.co = (
            Vector(
                (
                    (x0 + x1) / 2 + v.co.x * (x1 - x0),
                    (y0 + y1) / 2 + v.co.y * (y1 - y0),
                    (z0 + z1) / 2 + v.co.z * (z1 - z0),
                )
            )
            * MM
        )
    bm.to_mesh(mesh)
    bm.free()
    obj = linked(name, mesh, mat)
    if rounding > 0:
        bevel(obj, rounding, 2)
    return obj


def cylinder(
    name: str, x: float, y: float, z0: float, radius: float, height: float, mat: bpy.types.Material
) -> bpy.types.Object:
    mesh = bpy.data.meshes.new(name)
    bm = bmesh.new()
    bmesh.ops.create_cone(bm, cap_ends=True, segments=48, radius1=radius * MM, radius2=radius * MM, depth=height * MM)
    bmesh.ops.translate(bm, verts=bm.verts, vec=Vector((x, y, z0 + height / 2)) * MM)
    bm.to_mesh(mesh)
    bm.free()
    obj = linked(name, mesh, mat)
    bevel(obj, min(1.2, height / 4), 2)
    for poly in mesh.polygons:
        poly.use_smooth = True
    return obj


def triangle(name: str, pts: list[tuple[float, float]], z: float, mat: bpy.types.Material) -> bpy.types.Object:
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata([Vector((x, y, z)) * MM for x, y in pts], [], [(0, 1, 2)])
    return linked(name, mesh, mat)


def make_die(
    name: str,
    size: float,
    body: bpy.types.Material,
    pip: bpy.types.Material,
    pip_radius: float,
    rounding: float = 0.1,
) -> tuple[bpy.types.Object, bpy.types.Object]:
    """A die centred on its origin, value 1 up: a cube with its edges rounded by ``rounding`` of its side and,
    as a child, its painted pips."""
    mesh = bpy.data.meshes.new(name)
    bm = bmesh.new()
    bmesh.ops.create_cube(bm, size=size * MM)
    bm.to_mesh(mesh)
    bm.free()
    die = linked(name, mesh, body)
    bevel(die, rounding * size, 4)
    for poly in mesh.polygons:
        poly.use_smooth = True
    mesh.use_auto_smooth = True
    mesh.auto_smooth_angle = math.radians(35)
    pmesh = bpy.data.meshes.new(name + "_pips")
    bm = bmesh.new()
    spacing, depth = 0.27 * size, 0.04 * size
    for value, normal in FACES.items():
        n = Vector(normal)
        t1 = Vector((0, 0, 1)) if abs(n.z) < 0.5 else Vector((1, 0, 0))
        t1 = (t1 - n * t1.dot(n)).normalized()
        t2 = n.cross(t1)
        rot = Matrix((t1, t2, n)).transposed().to_4x4()  # disc axis (z) along the face normal
        for u, v in PIPS[value]:
            centre = n * (size / 2 - depth / 2 + 0.05) + t1 * (u * spacing) + t2 * (v * spacing)
            geom = bmesh.ops.create_cone(
                bm,
                cap_ends=True,
                segments=20,
                radius1=pip_radius * size * MM,
                radius2=pip_radius * size * MM,
                depth=depth * MM,
                matrix=rot,
            )
            bmesh.ops.translate(bm, verts=geom["verts"], vec=centre * MM)
    bm.to_mesh(pmesh)
    bm.free()
    pips = linked(name + "_pips", pmesh, pip)
    pips.parent = die
    return die, pips


def value_rotation(value: int) -> Matrix:
    """A rotation that turns the face showing ``value`` up."""
    n = Vector(FACES[value])
    up = Vector((0, 0, 1))
    if (n - up).length < 1e-9:
        return Matrix.Identity(3)
    if (n + up).length < 1e-9:
        return Matrix.Rotation(math.pi, 3, "X")
    return n.rotation_difference(up).to_matrix()


# ---------------------------------------------------------------- the scene


@dataclass
class PlacedDie:
    """Where one die lies (mm, board coordinates) and how it is turned; its value follows from the turn."""

    x: float
    y: float
    size: float
    rotation: Matrix
    centre: Vector
    cocked: bool
    tilt_deg: float
    zone: str  # right_half | wrong_half | frame | off_board (for the thrower)


class Throw:
    """The random choices of one scene, then the Blender objects built from them."""

    def __init__(self, seed: int, kind: str, train: bool = False):
        self.rng = random.Random(seed)
        self.seed, self.kind = seed, kind
        r = self.rng
        self.thrower = "bottom" if r.random() < 0.5 else "top"
        self.right = 1.0 if self.thrower == "bottom" else -1.0  # x sign of the thrower's right-hand half
        self.die_size = r.uniform(12, 19)
        self.preset = DICE[r.randrange(len(DICE))] if not train else training_dice(r)
        self.board_w, self.board_h, self.bar_w, self.frame_w = BOARD_W, BOARD_H, BAR_W, FRAME_W
        self.camera_height = (550.0, 800.0)  # mm over the playing surface
        if not train:  # held-out boards and dice vary (their own draws: the throw's draws stay the seed's)
            g = random.Random(seed * 7919 + 13)
            outer_w = g.uniform(450, 600)
            outer_h = outer_w * g.uniform(0.76, 0.88)
            self.frame_w, self.bar_w = g.uniform(15, 30), g.uniform(20, 40)
            self.board_w, self.board_h = outer_w - 2 * self.frame_w, outer_h - 2 * self.frame_w
            self.die_size = g.uniform(15, 19)  # precision dice are 5/8 to 3/4 inch
            self.camera_height = (500.0, 800.0)
        self.point_w = (self.board_w / 2 - self.bar_w / 2) / 6
        self.frame_h = r.uniform(6, 14)  # frame lip above the playing surface
        self.base_t = r.uniform(10, 25)  # playing surface above the table
        self.checker_h = r.uniform(5.5, 8)
        self.checker_r = self.point_w / 2 * 0.95
        self.checkers: list[tuple[float, float, int]] = []  # x, y, colour index
        self.dice: list[PlacedDie] = []
        self.support: str | None = None
        self.camera_info: dict[str, float] = {}

    # -- layout (plain numbers, no bpy)

    def layout(self) -> None:
        r = self.rng
        for _ in range(r.randint(4, 12)):
            side = r.choice((-1, 1))
            col = r.randrange(6)
            x = (self.bar_w / 2 if side > 0 else -self.board_w / 2) + (col + 0.5) * self.point_w
            top = r.random() < 0.5
            colour = r.randrange(2)
            for k in range(r.randint(1, 4)):
                from_edge = self.board_h / 2 - self.checker_r * (1 + 2 * k)
                y = from_edge if top else -from_edge
                if all(math.hypot(x - cx, y - cy) > 1.5 * self.checker_r for cx, cy, _ in self.checkers):
                    self.checkers.append((x, y, colour))
        plan = ["right", "right"]
        if self.kind == "wrong_half":
            plan = ["wrong", "wrong"] if r.random() < 0.5 else ["wrong", "right"]
        elif self.kind == "off_board":
            plan = [r.choice(["frame", "table", "table"]), "right"]
        elif self.kind == "cocked":
            plan = ["cocked", "right"]
        for where in plan:
            if where == "cocked":
                self.place_cocked()
            else:
                self.place_flat(where)

    def free(self, x: float, y: float, s: float, checkers: bool = True) -> bool:
        if any(math.hypot(x - d.x, y - d.y) < 1.7 * max(s, d.size) for d in self.dice):
            return False
        return not checkers or all(math.hypot(x - cx, y - cy) > self.checker_r + 0.8 * s for cx, cy, _ in self.checkers)

    def place_flat(self, where: str) -> None:
        r, s = self.rng, self.die_size
        half = self.right if where != "wrong" else -self.right
        for _ in range(200):
            z = 0.0
            if where in ("right", "wrong"):
                x = half * r.uniform(self.bar_w / 2 + 0.8 * s, self.board_w / 2 - 0.8 * s)
                y = r.uniform(-self.board_h / 2 + 0.8 * s, self.board_h / 2 - 0.8 * s)
            elif where == "frame":  # on the frame's top, beside the thrower's half or at its end
                z = self.frame_h
                if r.random() < 0.5:
                    x = self.right * (self.board_w / 2 + self.frame_w / 2)
                    y = r.uniform(-self.board_h / 2, self.board_h / 2)
                else:
                    x = self.right * r.uniform(self.bar_w / 2 + s, self.board_w / 2)
                    y = r.choice((-1, 1)) * (self.board_h / 2 + self.frame_w / 2)
            else:  # on the table beside the board
                z = -self.base_t
                x = self.right * r.uniform(
                    self.board_w / 2 + self.frame_w + 0.9 * s, self.board_w / 2 + self.frame_w + 70
                )
                y = r.uniform(-self.board_h / 2.5, self.board_h / 2.5)
            if self.free(x, y, s, checkers=where in ("right", "wrong")):
                break
        rot = Matrix.Rotation(r.uniform(0, 2 * math.pi), 3, "Z") @ value_rotation(r.randint(1, 6))
        centre = Vector((x, y, z + s / 2))
        zone = {"right": "right_half", "wrong": "wrong_half", "frame": "frame", "table": "off_board"}[where]
        self.dice.append(PlacedDie(x, y, s, rot, centre, False, 0.0, zone))

    def place_cocked(self) -> None:
        """A die whose bottom face rests on a checker's rim or on the board's rim (the frame, or the raised
        bar), pivoting on its opposite bottom edge: 15-40 degrees, steeper when the support is too high."""
        r, s = self.rng, self.die_size
        support = "checker" if r.random() < 0.55 else "rim"
        for _ in range(400):
            a = math.radians(r.uniform(15, 40))
            if support == "checker":
                h = self.checker_h
                psi = r.uniform(0, 2 * math.pi)
                x = self.right * r.uniform(self.bar_w / 2 + 1.5 * s, self.board_w / 2 - 1.5 * s)
                y = r.uniform(-self.board_h / 2 + 1.5 * s, self.board_h / 2 - 1.5 * s)
            else:
                h = self.frame_h
                wall = r.choice(("top", "bottom", "end", "bar"))
                psi = {
                    "top": math.pi / 2,
                    "bottom": -math.pi / 2,
                    "end": 0.0 if self.right > 0 else math.pi,
                    "bar": math.pi if self.right > 0 else 0.0,
                }[wall]
            if h > 0.97 * s * math.sin(math.radians(40)):  # too high to rest on its rim: the edge leans on the wall
                g = s * math.cos(a)
            else:
                a = max(a, math.asin(h / (0.97 * s)))
                g = h / math.tan(a)
            u = Vector((math.cos(psi), math.sin(psi), 0.0))
            if support == "rim":
                # the wall's inner face lies g beyond the pivot edge along u
                along = r.uniform(-1, 1)
                if wall in ("top", "bottom"):
                    wall_pos = Vector(
                        (
                            self.right * r.uniform(self.bar_w / 2 + s, self.board_w / 2 - s),
                            (self.board_h / 2) * (1 if wall == "top" else -1),
                            0,
                        )
                    )
                else:
                    wall_x = self.board_w / 2 if wall == "end" else self.bar_w / 2
                    wall_pos = Vector((self.right * wall_x, along * (self.board_h / 2 - s), 0))
                pivot = wall_pos - u * g
                centre_xy = pivot + u * (s / 2)
                x, y = centre_xy.x, centre_xy.y
            pivot = Vector((x, y, 0)) - u * (s / 2)
            checker_xy = pivot + u * (g + self.checker_r)
            if support == "checker":
                cx, cy = checker_xy.x, checker_xy.y
                if not (
                    self.bar_w / 2 + self.checker_r < self.right * cx < self.board_w / 2 - self.checker_r
                    and abs(cy) < self.board_h / 2 - self.checker_r
                ):
                    continue
                others = [
                    c
                    for c in self.checkers
                    if math.hypot(c[0] - cx, c[1] - cy) > 2 * self.checker_r
                    and math.hypot(c[0] - x, c[1] - y) > self.checker_r + s
                ]
                self.checkers = others + [(cx, cy, r.randrange(2))]
            if self.free(x, y, s, checkers=False):
                break
        if support == "rim":
            self.checkers = [c for c in self.checkers if math.hypot(c[0] - x, c[1] - y) > self.checker_r + s]
        self.support = support if support == "checker" else f"rim_{wall}"
        tilt = Matrix.Rotation(a, 3, u.cross(Vector((0, 0, 1))))
        rot = tilt @ Matrix.Rotation(psi, 3, "Z") @ value_rotation(r.randint(1, 6))
        centre = pivot + tilt @ (Vector((x, y, s / 2)) - pivot)
        self.dice.append(PlacedDie(x, y, s, rot, centre, True, math.degrees(a), "right_half"))

    def die_size_px(self, boxes: list[list[int]]) -> float:
        return max(max(b[2] - b[0], b[3] - b[1]) for b in boxes)

    # -- Blender objects

    def build(self) -> list[bpy.types.Object]:
        r = self.rng
        field_kind = r.choice(("felt", "leather", "wood"))
        field = material("field", random_colour(r), 0.9 if field_kind == "felt" else 0.55, field_kind, r)
        frame = material("frame", random_colour(r, light=False), 0.45, "wood", r)
        table_col = random_colour(r)
        table = material("table", table_col, 0.6, r.choice(("wood", "felt", "plain")), r)
        pa = material("point_a", random_colour(r), 0.6)
        pb = material("point_b", random_colour(r), 0.6)
        checker_mats = [material("checker_a", (0.8, 0.78, 0.72), 0.3), material("checker_b", (0.05, 0.04, 0.04), 0.3)]
        # table, board base, fields, frame, bar
        box("table", -1500, -1500, -self.base_t - 30, 1500, 1500, -self.base_t, table)
        ox, oy = self.board_w / 2 + self.frame_w, self.board_h / 2 + self.frame_w
        box("base", -ox, -oy, -self.base_t, ox, oy, -0.5, frame)
        box("field_l", -self.board_w / 2, -self.board_h / 2, -1.0, -self.bar_w / 2, self.board_h / 2, 0.0, field)
        box("field_r", self.bar_w / 2, -self.board_h / 2, -1.0, self.board_w / 2, self.board_h / 2, 0.0, field)
        fh = self.frame_h
        box("frame_top", -ox, self.board_h / 2, -1, ox, oy, fh, frame, rounding=2)
        box("frame_bottom", -ox, -oy, -1, ox, -self.board_h / 2, fh, frame, rounding=2)
        box("frame_left", -ox, -self.board_h / 2, -1, -self.board_w / 2, self.board_h / 2, fh, frame, rounding=2)
        box("frame_right", self.board_w / 2, -self.board_h / 2, -1, ox, self.board_h / 2, fh, frame, rounding=2)
        box("bar", -self.bar_w / 2, -self.board_h / 2, -1, self.bar_w / 2, self.board_h / 2, fh, frame, rounding=2)
        length = r.uniform(0.36, 0.42) * self.board_h
        for side in (-1, 1):
            x0 = self.bar_w / 2 if side > 0 else -self.board_w / 2
            for i in range(6):
                px = x0 + i * self.point_w
                for top in (True, False):
                    base = self.board_h / 2 if top else -self.board_h / 2
                    tip = base - length if top else base + length
                    mat = pa if (i + int(top)) % 2 else pb
                    triangle(
                        f"point_{side}_{i}_{top}",
                        [(px + 0.5, base), (px + self.point_w - 0.5, base), (px + self.point_w / 2, tip)],
                        0.15,
                        mat,
                    )
        for k, (x, y, colour) in enumerate(self.checkers):
            cylinder(f"checker_{k}", x, y, 0.0, self.checker_r, self.checker_h, checker_mats[colour])
        # dice
        name, body_col, pip_col, transmission = self.preset
        body = material("die_body", body_col, 0.25, transmission=transmission, specular=0.6)
        pip = material("die_pip", pip_col, 0.4)
        pip_radius = r.uniform(0.075, 0.1)
        objs = []
        for i, d in enumerate(self.dice):
            die, pips = make_die(f"die_{i}", d.size, body, pip, pip_radius)
            die.matrix_world = Matrix.Translation(d.centre * MM) @ d.rotation.to_4x4()
            objs += [die, pips]
        add_lights(self.rng)
        return objs

    def camera(self) -> bpy.types.Object:
        """Over the bottom player's side, tilted up to about 25 degrees, zoomed so the board fills 75-90 % of
        the image height (the off-board strip beside it stays in view)."""
        r = self.rng
        tilt = math.radians(r.uniform(0, 25))
        height = r.uniform(*self.camera_height)
        target = Vector((r.uniform(-15, 15), r.uniform(-15, 15), 0)) * MM
        pos = target + Vector((r.uniform(-30, 30) * MM, -math.tan(tilt) * height * MM, height * MM))
        cam = new_camera(pos, target, r.uniform(-0.04, 0.04))
        data = cam.data
        scene = bpy.context.scene
        ox, oy = self.board_w / 2 + self.frame_w, self.board_h / 2 + self.frame_w
        board = [Vector((sx * ox, sy * oy, self.frame_h)) * MM for sx in (-1, 1) for sy in (-1, 1)]
        beside = [
            Vector((sx * (ox + 80), sy * self.board_h / 2.5, -self.base_t)) * MM for sx in (-1, 1) for sy in (-1, 1)
        ]
        fill = r.uniform(0.75, 0.9)
        data.lens = 20.0
        for _ in range(4):
            bpy.context.view_layer.update()
            ys = [world_to_camera_view(scene, cam, p).y for p in board]
            xs = [abs(world_to_camera_view(scene, cam, p).x - 0.5) for p in beside]
            span = max(ys) - min(ys)
            lens = data.lens * fill / span
            lens = min(lens, data.lens * 0.47 / max(xs))  # keep the strip beside the board inside the image
            ys_off = max(abs(y - 0.5) for y in ys)
            lens = min(lens, data.lens * 0.48 / ys_off)
            data.lens = lens
        bpy.context.view_layer.update()
        self.camera_info = {
            "height_mm": round(height, 1),
            "tilt_deg": round(math.degrees(tilt), 1),
            "lens_mm": round(data.lens, 2),
            "hfov_deg": round(math.degrees(2 * math.atan(18 / data.lens)), 1),
        }
        return cam


def new_camera(pos: Vector, target: Vector, roll: float) -> bpy.types.Object:
    """The scene's camera (a 36 mm sensor) at ``pos`` looking at ``target``, the table's +y (the board's far
    side) up in the image, turned by ``roll`` radians."""
    data = bpy.data.cameras.new("camera")
    data.sensor_fit = "HORIZONTAL"
    data.sensor_width = 36
    cam = linked("camera", data)
    bpy.context.scene.camera = cam
    forward = (target - pos).normalized()
    right = forward.cross(Vector((0, 1, 0))).normalized()
    up = right.cross(forward)
    look = Matrix((right, up, -forward)).transposed().to_4x4()
    cam.matrix_world = Matrix.Translation(pos) @ look @ Matrix.Rotation(roll, 4, "Z")
    return cam


def add_lights(r: random.Random) -> None:
    """A sky and one or two area or point lights, warm or white, from above the table."""
    world = bpy.data.worlds.new("sky")
    bpy.context.scene.world = world
    world.use_nodes = True
    bg = world.node_tree.nodes["Background"]
    warm = r.uniform(-0.08, 0.08)
    bg.inputs["Color"].default_value = (0.8 + warm, 0.8, 0.8 - warm, 1.0)
    bg.inputs["Strength"].default_value = r.uniform(0.15, 0.6)
    for i in range(r.choice((1, 1, 2))):
        kind = r.choice(("AREA", "AREA", "POINT"))
        data = bpy.data.lights.new(f"light_{i}", kind)
        pos = Vector((r.uniform(-0.8, 0.8), r.uniform(-0.8, 0.8), r.uniform(0.9, 1.8)))
        if kind == "AREA":
            data.size = r.uniform(0.3, 1.2)
            data.energy = r.uniform(35, 100) * pos.length_squared
        else:
            data.shadow_soft_size = r.uniform(0.03, 0.15)
            data.energy = r.uniform(25, 70) * pos.length_squared
        data.color = (1.0, r.uniform(0.88, 1.0), r.uniform(0.75, 1.0))
        obj = linked(f"light_{i}", data)
        obj.location = pos
        obj.rotation_euler = (-pos).to_track_quat("-Z", "Y").to_euler()


# ---------------------------------------------------------------- a desk scene (training only)

DESK_TILTS = (15.0, 55.0)
"""The camera's tilt from straight down in desk scenes (degrees): dice seen from the side, their side faces
showing more pips than the top, as desk photos and a board camera's far corners show them."""


def desk_dice(r: random.Random) -> tuple[str, tuple[float, float, float], tuple[float, float, float], float]:
    """Half the desk scenes' dice are the plain white or ivory dice with black pips a club plays with, the rest
    any training colours."""
    if r.random() < 0.5:
        tone = r.uniform(0.7, 0.9)
        body = (tone, tone * r.uniform(0.95, 1.0), tone * r.uniform(0.82, 1.0))
        return "white", body, (0.02, 0.02, 0.02), 0.0
    return training_dice(r)


PRECISION_TILTS = (0.0, 50.0)
"""The camera's tilt in precision dice scenes (degrees): from a station's camera looking down to the slant of a
far corner, and past it."""

PRECISION_BODIES = {
    "red": (0.75, 0.03, 0.04),
    "blue": (0.03, 0.12, 0.7),
    "green": (0.03, 0.5, 0.15),
    "purple": (0.35, 0.05, 0.55),
    "amber": (0.85, 0.45, 0.03),
    "smoke": (0.25, 0.25, 0.27),
}
"""The clear bodies tournament precision dice come in (linear RGB, before a little jitter)."""


def precision_dice(r: random.Random) -> tuple[str, tuple[float, float, float], tuple[float, float, float], float]:
    """A precision die: a clear coloured body (nearly full transmission) with white pips filled flush, so the
    pips of the far faces show through the near ones, as on the tournament dice a referee camera reads."""
    name = r.choice(sorted(PRECISION_BODIES))
    body = tuple(min(1.0, max(0.0, c * r.uniform(0.8, 1.2))) for c in PRECISION_BODIES[name])
    tone = r.uniform(0.82, 0.95)
    return (
        f"precision_{name}",
        (body[0], body[1], body[2]),
        (tone, tone, tone * r.uniform(0.95, 1.0)),
        r.uniform(0.9, 1.0),
    )


class Desk:
    """Dice lying on a plain table, no board, seen by a camera close by and at a slant (``DESK_TILTS``), with
    rounder dice than the board scenes': the second stage's training on dice seen from the side. ``precision``:
    sharp-edged translucent precision dice instead (``precision_dice``, ``PRECISION_TILTS``)."""

    def __init__(self, seed: int, precision: bool = False):
        self.rng = random.Random(seed)
        r = self.rng
        self.precision = precision
        self.die_size = r.uniform(13, 19)
        self.preset = precision_dice(r) if precision else desk_dice(r)
        self.rounding = r.uniform(0.01, 0.03) if precision else r.uniform(0.08, 0.14)
        self.tilt = math.radians(r.uniform(*(PRECISION_TILTS if precision else DESK_TILTS)))
        self.height = r.uniform(180, 320)  # camera over the table, mm
        self.lens = r.uniform(22, 32)  # mm on a 36 mm sensor: 59-79 degrees across
        self.dice: list[PlacedDie] = []

    def layout(self) -> None:
        """1-5 flat dice round the point the camera looks at, on the table (z = 0), apart."""
        r, s = self.rng, self.die_size
        reach = self.height * 18 / self.lens  # half the view's width at the camera's height, mm
        for _ in range(r.randint(1, 5)):
            for _ in range(100):
                x = r.uniform(-0.7, 0.7) * reach
                y = r.uniform(-0.45, 0.45) * reach
                if all(math.hypot(x - d.x, y - d.y) > 1.6 * s for d in self.dice):
                    rot = Matrix.Rotation(r.uniform(0, 2 * math.pi), 3, "Z") @ value_rotation(r.randint(1, 6))
                    self.dice.append(PlacedDie(x, y, s, rot, Vector((x, y, s / 2)), False, 0.0, "desk"))
                    break

    def build(self) -> list[bpy.types.Object]:
        r = self.rng
        surface = r.choice(("wood", "wood", "felt", "plain"))
        table = material("table", random_colour(r), r.uniform(0.3, 0.8), surface, r)
        box("table", -1500, -1500, -30, 1500, 1500, 0, table)
        _, body_col, pip_col, transmission = self.preset
        gloss = r.uniform(0.02, 0.1) if self.precision else r.uniform(0.15, 0.4)
        body = material("die_body", body_col, gloss, transmission=transmission, specular=0.6)
        pip = material("die_pip", pip_col, 0.4)
        pip_radius = r.uniform(0.09, 0.11) if self.precision else r.uniform(0.075, 0.095)
        objs = []
        for i, d in enumerate(self.dice):
            die, pips = make_die(f"die_{i}", d.size, body, pip, pip_radius, self.rounding)
            die.matrix_world = Matrix.Translation(d.centre * MM) @ d.rotation.to_4x4()
            objs += [die, pips]
        add_lights(r)
        return objs

    def camera(self) -> bpy.types.Object:
        r = self.rng
        target = Vector((r.uniform(-10, 10), r.uniform(-10, 10), 0)) * MM
        pos = target + Vector((0, -math.tan(self.tilt) * self.height, self.height)) * MM
        cam = new_camera(pos, target, r.uniform(-0.3, 0.3))
        cam.data.lens = self.lens
        bpy.context.view_layer.update()
        return cam


def render_desk(out: Path, name: str, seed: int, samples: int, precision: bool = False) -> None:
    """Build and render one desk scene: only the patches round the dice inside the frame, no empty frame."""
    t0 = time.time()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    desk = Desk(seed, precision)
    desk.layout()
    dice = desk.build()
    cam = desk.camera()
    setup_render(samples, seed)
    truth = [die_truth(scene, cam, dice[2 * i], d) for i, d in enumerate(desk.dice)]
    inside = [t for t in truth if in_frame(box_of(t))]
    meta: dict[str, object] = {
        "name": name,
        "seed": seed,
        "kind": "precision" if precision else "desk",
        "dice": inside,
        "dice_preset": desk.preset[0],
        "tilt_deg": round(math.degrees(desk.tilt), 1),
        "samples": samples,
        "blender": bpy.app.version_string,
        "patches": render_patches(out, name, dice, [box_of(t) for t in inside], empty=False) if inside else [],
    }
    meta["render_seconds"] = round(time.time() - t0, 1)
    (out / f"{name}.json").write_text(json.dumps(meta, indent=1))  # last: complete once it exists
    kind = meta["kind"]
    print(f"blender_scene: wrote {name} ({kind}, {len(inside)} dice) in {time.time() - t0:.1f} s", flush=True)


def project(scene: bpy.types.Scene, cam: bpy.types.Object, p: Vector) -> tuple[float, float]:
    """World point -> image pixel (x right, y down)."""
    v = world_to_camera_view(scene, cam, p)
    return (v.x * SIZE[0], (1.0 - v.y) * SIZE[1])


def die_truth(scene: bpy.types.Scene, cam: bpy.types.Object, die: bpy.types.Object, d: PlacedDie) -> dict[str, object]:
    depsgraph = bpy.context.evaluated_depsgraph_get()
    ev = die.evaluated_get(depsgraph)
    mesh = ev.to_mesh()
    pts = [project(scene, cam, die.matrix_world @ v.co) for v in mesh.vertices]
    ev.to_mesh_clear()
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    rot = die.matrix_world.to_3x3()
    s = d.size
    up_value, up_normal = max(((v, rot @ Vector(n)) for v, n in FACES.items()), key=lambda t: t[1].z)
    top = die.matrix_world @ (Vector(FACES[up_value]) * (s / 2 * MM))
    return {
        "value": up_value,
        "box": [math.floor(min(xs)), math.floor(min(ys)), math.ceil(max(xs)), math.ceil(max(ys))],
        "top_centre": [round(c, 1) for c in project(scene, cam, top)],
        "cocked": d.cocked,
        "tilt_deg": round(d.tilt_deg, 1),
        "zone": d.zone,
        "size_mm": round(s, 2),
        "world_mm": [round(d.x, 1), round(d.y, 1)],
    }


def box_of(truth: dict[str, object]) -> list[int]:
    box = truth["box"]
    assert isinstance(box, list)
    return [int(v) for v in box]


def in_frame(box: list[int]) -> bool:
    """Whether a die's whole picture lies inside the frame."""
    return box[0] >= 0 and box[1] >= 0 and box[2] <= SIZE[0] and box[3] <= SIZE[1]


def patch_regions(boxes: list[list[int]], die_px: float) -> list[tuple[int, int, int, int]]:
    """Pixel regions round the dice (their shadows and the light they bounce included), merged when they
    overlap."""
    grow = int(2.5 * die_px) + 8
    regions = [
        [max(0, b[0] - grow), max(0, b[1] - grow), min(SIZE[0], b[2] + grow), min(SIZE[1], b[3] + grow)] for b in boxes
    ]
    merged = True
    while merged and len(regions) > 1:
        merged = False
        a, b = regions[0], regions[1]
        if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
            regions = [[min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]] + regions[2:]
            merged = True
    return [(r[0], r[1], r[2], r[3]) for r in regions]


def setup_render(samples: int, seed: int) -> None:
    scene = bpy.context.scene
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = samples
    scene.cycles.use_adaptive_sampling = True
    scene.cycles.adaptive_threshold = 0.05
    scene.cycles.use_denoising = False  # Debian's build has no OpenImageDenoise
    scene.cycles.max_bounces = 4
    scene.cycles.diffuse_bounces = 2
    scene.cycles.glossy_bounces = 2
    scene.cycles.transmission_bounces = 4
    scene.cycles.sample_clamp_indirect = 3.0
    scene.cycles.blur_glossy = 1.0
    scene.cycles.seed = seed
    scene.render.resolution_x, scene.render.resolution_y = SIZE
    scene.render.resolution_percentage = 100
    scene.render.image_settings.file_format = "PNG"
    scene.view_settings.view_transform = "Filmic"
    scene.view_settings.look = "Medium High Contrast"
    scene.view_settings.exposure = random.Random(seed).uniform(-0.7, -0.1)


def render_scene(
    out: Path, name: str, kind: str, seed: int, samples: int, dry_run: bool = False, train: bool = False
) -> None:
    """Build, render and write one scene; ``dry_run`` writes only its truth (NAME.json), rendering nothing.
    ``train``: a training scene (random dice colours), rendered only round the dice (``render_patches``)."""
    if kind in ("desk", "precision"):
        render_desk(out, name, seed, samples, precision=kind == "precision")
        return
    t0 = time.time()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    throw = Throw(seed, kind, train)
    throw.layout()
    dice = throw.build()
    cam = throw.camera()
    setup_render(samples, seed)
    truth = [die_truth(scene, cam, dice[2 * i], d) for i, d in enumerate(throw.dice)]
    ox, oy = throw.board_w / 2 + throw.frame_w, throw.board_h / 2 + throw.frame_w
    corners = [
        project(scene, cam, Vector((x, y, throw.frame_h)) * MM) for x, y in ((-ox, oy), (ox, oy), (ox, -oy), (-ox, -oy))
    ]
    inner = [
        project(scene, cam, Vector((x, y, 0)) * MM)
        for x, y in (
            (-throw.board_w / 2, throw.board_h / 2),
            (throw.board_w / 2, throw.board_h / 2),
            (throw.board_w / 2, -throw.board_h / 2),
            (-throw.board_w / 2, -throw.board_h / 2),
        )
    ]
    meta = {
        "name": name,
        "seed": seed,
        "kind": kind,
        "thrower": throw.thrower,
        "values": [t["value"] for t in truth],
        "dice": truth,
        "corners": [[round(x, 1), round(y, 1)] for x, y in corners],
        "playing_corners": [[round(x, 1), round(y, 1)] for x, y in inner],
        "image_size": list(SIZE),
        "dice_preset": throw.preset[0],
        "support": throw.support,
        "frame_height_mm": round(throw.frame_h, 1),
        # what board set-up measures, as the foreign scenes' labels give it: the field (bar included), the bar
        # and the frame in millimetres, the die's side, and each checker's top centre in image pixels
        "board_mm": {
            "field_w": round(throw.board_w, 1),
            "field_h": round(throw.board_h, 1),
            "bar_w": round(throw.bar_w, 1),
            "frame_w": round(throw.frame_w, 1),
            "outer_w": round(throw.board_w + 2 * throw.frame_w, 1),
            "outer_h": round(throw.board_h + 2 * throw.frame_w, 1),
        },
        "die_mm": round(throw.die_size, 2),
        "checkers_px": [
            [round(v, 1) for v in project(scene, cam, Vector((x, y, throw.checker_h)) * MM)]
            for x, y, _ in throw.checkers
        ],
        "camera": throw.camera_info,
        "samples": samples,
        "blender": bpy.app.version_string,
    }
    if dry_run:
        (out / f"{name}.json").write_text(json.dumps(meta, indent=1))
        return
    if train:
        meta["patches"] = render_patches(out, name, dice, [box_of(t) for t in truth])
        meta["render_seconds"] = round(time.time() - t0, 1)
        (out / f"{name}.json").write_text(json.dumps(meta, indent=1))  # last: complete once it exists
        print(f"blender_scene: wrote {name} ({kind}, training patches) in {time.time() - t0:.1f} s", flush=True)
        return
    # the empty board first (the reference frame), then only the dice and their surroundings again, pasted on
    # it: the same sampling seed makes the rest of each patch match the empty render, so no seam shows
    empty_path = out / f"{name}_empty.png"
    for obj in dice:
        obj.hide_render = True
    scene.render.filepath = str(empty_path)
    bpy.ops.render.render(write_still=True)
    for obj in dice:
        obj.hide_render = False
    frame = bpy.data.images.load(str(empty_path))
    pixels = array("f", [0.0]) * (SIZE[0] * SIZE[1] * 4)
    frame.pixels.foreach_get(pixels)
    boxes = [box_of(t) for t in truth]
    for k, region in enumerate(patch_regions(boxes, throw.die_size_px(boxes))):
        x0, y0, x1, y1 = region
        crop_render_to(region)
        patch_path = out / f"{name}_patch{k}.png"
        scene.render.filepath = str(patch_path)
        bpy.ops.render.render(write_still=True)
        patch = bpy.data.images.load(str(patch_path))
        pw, ph = patch.size
        buf = array("f", [0.0]) * (pw * ph * 4)
        patch.pixels.foreach_get(buf)
        # Blender images start at the bottom row; the crop may differ from the asked region by a pixel
        bx0 = max(0, min(SIZE[0] - pw, round(x0)))
        by0 = max(0, min(SIZE[1] - ph, round(SIZE[1] - y1)))
        for row in range(ph):
            dst = ((by0 + row) * SIZE[0] + bx0) * 4
            pixels[dst : dst + pw * 4] = buf[row * pw * 4 : (row + 1) * pw * 4]
        bpy.data.images.remove(patch)
        patch_path.unlink()
    frame.pixels.foreach_set(pixels)
    frame.filepath_raw = str(out / f"{name}.png")
    frame.file_format = "PNG"
    frame.save()
    meta["render_seconds"] = round(time.time() - t0, 1)
    (out / f"{name}.json").write_text(json.dumps(meta, indent=1))  # last: a scene is complete once it exists
    print(f"blender_scene: wrote {name} ({kind}) in {time.time() - t0:.1f} s", flush=True)


def crop_render_to(region: tuple[int, int, int, int]) -> None:
    """Render only this pixel region (x0, y0, x1, y1; image rows down), and write just that."""
    scene = bpy.context.scene
    x0, y0, x1, y1 = region
    scene.render.use_border = True
    scene.render.use_crop_to_border = True
    scene.render.border_min_x, scene.render.border_max_x = x0 / SIZE[0], x1 / SIZE[0]
    scene.render.border_min_y, scene.render.border_max_y = 1 - y1 / SIZE[1], 1 - y0 / SIZE[1]


def render_patches(
    out: Path, name: str, dice: list[bpy.types.Object], boxes: list[list[int]], empty: bool = True
) -> list[list[int]]:
    """Training scenes need only the dice and their surroundings: each region round the dice is rendered
    without the dice (the frame before the throw; unless not ``empty``) and with them, as ``NAME_pK_empty.png``
    and ``NAME_pK.png``, about a tenth of the pixels of a whole frame. Returns each patch's [x0, y0, x1, y1] in
    frame pixels."""
    scene = bpy.context.scene
    regions = patch_regions(boxes, max(max(b[2] - b[0], b[3] - b[1]) for b in boxes))
    placed = []
    for k, (x0, y0, x1, y1) in enumerate(regions):
        crop_render_to((x0, y0, x1, y1))
        for suffix, hidden in (("_empty", True), ("", False)) if empty else (("", False),):
            for obj in dice:
                obj.hide_render = hidden
            scene.render.filepath = str(out / f"{name}_p{k}{suffix}.png")
            bpy.ops.render.render(write_still=True)
        placed.append([int(x0), int(y0), int(x1), int(y1)])
    return placed


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(prog="blender -b -P blender_scene.py --")
    ap.add_argument("--out", required=True)
    ap.add_argument("--name")
    ap.add_argument("--kind", choices=(*KINDS, "desk", "precision"))
    ap.add_argument("--seed", type=int)
    ap.add_argument("--jobs", help="a JSON list of {name, kind, seed} to render in this one Blender process")
    ap.add_argument("--samples", type=int, default=8)
    ap.add_argument("--dry-run", action="store_true", help="write each scene's truth only, render nothing")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.jobs:
        jobs = json.loads(Path(args.jobs).read_text())
    elif args.name and args.kind and args.seed is not None:
        jobs = [{"name": args.name, "kind": args.kind, "seed": args.seed}]
    else:
        ap.error("give --jobs, or --name, --kind and --seed")
    failed = []
    for job in jobs:
        try:
            render_scene(
                out,
                str(job["name"]),
                str(job["kind"]),
                int(job["seed"]),
                args.samples,
                args.dry_run,
                bool(job.get("train", False)),
            )
        except Exception:  # one broken scene must not lose the rest of the batch
            traceback.print_exc()
            failed.append(str(job["name"]))
    if failed:
        print(f"blender_scene: failed {', '.join(failed)}", flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else [])
