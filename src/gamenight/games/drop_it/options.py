"""Drop It options: every named setting of the spec (§2.3, §4, D4, D8, D11, D16, D34, N1,
V1..V4), validated, and the side colours they give (D34)."""

from __future__ import annotations

from dataclasses import dataclass

from gamenight.engine.core import BadInput, said_in
from gamenight.engine.options import seat_refused, setting
from gamenight.games.drop_it.board import COLOURS, load_board
from gamenight.games.drop_it.components import SEAT_COLOURS
from gamenight.games.drop_it.settings import PhysicsConfig, Tolerances
from gamenight.i18n import N_

PHYSICS = PhysicsConfig()  # §4 defaults, one place for options and physics
TOLERANCES = Tolerances()  # N1 defaults


def refused(template: str, **words: object) -> BadInput:
    """A refusal of these options: `template` (marked N_) is a sentence of Drop It's
    catalogue, said in the reader's language where it is shown; its words (option names,
    values, numbers) as they are."""
    return BadInput(said_in(__package__ or "", template, **words))


# seat_colours' refusal, by the colours each side needs (two sides: two each)
BAD_SEAT_COLOURS = {
    1: N_(
        "seat_colours for {sides} sides needs 1 distinct colour(s) per side from {colours}, "
        "like {example}; got {given}"
    ),
    2: N_(
        "seat_colours for {sides} sides needs 2 distinct colour(s) per side from {colours}, "
        "like {example}; got {given}"
    ),
}


