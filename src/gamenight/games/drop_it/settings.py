"""Drop It's physics values (§4) and tolerances (N1) as plain data: the defaults the
options declare, without importing the physics engine (pymunk) or the scoring geometry, so
that listing the games or their options stays quick (issue 45 item 6, start-up)."""

from __future__ import annotations

from dataclasses import dataclass

from gamenight.games.drop_it.components import MATERIALS


@dataclass(frozen=True, slots=True)
class PhysicsConfig:
    """§4's physics values (all options of the game)."""

    gravity: float = 9810.0  # mm/s², downwards
    dt: float = 1 / 240
    iterations: int = 30
    collision_slop: float = 0.1
    damping: float = 0.9
    piece_friction: float = MATERIALS["piece"]["friction"]
    wall_friction: float = MATERIALS["wall"]["friction"]
    piece_elasticity: float = MATERIALS["piece"]["elasticity"]
    wall_elasticity: float = MATERIALS["wall"]["elasticity"]
    sleep: bool = False
    sleep_time: float = 0.5
    idle_speed: float = 5.0
    v_rest: float = 5.0
    w_rest: float = 0.05
    t_rest: float = 0.5
    t_max: float = 20.0
    zero_velocity_at_rest: bool = True

    @property
    def rest_steps(self) -> int:
        """D14: REST_STEPS = round(T_REST / DT), counted in whole steps."""
        return round(self.t_rest / self.dt)

    @property
    def max_steps(self) -> int:
        """D14: MAX_STEPS = round(T_MAX / DT)."""
        return round(self.t_max / self.dt)


@dataclass(frozen=True, slots=True)
class Tolerances:
    """N1: the named tolerances in mm."""

    touch: float = 0.5  # TOUCH_TOL
    level: float = 0.5  # LEVEL_EPS
    bonus: float = 0.5  # BONUS_EPS
    height: float = 0.5  # HEIGHT_EPS
