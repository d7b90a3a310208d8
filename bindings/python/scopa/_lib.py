"""_lib -- finds and loads libscopa.so, and declares the C functions used.

The library is the one named by the environment variable SCOPA_LIB when it
is set, else the one the build made (build/libscopa.so at the top of the
repository, then other build*/ folders), else an installed libscopa.

The plain structs that Python reads (scopa_rules, scopa_state, scopa_tally,
scopa_bot_limits, scopa_fault, scopa_hint, scopa_why) are mirrored here and
checked against the library's own sizes (scopa_sizeof) when it is loaded,
so a layout change in scopa.h fails loudly instead of reading garbage.  Everything else crosses as
plain integers, byte buffers or JSON text.
"""
import ctypes
import ctypes.util
import glob
import os

c_u8, c_i32, c_u64 = ctypes.c_uint8, ctypes.c_int32, ctypes.c_uint64
c_int, c_char_p, c_void_p, c_size_t = (ctypes.c_int, ctypes.c_char_p,
                                       ctypes.c_void_p, ctypes.c_size_t)
MAX_SEATS = 6
MOVE_TEXT = 176
MSG = 300
NO_SEAT = 0xFF

# The fields of scopa_rules in struct order (the options added with the
# variants come last in the struct; the option table orders them as
# RULES.md does).
OPTION_FIELDS = ["game", "players", "teams", "refill", "kings_redeal",
                 "mandatory_capture", "fewest_cards", "ace_sweeps",
                 "ace_sweep_scopa", "capture", "primiera", "re_bello",
                 "napola", "target", "tiebreak", "win_by_two", "cappotto",
                 "team_size", "deal_bonus", "single_match_first",
                 "max_capture", "last_card_scopa", "ace_sweep_with_ace",
                 "ace_first_play", "ace_empty_table", "ace_sweep_optional",
                 "leftovers", "most_sevens", "all_sevens", "all_coins_wins",
                 "lowest_wins"]


class Rules(ctypes.Structure):
    _fields_ = [(name, c_i32) for name in OPTION_FIELDS]


class State(ctypes.Structure):
    _fields_ = [("rules", Rules),
                ("hand", c_u64 * MAX_SEATS),
                ("table", c_u64),
                ("pile", c_u64 * MAX_SEATS),
                ("deck", c_u8 * 40),
                ("next", c_u8), ("dealer", c_u8), ("to_play", c_u8),
                ("last_capturer", c_u8), ("plays", c_u8),
                ("players", c_u8), ("sides", c_u8), ("plain", c_u8),
                ("scope", c_u8 * MAX_SEATS),
                ("initial_table", c_u64),
                ("dealt", c_u64 * MAX_SEATS),
                ("moves", c_u64 * 40)]


class Tally(ctypes.Structure):
    _fields_ = [("rules", Rules), ("sides", c_int),
                ("totals", c_int * MAX_SEATS), ("rounds", c_int),
                ("dealer", c_int), ("finished", c_int), ("winner", c_int)]


class BotLimits(ctypes.Structure):
    _fields_ = [("movetime_ms", c_int), ("seed", c_u64), ("threads", c_int),
                ("nodes", c_u64), ("deadline_ns", ctypes.c_int64),
                ("cancel", ctypes.POINTER(c_int))]


class Hint(ctypes.Structure):
    _fields_ = [("move", c_u64), ("value", ctypes.c_double),
                ("margin", ctypes.c_double), ("loss", ctypes.c_double),
                ("loss_margin", ctypes.c_double), ("mark", c_int)]


class HintInfo(ctypes.Structure):
    _fields_ = [("worlds", c_int), ("exact", c_int), ("nodes", c_u64)]


class Why(ctypes.Structure):
    """scopa_why: what a move does (scopa_move_why)."""
    _fields_ = [("reasons", ctypes.c_uint), ("cards", c_int),
                ("coins", c_int), ("sevens", c_int), ("sum", c_int),
                ("rank", c_int)]


class Seat(ctypes.Structure):
    _fields_ = [("kind", c_int), ("name", c_char_p), ("bot", c_char_p),
                ("level", c_char_p)]


