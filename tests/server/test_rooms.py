"""The server's rooms (HACKING.md "The server's rooms"): each file of
src/server includes only the headers of rooms below it, so the include
graph between rooms has no circle.  A room is a file's stem: X.c with
its header X.h (and X_impl.h, the private header of a room of several
files: store.c's backends).  Fails naming every circle found."""
import pathlib
import re

SERVER = pathlib.Path(__file__).resolve().parents[2] / "src" / "server"
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)\.h"', re.M)


def rooms():
    """room -> the rooms its .c and .h include (itself left out)."""
    graph = {}
    for path in sorted(SERVER.glob("*.[ch]")):
        room = path.stem.removesuffix("_impl")
        uses = graph.setdefault(room, set())
        for name in INCLUDE.findall(path.read_text()):
            name = name.removesuffix("_impl")
            if name != room:
                uses.add(name)
                graph.setdefault(name, set())
    return graph


def circles(graph):
    """Tarjan's strongly connected components with more than one room."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_rooms_have_no_include_circle():
    graph = rooms()
    assert len(graph) > 20, "src/server's files were not found"
    found = circles(graph)
    detail = "; ".join(
        " ".join(f"{a}->{sorted(graph[a] & set(c))}" for a in c) for c in found)
    assert not found, f"include circles between rooms: {detail}"


def test_the_check_finds_a_circle():
    # The checker itself can fail: a made-up circle is found.
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [
        ["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_transport_knows_no_table():
    # conn.c and conn.h, the transport, include nothing of the tables
    # (issue 33, part 5): what a connection's events do is its hooks.
    graph = rooms()
    tables = {"table", "lobby", "moves", "views", "rematch", "react",
              "dispatch", "relay", "offer", "rating"}
    assert not graph["conn"] & tables, sorted(graph["conn"] & tables)


def test_the_wire_protocol_is_below_both_tables():
    # src/proto (issue 33, part 2): the server and the browser's local
    # table (src/wasm) both read and write messages through it, so it
    # includes nothing of either: only its own header, the library's
    # and the system's.
    quoted = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
    proto = SERVER.parent / "proto"
    names = [n for path in sorted(proto.glob("*.[ch]"))
             for n in quoted.findall(path.read_text())]
    assert names and set(names) == {"proto.h"}, names
