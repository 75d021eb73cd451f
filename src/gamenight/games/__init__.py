"""The game packages, one per game, all of the same shape.

`gamenight.games()` is part of the public API (it lists the games), but importing any game
package makes Python bind the name `gamenight.games` to this package. So this package is
callable and gives the same list.

Listing the games (`gamenight games`, `gamenight --help`, the lobby) imports each game
package's `__init__` only, for its SPEC; `lazy_names` gives a package the names it exports
(its Game class, options, actions) without importing their modules until one is used.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable
from typing import Any


class _CallablePackage(types.ModuleType):
    def __call__(self) -> list[str]:
        from gamenight.engine.registry import games

        return games()


def lazy_names(package: str, **modules: tuple[str, ...]) -> Callable[[str], Any]:
    """A module `__getattr__` for `package`: each name is imported from its module (a
    keyword, relative to the package) when first used, then kept as a plain attribute.

        __getattr__ = lazy_names(__name__, game=("Arne",), options=("Options",))
    """
    where = {name: module for module, names in modules.items() for name in names}

    def __getattr__(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{where[name]}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__


sys.modules[__name__].__class__ = _CallablePackage