MATCH_DEAL, MATCH_PLAY, MATCH_OVER = 0, 1, 2


class Fault(ctypes.Structure):
    _fields_ = [("round", c_int), ("move", c_int),
                ("message", ctypes.c_char * 256)]


class EnvConfig(ctypes.Structure):
    _fields_ = [("learner", c_int), ("opponent", c_char_p),
                ("movetime_ms", c_int), ("nodes", c_u64),
                ("whole_game", c_int), ("illegal_reward", ctypes.c_double),
                ("external", ctypes.c_uint32)]


class Rng(ctypes.Structure):
    _fields_ = [("s", c_u64 * 4)]


def _candidates():
    env = os.environ.get("SCOPA_LIB")
    if env:
        return [env]
    top = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..",
                                       ".."))
    found = [os.path.join(top, "build", "libscopa.so")]
    found += sorted(glob.glob(os.path.join(top, "build*", "libscopa.so")))
    name = ctypes.util.find_library("scopa")
    if name:
        found.append(name)
    return found


def _load():
    tried = []
    for path in _candidates():
        if os.environ.get("SCOPA_LIB") or os.path.exists(path) or \
                not os.path.sep in path:
            try:
                found = ctypes.CDLL(path)
            except OSError as e:
                tried.append("%s (%s)" % (path, e))
                continue
            if hasattr(found, "scopa_state_actions"):
                return found, path
            tried.append("%s (built before the bindings support: rebuild "
                         "it)" % path)
        else:
            tried.append(path)
    raise ImportError("scopa: cannot load libscopa.so; build it (see the "
                      "README) or set SCOPA_LIB.  Tried: " + "; ".join(tried))


lib, path = _load()