@dataclass(frozen=True)
class Options:
    """Every named setting of the spec (§2.3, §4, D4, D8, D11, D16, D34, N1, V1..V4)."""

    players: int = setting(2, "number of players (D3-D5); with teams, 2-6 people", min=2, max=6)
    teams: bool = setting(False, "two teams, players alternating: 1, 3, 5 against 2, 4, 6 (V4)")
    edge_mode: str = setting(
        "color",
        "edge faces: color (D7), shape (V1) or none (easy, V2)",
        choices=("color", "shape", "none"),
        labels={"color": "color edges", "shape": "shape edges", "none": "no edge marks"},
    )
    jokers: bool = setting(False, "joker variant: 2 per side, 3 points each if unused (V3)")
    board: str = setting(
        "", "path of a board JSON file (spec §3.10); empty: board_default_v1", served=("",)
    )
    start_seat: int | str = setting(
        0,
        "START_SEAT: the player (with teams: the team) who drops first, or 'random' (D8)",
        seat=True,
    )
    seat_colours: str = setting(
        "", "SEAT_COLOURS (D34), e.g. 'red,blue,green' or 'red+yellow,blue+green'; empty: default"
    )
    strict: bool = setting(
        False, "refuse an x or depth outside its limits instead of clamping it (D11)"
    )
    max_depth: float | str = setting(
        "piece_height",
        "MAX_DEPTH_MODE (D11): 'piece_height', 'zero' or a number of mm",
        ceiling=1000,
    )
    jitter: bool = setting(False, "JITTER: seeded hand noise on every drop (D16)")
    jitter_scale: float = setting(
        1.0, "JITTER_SCALE: one factor on all noise sigmas (D16)", min=0.0
    )
    jitter_x: float = setting(1.0, "sigma of the x offset in mm (D16)", min=0.0)
    jitter_angle: float = setting(2.0, "sigma of the angle offset in degrees (D16)", min=0.0)
    jitter_vx: float = setting(20.0, "sigma of the horizontal release speed in mm/s (D16)", min=0.0)
    jitter_spin: float = setting(0.2, "sigma of the release spin in rad/s (D16)", min=0.0)
    touch_tol: float = setting(TOLERANCES.touch, "TOUCH_TOL in mm (N1, N4, N5)", min=0.0)
    level_eps: float = setting(TOLERANCES.level, "LEVEL_EPS in mm (N1, N6)", min=0.0)
    bonus_eps: float = setting(TOLERANCES.bonus, "BONUS_EPS in mm (N1, N7)", min=0.0)
    height_eps: float = setting(TOLERANCES.height, "HEIGHT_EPS in mm (N1, N8)", min=0.0)
    release_clearance: float = setting(1.0, "RELEASE_CLEARANCE in mm (D12)", min=0.0)
    x_clearance: float = setting(0.5, "X_CLEARANCE to the side walls in mm (D11)", min=0.0)
    gravity: float = setting(PHYSICS.gravity, "GRAVITY in mm/s², downwards (§4)", min=0.0)
    dt: float = setting(
        PHYSICS.dt, "DT, the fixed time step in s (§4)", min=1e-5, max=0.1, floor=1 / 1000
    )
    iterations: int = setting(
        PHYSICS.iterations, "ITERATIONS of the pymunk solver (§4)", min=1, ceiling=100
    )
    collision_slop: float = setting(PHYSICS.collision_slop, "COLLISION_SLOP in mm (§4)", min=0.0)
    damping: float = setting(
        PHYSICS.damping, "DAMPING, velocity kept per second (§4)", min=0.0, max=1.0
    )
    piece_friction: float = setting(
        PHYSICS.piece_friction, "per-shape friction of a piece (§4)", min=0.0
    )
    wall_friction: float = setting(
        PHYSICS.wall_friction, "per-shape friction of a wall (§4)", min=0.0
    )
    piece_elasticity: float = setting(
        PHYSICS.piece_elasticity, "per-shape elasticity of a piece (§4)", min=0.0
    )
    wall_elasticity: float = setting(
        PHYSICS.wall_elasticity, "per-shape elasticity of a wall (§4)", min=0.0
    )
    sleep: bool = setting(PHYSICS.sleep, "SLEEP: let resting pieces sleep in pymunk (§4, D14)")
    sleep_time: float = setting(
        PHYSICS.sleep_time, "sleep_time_threshold in s when SLEEP is on (§4)", min=0.0
    )
    idle_speed: float = setting(
        PHYSICS.idle_speed, "idle_speed_threshold in mm/s when SLEEP is on (§4)", min=0.0
    )
    v_rest: float = setting(PHYSICS.v_rest, "V_REST in mm/s (D14)", min=0.0)
    w_rest: float = setting(PHYSICS.w_rest, "W_REST in rad/s (D14)", min=0.0)
    t_rest: float = setting(PHYSICS.t_rest, "T_REST in simulated s (D14)", min=0.0, ceiling=5)
    t_max: float = setting(
        PHYSICS.t_max, "T_MAX, the settling timeout in simulated s (D14)", min=0.0, ceiling=30
    )
    zero_velocity_at_rest: bool = setting(
        PHYSICS.zero_velocity_at_rest, "ZERO_VELOCITY_AT_REST (D14)"
    )
    x_bins: int = setting(
        13, "x positions per piece and angle in the action grid", min=2, max=241, ceiling=41
    )
    angle_bins: int = setting(
        6, "angles per symmetry period in the action grid (circles: 1)", min=1, max=360, ceiling=24
    )
    frame_every: int = setting(
        8, "sample the drop's trajectory every this many steps (0: off)", min=0
    )

    def __post_init__(self) -> None:
        if not self.teams and self.players > 4:
            raise refused(
                N_(
                    "drop-it has 2-4 players (D3-D5), or 2-6 in teams (V4); got {players} "
                    "without teams"
                ),
                players=self.players,
            )
        sides = 2 if self.teams else self.players
        seat_refused(
            "drop-it", "start_seat", self.start_seat, sides, "team" if self.teams else "player"
        )
        if isinstance(self.max_depth, str) and self.max_depth not in ("piece_height", "zero"):
            raise refused(N_("max_depth must be 'piece_height', 'zero' or a number of mm (D11)"))
        if not isinstance(self.max_depth, str) and not self.max_depth >= 0:
            raise refused(N_("max_depth in mm must be 0 or more (D11)"))
        load_board(self.board)  # BadInput if the file is missing or malformed
        side_colours(self)

    @property
    def sides(self) -> int:
        return 2 if self.teams else self.players


DropItOptions = Options  # the name before every game's options were called Options


def side_colours(options: Options) -> tuple[tuple[str, ...], ...]:
    """D34: the colours of each side, from `seat_colours` or the defaults."""
    n = options.sides
    if not options.seat_colours:
        return SEAT_COLOURS[n]
    sides = tuple(
        tuple(c.strip() for c in part.split("+")) for part in options.seat_colours.split(",")
    )
    flat = [c for side in sides for c in side]
    per_side = 2 if n == 2 else 1
    if (
        len(sides) != n
        or any(len(s) != per_side for s in sides)
        or len(set(flat)) != len(flat)
        or any(c not in COLOURS for c in flat)
    ):
        example = ",".join("+".join(s) for s in SEAT_COLOURS[n])
        raise refused(
            BAD_SEAT_COLOURS[per_side],
            sides=n,
            colours=", ".join(COLOURS),
            example=repr(example),
            given=repr(options.seat_colours),
        )
    return sides
