"""Babel extraction methods for what Babel cannot read itself (named in babel.cfg and
games-babel.cfg as `gamenight.i18n.extract.<function>`):

- `extract_html`: every text and every shown attribute (title, placeholder, aria-label,
  alt) of a page; the page's own script translates the same texts at load (common.js).
- `extract_rules`: a game's rules in player words (its `rules.py`, data, no `_()` calls):
  every section title and paragraph, entry name and rule, and the entries' heading.
- `extract_spec`: the player-facing words of a game's SPEC (its pitch and length).
- `extract_tutorial`: a game's guided first game (its `tutorial.py`, data): the title,
  intro, outro and seats' names of its `Tutorial`, and each `Step`'s sentences.
- `extract_options`: a game's options (its `options.py`): each `setting(...)`'s help text
  and its choices' labels, which the lobby and `gamenight options` show; then any `_()`
  of the module, as Babel's Python extraction finds them.

Each yields Babel's (lineno, funcname, message, comments).
"""

from __future__ import annotations

import ast
import io
from collections.abc import Collection, Iterator, Mapping
from html.parser import HTMLParser
from typing import IO, Any

Found = tuple[int, str | None, str | tuple[str, ...], list[str]]

SHOWN_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
SKIPPED_TAGS = ("script", "style", "code")  # code: addresses, never words


def one_space(text: str) -> str:
    """Text as a page shows it: runs of white space are one space, none at either end."""
    return " ".join(text.split())


class _PageTexts(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED_TAGS:
            self._skip += 1
        for name, value in attrs:
            if name in SHOWN_ATTRIBUTES and value and one_space(value):
                self.found.append((self.getpos()[0], one_space(value)))

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED_TAGS and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        text = one_space(data)
        if text and not self._skip and any(ch.isalpha() for ch in text):
            self.found.append((self.getpos()[0], text))


def page_texts(source: str) -> list[tuple[int, str]]:
    """(line, text) of every text a page shows as written (white space made one space)."""
    parser = _PageTexts()
    parser.feed(source)
    parser.close()
    return parser.found


def extract_html(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[Found]:
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    for line, text in page_texts(source):
        if text != "gamenight":  # the name of the platform is not translated
            yield line, None, text, []


def _lines(tree: ast.AST) -> dict[str, int]:
    """Each string constant of a module -> its first line (adjacent literals are one)."""
    found: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.setdefault(node.value, node.lineno)
    return found


def rules_messages(rules: Any) -> Iterator[tuple[str, str]]:
    """(message, note for translators) of a game's rules module, in the order shown."""
    for section in rules.SECTIONS:
        yield section.title, f"rules section '{section.key}': title"
        for paragraph in section.paragraphs:
            yield paragraph, f"rules section '{section.key}'"
    yield rules.ENTRIES_TITLE, "heading of the cards, pieces or terms"
    for entry in rules.ENTRIES:
        yield entry.name, f"rules entry '{entry.key}': its name"
        yield entry.rule, f"rules entry '{entry.key}': its rule"


def extract_rules(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[Found]:
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    name = getattr(fileobj, "name", "rules.py")
    namespace: dict[str, Any] = {"__name__": "gamenight_rules_extracted"}
    exec(compile(source, name, "exec"), namespace)  # data only: the rules as the game has them
    lines = _lines(ast.parse(source))
    rules = type("Rules", (), namespace)
    for message, note in rules_messages(rules):
        yield lines.get(message, 0), None, message, [note]


def _calls(tree: ast.AST, names: Collection[str]) -> Iterator[tuple[str, ast.Call]]:
    """Every call of a plain name in `names` (GameSpec, Step, setting ...), with the name."""
    for node in ast.walk(tree):
        call = node if isinstance(node, ast.Call) else None
        if call is not None and isinstance(call.func, ast.Name) and call.func.id in names:
            yield call.func.id, call


def _literals(call: ast.Call, args: Collection[str]) -> Iterator[tuple[str, int, str]]:
    """(argument, line, text) of the literal strings given to `call`'s keyword arguments
    `args`, one or a tuple each."""
    for word in call.keywords:
        if word.arg is not None and word.arg in args:
            values = word.value.elts if isinstance(word.value, ast.Tuple) else [word.value]
            for value in values:
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    yield word.arg, value.lineno, value.value


SPEC_WORDS = ("pitch", "length")  # the SPEC's fields a person reads (the title is a name)


def extract_spec(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[Found]:
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    for _, call in _calls(ast.parse(source), ("GameSpec",)):
        for arg, line, text in _literals(call, SPEC_WORDS):
            yield line, None, text, [f"the game's {arg}"]


# The words a person reads of a guided first game (engine/tutorial.py's Tutorial and Step).
TUTORIAL_WORDS = {
    "Tutorial": ("title", "intro", "outro", "names"),
    "Step": ("say", "why", "refuse", "keys"),
}


def extract_tutorial(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[Found]:
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    for kind, call in _calls(ast.parse(source), TUTORIAL_WORDS):
        for arg, line, text in _literals(call, TUTORIAL_WORDS[kind]):
            yield line, None, text, [f"tutorial {kind.lower()}: {arg}"]


def _setting_words(call: ast.Call) -> Iterator[tuple[ast.expr, str]]:
    """(node, what it is) of the words a person reads of one `setting(...)` call."""
    helps = [word.value for word in call.keywords if word.arg == "help"]
    helps += call.args[1:2]
    for node in helps:
        yield node, "help"
    for word in call.keywords:
        if word.arg == "labels":
            if not isinstance(word.value, ast.Dict):
                raise ValueError(f"line {word.value.lineno}: labels must be a dict literal")
            for key, value in zip(word.value.keys, word.value.values, strict=True):
                choice = key.value if isinstance(key, ast.Constant) else "?"
                yield value, f"label of the choice {choice!r}"


def extract_options(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[Found]:
    """Every help text and choice label of a game's `setting(...)` calls (a text that is
    not a literal string cannot be in a catalogue: it is refused, naming its line), then
    the module's `_()` calls."""
    from babel.messages import extract

    python: Any = extract.extract_python  # (its stub's types are not what it yields)
    source = fileobj.read()
    tree = ast.parse(source.decode(options.get("encoding", "utf-8")))
    owner: dict[int, str] = {}  # a setting call -> the name of the option it declares
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
            owner[id(node.value)] = node.target.id
    for _, node in _calls(tree, ("setting",)):
        name = owner.get(id(node), "?")
        for value, what in _setting_words(node):
            if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
                raise ValueError(
                    f"option {name!r} (line {value.lineno}): its {what} must be a literal "
                    "string to be translated"
                )
            yield value.lineno, None, value.value, [f"game option {name!r}: {what}"]
    yield from python(io.BytesIO(source), keywords, comment_tags, options)