_SIGNATURES = {
    "scopa_sizeof": (c_size_t, [c_char_p]),
    "scopa_free": (None, [c_void_p]),
    "scopa_strerror": (c_char_p, [c_int]),
    "scopa_card_str": (c_char_p, [c_int, c_char_p]),
    "scopa_card_parse": (c_int, [c_char_p]),
    "scopa_move_str": (c_char_p, [c_u64, c_char_p]),
    "scopa_move_parse": (c_int, [c_char_p, c_char_p, ctypes.POINTER(c_u64),
                                 c_char_p, c_size_t]),
    "scopa_card_name": (c_char_p, [c_int, c_char_p, c_char_p, c_size_t]),
    "scopa_card_words": (c_char_p, [c_int, c_char_p, c_char_p, c_char_p,
                                    c_size_t]),
    "scopa_move_words": (c_size_t, [c_u64, c_char_p, c_char_p, c_char_p,
                                    c_size_t]),
    "scopa_move_why": (c_int, [c_void_p, c_u64, ctypes.POINTER(Why)]),
    "scopa_move_why_json": (c_void_p, [c_void_p, c_u64]),
    "scopa_why_code": (c_char_p, [c_int]),
    "scopa_view_card_reason": (c_int, [c_void_p, c_int]),
    "scopa_card_reason_code": (c_char_p, [c_int]),
    "scopa_card_reason_words": (c_size_t, [c_int, c_int, c_char_p, c_char_p,
                                           c_char_p, c_size_t]),
    "scopa_why_words": (c_size_t, [ctypes.POINTER(Why), c_int, c_char_p,
                                   c_char_p, c_char_p, c_size_t]),
    "scopa_points_words": (c_size_t, [ctypes.c_double, c_char_p, c_char_p,
                                      c_size_t]),
    "scopa_loss_words": (c_size_t, [ctypes.c_double, ctypes.c_double, c_int,
                                    c_char_p, c_char_p, c_size_t]),
    "scopa_option_count": (c_int, []),
    "scopa_rules_init": (None, [ctypes.POINTER(Rules)]),
    "scopa_rules_check": (c_int, [ctypes.POINTER(Rules), c_char_p, c_char_p,
                                  c_size_t]),
    "scopa_rules_preset": (c_int, [ctypes.POINTER(Rules), c_char_p]),
    "scopa_rules_preset_names": (ctypes.POINTER(c_char_p), []),
    "scopa_rules_from_json": (c_int, [ctypes.POINTER(Rules), c_char_p,
                                      c_size_t, c_char_p, c_char_p,
                                      c_size_t]),
    "scopa_rules_to_json": (c_void_p, [ctypes.POINTER(Rules)]),
    "scopa_rules_sides": (c_int, [ctypes.POINTER(Rules)]),
    "scopa_rules_side_of": (c_int, [ctypes.POINTER(Rules), c_int]),
    "scopa_rng_seed": (None, [ctypes.POINTER(Rng), c_u64]),
    "scopa_rng_deck": (None, [ctypes.POINTER(Rng), ctypes.POINTER(c_u8)]),
    "scopa_state_deal": (c_int, [ctypes.POINTER(State), ctypes.POINTER(Rules),
                                 c_int, ctypes.POINTER(c_u8), c_char_p,
                                 c_size_t]),
    "scopa_state_deal_random": (None, [ctypes.POINTER(State),
                                       ctypes.POINTER(Rules), c_int,
                                       ctypes.POINTER(Rng)]),
    "scopa_state_to_play": (c_int, [ctypes.POINTER(State)]),
    "scopa_state_over": (c_int, [ctypes.POINTER(State)]),
    "scopa_state_apply": (c_int, [ctypes.POINTER(State), c_u64, c_char_p,
                                  c_size_t]),
    "scopa_state_play": (None, [ctypes.POINTER(State), c_u64]),
    "scopa_state_playout": (c_int, [ctypes.POINTER(State),
                                    ctypes.POINTER(Rng)]),
    "scopa_state_legal_text": (c_void_p, [ctypes.POINTER(State)]),
    "scopa_state_view_json": (c_void_p, [ctypes.POINTER(State), c_int,
                                         ctypes.POINTER(c_int)]),
    "scopa_state_score_json": (c_void_p, [ctypes.POINTER(State)]),
    "scopa_state_score": (c_int, [ctypes.POINTER(State), c_void_p]),
    "scopa_state_actions": (c_int, [ctypes.POINTER(State),
                                    ctypes.POINTER(c_u64),
                                    ctypes.POINTER(c_u8),
                                    ctypes.POINTER(c_int)]),
    "scopa_tally_init": (None, [ctypes.POINTER(Tally),
                                ctypes.POINTER(Rules), c_int]),
    "scopa_tally_add": (c_int, [ctypes.POINTER(Tally), c_void_p]),
    "scopa_view_of": (None, [ctypes.POINTER(State), c_int,
                             ctypes.POINTER(c_int), c_void_p]),
    "scopa_view_from_json": (c_int, [c_void_p, c_char_p, c_size_t, c_char_p,
                                     c_size_t]),
    "scopa_view_features": (c_int, [c_void_p, ctypes.POINTER(ctypes.c_float),
                                    c_int]),
    "scopa_view_features_compact": (c_int, [c_void_p, c_void_p, c_int]),
    "scopa_features_divisors": (None, [ctypes.POINTER(Rules), c_void_p]),
    "scopa_view_sample": (None, [c_void_p, ctypes.POINTER(Rng),
                                 ctypes.POINTER(State)]),
    "scopa_view_world": (c_int, [c_void_p, ctypes.POINTER(c_u64),
                                 ctypes.POINTER(c_u8), ctypes.POINTER(State)]),
    "scopa_state_deck": (c_int, [ctypes.POINTER(State), ctypes.POINTER(c_u8)]),
    "scopa_state_legal": (c_int, [ctypes.POINTER(State), ctypes.POINTER(c_u64),
                                  c_int]),
    "scopa_state_infostate": (c_int, [ctypes.POINTER(State), c_int,
                                      ctypes.POINTER(c_int), c_void_p]),
    "scopa_state_infostate_text": (c_size_t, [ctypes.POINTER(State), c_int,
                                              ctypes.POINTER(c_int), c_char_p,
                                              c_size_t]),
    "scopa_bot_solve": (c_int, [c_void_p, ctypes.POINTER(State),
                                ctypes.POINTER(BotLimits),
                                ctypes.POINTER(c_u64),
                                ctypes.POINTER(ctypes.c_double), c_int,
                                ctypes.POINTER(c_u64)]),
    "scopa_state_actions_page": (c_int, [ctypes.POINTER(State), c_int,
                                         c_void_p, c_void_p, c_void_p,
                                         c_void_p]),
    "scopa_env_new": (c_int, [ctypes.POINTER(Rules),
                              ctypes.POINTER(EnvConfig),
                              ctypes.POINTER(c_void_p)]),
    "scopa_env_free": (None, [c_void_p]),
    "scopa_env_reset": (None, [c_void_p, c_u64, c_int, c_void_p]),
    "scopa_env_step": (c_int, [c_void_p, c_int, c_void_p]),
    "scopa_env_to_play": (c_int, [c_void_p]),
    "scopa_env_state": (c_void_p, [c_void_p]),
    "scopa_env_scores": (ctypes.POINTER(c_int), [c_void_p]),
    "scopa_env_page": (c_int, [c_void_p]),
    "scopa_env_move": (c_int, [c_void_p, c_int, ctypes.POINTER(c_u64)]),
    "scopa_env_legal_moves": (c_int, [c_void_p, c_void_p, c_void_p, c_int]),
    "scopa_env_observe": (c_int, [c_void_p, c_int, c_void_p, c_void_p]),
    "scopa_env_observe_compact": (c_int, [c_void_p, c_int, c_void_p,
                                          c_void_p]),
    "scopa_env_infostate": (c_int, [c_void_p, c_int, c_void_p]),
    "scopa_env_infostate_text": (c_size_t, [c_void_p, c_int, c_char_p,
                                            c_size_t]),
    "scopa_env_global": (c_int, [c_void_p, c_void_p]),
    "scopa_vecenv_new": (c_int, [ctypes.POINTER(Rules),
                                 ctypes.POINTER(EnvConfig), c_int, c_int,
                                 ctypes.POINTER(c_void_p)]),
    "scopa_vecenv_free": (None, [c_void_p]),
    "scopa_vecenv_env": (c_void_p, [c_void_p, c_int]),
    "scopa_vecenv_reset": (None, [c_void_p, c_u64, c_void_p, c_void_p]),
    "scopa_vecenv_step": (None, [c_void_p, c_void_p, c_void_p, c_void_p,
                                 c_void_p, c_void_p, c_void_p]),
    "scopa_vecenv_reset_compact": (None, [c_void_p, c_u64, c_void_p,
                                          c_void_p]),
    "scopa_vecenv_step_compact": (None, [c_void_p, c_void_p, c_void_p,
                                         c_void_p, c_void_p, c_void_p,
                                         c_void_p]),
    "scopa_vecenv_opponents": (c_int, [c_void_p, c_void_p, c_void_p,
                                       c_void_p, c_void_p]),
    "scopa_vecenv_opponents_compact": (c_int, [c_void_p, c_void_p, c_void_p,
                                               c_void_p, c_void_p]),
    "scopa_vecenv_play": (None, [c_void_p, c_int, c_void_p, c_void_p,
                                 c_void_p, c_void_p]),
    "scopa_vecenv_observe": (None, [c_void_p, c_void_p, c_void_p]),
    "scopa_vecenv_observe_compact": (None, [c_void_p, c_void_p, c_void_p]),
    "scopa_vecenv_scores_json": (c_void_p, [c_void_p, c_void_p]),
    "scopa_vecenv_legal_moves": (c_int, [c_void_p, c_int, c_void_p,
                                         c_void_p]),
    "scopa_vecenv_moves": (None, [c_void_p, c_void_p, c_void_p]),
    "scopa_bot_level": (c_int, [c_char_p, ctypes.POINTER(c_char_p),
                                ctypes.POINTER(c_int)]),
    "scopa_bot_names": (ctypes.POINTER(c_char_p), []),
    "scopa_bot_describe": (c_char_p, [c_char_p]),
    "scopa_bot_new": (c_int, [c_char_p, ctypes.POINTER(c_void_p)]),
    "scopa_bot_free": (None, [c_void_p]),
    "scopa_bot_name": (c_char_p, [c_void_p]),
    "scopa_bot_movetime": (c_int, [c_void_p]),
    "scopa_bot_set_memory": (c_int, [c_void_p, c_size_t]),
    "scopa_bot_memory": (c_size_t, [c_void_p]),
    "scopa_clock_ns": (ctypes.c_int64, []),
    "scopa_bot_choose": (c_int, [c_void_p, c_void_p,
                                 ctypes.POINTER(BotLimits),
                                 ctypes.POINTER(c_u64)]),
    "scopa_bot_evaluate": (c_int, [c_void_p, c_void_p,
                                   ctypes.POINTER(BotLimits),
                                   ctypes.POINTER(c_u64),
                                   ctypes.POINTER(ctypes.c_double), c_int]),
    "scopa_bot_hint": (c_int, [c_void_p, c_void_p, ctypes.POINTER(BotLimits),
                               ctypes.POINTER(Hint), c_int,
                               ctypes.POINTER(HintInfo)]),
    "scopa_hint_mark_text": (c_char_p, [c_int]),
    "scopa_hint_seed": (c_u64, [c_char_p, c_int, c_void_p]),
    "scopa_seed_check": (c_int, [c_char_p, c_char_p, c_size_t]),
    "scopa_seed_deck": (None, [c_char_p, c_int, ctypes.POINTER(Rules),
                               ctypes.POINTER(c_u8)]),
    "scopa_seed_dealer": (c_int, [c_char_p, c_int]),
    "scopa_match_new": (c_int, [ctypes.POINTER(Rules), ctypes.POINTER(Seat),
                                c_char_p, ctypes.POINTER(c_void_p), c_char_p,
                                c_size_t]),
    "scopa_match_free": (None, [c_void_p]),
    "scopa_match_phase": (c_int, [c_void_p]),
    "scopa_match_rules": (ctypes.POINTER(Rules), [c_void_p]),
    "scopa_match_seed": (c_char_p, [c_void_p]),
    "scopa_match_tally": (ctypes.POINTER(Tally), [c_void_p]),
    "scopa_match_rounds": (c_int, [c_void_p]),
    "scopa_match_state": (c_void_p, [c_void_p]),
    "scopa_match_set_first_dealer": (c_int, [c_void_p, c_int]),
    "scopa_match_deal": (c_int, [c_void_p, c_void_p]),
    "scopa_match_deal_deck": (c_int, [c_void_p, ctypes.POINTER(c_u8),
                                      c_void_p, c_char_p, c_size_t]),
    "scopa_match_apply": (c_int, [c_void_p, c_u64, c_void_p, c_char_p,
                                  c_size_t]),
    "scopa_match_view_json": (c_void_p, [c_void_p, c_int]),
    "scopa_match_record_json": (c_void_p, [c_void_p, c_int]),
    "scopa_match_save": (c_int, [c_void_p, c_char_p, c_char_p, c_size_t]),
    "scopa_match_from_record": (c_int, [c_char_p, c_size_t,
                                        ctypes.POINTER(c_void_p),
                                        ctypes.POINTER(Fault)]),
    "scopa_replay_text": (c_int, [c_char_p, c_size_t, c_void_p,
                                  ctypes.POINTER(Fault)]),
    "scopa_replay_free": (None, [c_void_p]),
    "scopa_text_safe": (c_size_t, [c_char_p, c_size_t, c_char_p, c_size_t,
                                   ctypes.c_uint]),
    "scopa_parse_int": (c_int, [c_char_p, c_char_p, ctypes.c_longlong,
                                ctypes.c_longlong,
                                ctypes.POINTER(ctypes.c_longlong), c_char_p,
                                c_size_t]),
    "scopa_record_read_file": (c_int, [c_char_p, ctypes.POINTER(c_void_p),
                                       ctypes.POINTER(c_size_t), c_char_p,
                                       c_size_t]),
    "scopa_file_save": (c_int, [c_char_p, c_char_p, c_size_t, c_char_p,
                                c_size_t]),
    "scopa_engine_new": (c_int, [ctypes.POINTER(c_void_p)]),
    "scopa_engine_free": (None, [c_void_p]),
    "scopa_engine_answer": (c_void_p, [c_void_p, c_char_p, c_size_t,
                                       ctypes.POINTER(c_int)]),
}

