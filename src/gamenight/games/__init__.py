"""The game packages, one per game, all of the same shape.

`gamenight.games()` is part of the public API (it lists the games), but importing any game
package makes Python bind the name `gamenight.games` to this package. So this package is
callable and gives the same list.
"""

import sys
import types

from gamenight.engine.registry import games as _games


class _CallablePackage(types.ModuleType):
    def __call__(self) -> list[str]:
        return _games()


sys.modules[__name__].__class__ = _CallablePackage
