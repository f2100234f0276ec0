"""One public identity: what every run of a student's own tests shows the kernel alike.

Every version of a part (``plaisante.student_side.student_tests``: the correct one or a buggy one)
shows the kernel the same names: the runs are built from copies named after the parameter
(``public``: a function ``count_values``, a class ``Machine`` whose methods are ``Machine.deal``…),
a call is checked against the reference's signature before any version sees it, and no error text of
an implementation goes out unscrubbed of the versions' names and of addresses (``Surface``).
Trusted code: it runs in the grader (or in the student's notebook, on their own parts).
"""

from __future__ import annotations

import functools
import inspect
import re
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


def _renamed_function(function: Any, name: str, qualname: str) -> Any:
    """Return a copy of the plain function ``function`` (same code, globals, defaults and
    closure: the same behaviour and state) called ``name`` / ``qualname``."""
    code = function.__code__.replace(co_name=name)
    if hasattr(code, "co_qualname"):  # Python 3.11+
        code = code.replace(co_qualname=qualname)
    copy = types.FunctionType(code, function.__globals__, name, function.__defaults__,
                              function.__closure__)
    copy.__kwdefaults__ = function.__kwdefaults__
    copy.__qualname__ = qualname
    copy.__module__ = function.__module__
    copy.__doc__ = function.__doc__
    copy.__dict__.update(function.__dict__)
    return copy


def _renamed_attribute(value: Any, qualname: str) -> Any:
    """A copy of a class attribute that is a function (plain, static or class method) under
    ``qualname``; None for any other attribute."""
    name = qualname.rsplit(".", 1)[-1]
    if isinstance(value, types.FunctionType):
        return _renamed_function(value, name, qualname)
    if isinstance(value, (staticmethod, classmethod)) \
            and isinstance(value.__func__, types.FunctionType):
        return type(value)(_renamed_function(value.__func__, name, qualname))
    return None


def public(name: str, part: Any) -> Any:
    """Return ``part`` under the parameter's ``name``: a renamed copy of a plain function; for
    a class, a subclass named ``name`` that holds a renamed copy of every function it has
    (its own and inherited, each as the class resolves it). Anything else as it is."""
    if isinstance(part, types.FunctionType):
        return _renamed_function(part, name, name)
    if not isinstance(part, type):
        return part
    namespace: dict[str, Any] = {"__slots__": (), "__module__": part.__module__,
                                 "__qualname__": name, "__doc__": part.__doc__}
    mro = [klass for klass in part.__mro__ if klass is not object]
    for attribute in {key for klass in mro for key in vars(klass)}:
        if attribute in namespace or attribute in ("__dict__", "__weakref__"):
            continue
        value = next(vars(klass)[attribute] for klass in mro if attribute in vars(klass))
        renamed = _renamed_attribute(value, f"{name}.{attribute}")
        if renamed is not None:
            namespace[attribute] = renamed
    if "__eq__" in namespace and "__hash__" not in namespace:  # else Python sets it to None
        namespace["__hash__"] = part.__hash__
    try:
        return type(part)(name, (part,), namespace)
    except Exception:  # noqa: BLE001  a class that cannot be subclassed: its texts are scrubbed
        return part


def identity_names(part: Any) -> set[str]:
    """The names by which ``part`` could show which version it is: its own and its classes'
    and methods' names and qualified names, and those of the functions and classes of its
    module that its code calls (its helpers)."""
    found: set[str] = set()
    seen: set[int] = set()
    module = getattr(part, "__module__", None)

    def visit(thing: Any, depth: int, member: bool = False) -> None:
        if id(thing) in seen or depth > 4:
            return
        seen.add(id(thing))
        if isinstance(thing, (staticmethod, classmethod)):
            visit(thing.__func__, depth, member)
        elif isinstance(thing, types.FunctionType):
            qualname = thing.__qualname__
            if not member or "." not in qualname or "<locals>" in qualname:
                # a method's own name is public ("deal"): its class's name is scrubbed
                found.update((thing.__name__, qualname, thing.__code__.co_name,
                              getattr(thing.__code__, "co_qualname", qualname)))
            for cell in thing.__closure__ or ():
                try:
                    visit(cell.cell_contents, depth + 1)
                except ValueError:  # an empty cell
                    pass
            for helper in _called_names(thing.__code__):
                value = thing.__globals__.get(helper)
                if getattr(value, "__module__", None) == module \
                        and isinstance(value, (types.FunctionType, type)):
                    visit(value, depth + 1)
        elif isinstance(thing, type):
            for klass in thing.__mro__:
                if klass.__module__ == "builtins":
                    continue
                found.update((klass.__name__, klass.__qualname__))
                for value in vars(klass).values():
                    visit(value, depth + 1, member=True)
        else:
            name = getattr(thing, "__name__", None)
            if type(name) is str and callable(thing):
                found.add(name)

    visit(part, 0)
    return {name for name in found if name and not name.startswith("<")}


def _called_names(code: types.CodeType) -> Iterator[str]:
    yield from code.co_names
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from _called_names(constant)


@dataclass
class Surface:
    """What every run shows the kernel alike: the reference's signatures (a call is checked
    against them before any version sees it) and every version's names (scrubbed from the
    text of an implementation's error)."""

    reference: dict[str, Callable[..., Any]]
    replacements: dict[str, str]

    def signature(self, part: str, method: str | None = None) -> inspect.Signature | None:
        """The reference's signature of ``part`` (or of its method ``method``), without
        ``self``; None where Python cannot tell it."""
        target = self.reference.get(part)
        if target is None:
            return None
        try:
            if method is None:
                return inspect.signature(target)
            if not isinstance(target, type):
                return None
            raw = inspect.getattr_static(target, method)
            found = inspect.signature(getattr(target, method))
            if isinstance(raw, (staticmethod, classmethod)):
                return found
            parameters = list(found.parameters.values())
            return found.replace(parameters=parameters[1:]) if parameters else None
        except (AttributeError, TypeError, ValueError):
            return None

    def scrub(self, text: str) -> str:
        """``text`` with every version's name replaced by its parameter's, and addresses by
        '0x…'."""
        text = re.sub(r"0x[0-9a-fA-F]+", "0x…", text)
        if not self.replacements:
            return text
        return self.names.sub(lambda match: self.replacements[match.group(1)], text)

    @functools.cached_property
    def names(self) -> re.Pattern[str]:
        """Any of the names to replace, as a whole name (not the end of a dotted one)."""
        names = sorted(self.replacements, key=len, reverse=True)
        return re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, names)) + r")(?!\w)")


def surface(reference: dict[str, Callable[..., Any]],
            versions: Sequence[Mapping[str, Callable[..., Any]]] = ()) -> Surface:
    """Return the ``Surface`` of the runs on ``reference`` and on each version's parts
    (``versions``: {parameter name: implementation} each)."""
    replacements: dict[str, str] = {}
    for parts in [reference, *versions]:
        for name, part in sorted(parts.items()):
            for found in sorted(identity_names(part)):
                if found not in reference:  # a parameter's own name is everyone's
                    replacements.setdefault(found, name)
    return Surface(dict(reference), replacements)