for _name, (_res, _args) in _SIGNATURES.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args

SIZES = {name: lib.scopa_sizeof(name.encode()) for name in
         ("rules", "state", "view", "score", "tally", "rng", "replay",
          "fault", "bot_limits", "env_config", "hint", "hint_info",
          "why")}
for _name, _cls in (("rules", Rules), ("state", State), ("tally", Tally),
                    ("bot_limits", BotLimits), ("fault", Fault),
                    ("rng", Rng), ("env_config", EnvConfig), ("hint", Hint),
                    ("hint_info", HintInfo), ("why", Why)):
    if ctypes.sizeof(_cls) != SIZES[_name]:
        raise ImportError("scopa: %s has %d bytes in %s, %d here: the "
                          "bindings do not match the library" %
                          (_name, SIZES[_name], path, ctypes.sizeof(_cls)))

FEATURES = 672
ACTION_SLOTS = 32
ACTIONS = 40 * ACTION_SLOTS
ACTION_WORK = 16384
INFOSTATE_HEADER, INFOSTATE_PLAY = 92, 126
INFOSTATE = INFOSTATE_HEADER + 40 * INFOSTATE_PLAY
GLOBAL = 585
ACTION_MORE = 2 ** 64 - 1  # the table entry of the next-page action
MOVE_NONE = 2 ** 62        # not a move (scopa_vecenv_moves)
ENV_NEXT = 2 ** 64 - 1     # scopa_env_reset: go on with the seed stream
ENV_PLAYED, ENV_ROUND, ENV_PAGE, ENV_OVER, ENV_ILLEGAL = 0, 1, 2, 3, 4


