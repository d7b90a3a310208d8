"""rules -- the rules options of RULES.md as plain dicts.

Rules travel as dicts shaped like a record's "rules" object ({"game":
"scopa", "players": 2, ...}); an option left out takes its default.  The
library checks them with exact JSON types (11, not 11.0 or "11"; true, not
1), so the checks here and in records and `scopa engine` are the same.
"""
import ctypes
import json

from . import _lib


def _preset_names():
    """The library's presets (scopa_rules_preset_names), in RULES.md's
    order."""
    out, arr, i = [], _lib.lib.scopa_rules_preset_names(), 0
    while arr[i]:
        out.append(arr[i].decode())
        i += 1
    return tuple(out)


# The preset names, as the library lists them ("scopa", "scopone",
# "scientifico", ...).
PRESETS = _preset_names()


def _checked(rules):
    """A checked _lib.Rules from a dict, a JSON text, a preset name or a
    _lib.Rules; ValueError with the library's message otherwise."""
    if isinstance(rules, _lib.Rules):
        return rules
    out = _lib.Rules()
    if rules is None:
        rules = {}
    if isinstance(rules, str) and not rules.lstrip().startswith("{"):
        if _lib.lib.scopa_rules_preset(ctypes.byref(out),
                                       rules.encode()) != 0:
            raise ValueError("unknown rules preset %r (one of %s)" %
                             (rules, ", ".join(PRESETS)))
        return out
    text = rules if isinstance(rules, str) else json.dumps(rules)
    raw = text.encode("utf-8")
    msg = _lib.msgbuf()
    if _lib.lib.scopa_rules_from_json(ctypes.byref(out), raw, len(raw), None,
                                      msg, _lib.MSG) != 0:
        raise ValueError(msg.value.decode())
    return out


def to_dict(crules):
    return json.loads(_lib.take_string(
        _lib.lib.scopa_rules_to_json(ctypes.byref(crules))))


def check(rules):
    """Every option of the rules (defaults filled in) as a dict;
    ValueError for rules that cannot be played."""
    return to_dict(_checked(rules))


def preset(name):
    """The rules of a named preset (one of PRESETS, the library's list:
    "scopa", "scopone", "scientifico", ...) as a full dict."""
    return to_dict(_checked(name))


def sides(rules):
    return _lib.lib.scopa_rules_sides(ctypes.byref(_checked(rules)))


def side_of(rules, seat):
    return _lib.lib.scopa_rules_side_of(ctypes.byref(_checked(rules)), seat)