def take_string(ptr):
    """The text of a malloc'd char * from the library, freed."""
    if not ptr:
        raise MemoryError("scopa: out of memory")
    try:
        return ctypes.string_at(ptr).decode("utf-8")
    finally:
        lib.scopa_free(ptr)


def msgbuf():
    return ctypes.create_string_buffer(MSG)


def view_buffer():
    return ctypes.create_string_buffer(SIZES["view"])


# ---- checks at the API edge ------------------------------------------
# Every value a caller passes is checked here before it reaches C, with
# the library's own words: a wrong type is a TypeError, a wrong value a
# ValueError, never a ctypes error or a silently truncated string.

def safe_text(text, ascii=False):
    """text (str or bytes) made safe to print or show: control characters,
    C1 controls, DEL, bidirectional overrides and invalid UTF-8 escaped,
    as the library's scopa_text_safe does (ascii=True: every non-ASCII
    character escaped too)."""
    raw = text.encode("utf-8", "surrogateescape") if isinstance(text, str) \
        else bytes(text)
    n = lib.scopa_text_safe(None, 0, raw, len(raw), 1 if ascii else 0)
    buf = ctypes.create_string_buffer(n + 1)
    lib.scopa_text_safe(buf, n + 1, raw, len(raw), 1 if ascii else 0)
    return buf.value.decode("utf-8")


def int_arg(name, value, lo, hi):
    """value as an int in lo..hi: TypeError for anything but an int (bool
    included), ValueError with the library's message out of range."""
    if type(value) is not int:
        raise TypeError("%s must be a whole number, not %s" %
                        (name, type(value).__name__))
    out, msg = ctypes.c_longlong(), msgbuf()
    if lib.scopa_parse_int(name.encode(), str(value).encode(), lo, hi,
                           ctypes.byref(out), msg, MSG) != 0:
        raise ValueError(msg.value.decode())
    return value


def text_arg(name, value):
    """value as UTF-8 bytes for C: TypeError for a non-string, ValueError
    for a NUL inside (C would cut the text there)."""
    if not isinstance(value, str):
        raise TypeError("%s must be a string, not %s" %
                        (name, type(value).__name__))
    if "\0" in value:
        raise ValueError("%s must not contain a NUL character: %s" %
                         (name, safe_text(value)))
    return value.encode("utf-8", "surrogateescape")


def seed_arg(name, value):
    """A seed: any int (taken modulo 2**64), TypeError otherwise."""
    if type(value) is not int:
        raise TypeError("%s must be a whole number, not %s" %
                        (name, type(value).__name__))
    return value & (2 ** 64 - 1)
