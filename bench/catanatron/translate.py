"""Catanatron 3.2.1 positions and moves in our engine's ids.

Our board (crates/catan-core/src/geometry.rs, SCENARIO.md) numbers hexes row
by row, vertices by (y, x) and edges by their midpoints, on a grid where one
x unit is half a hex's width and one y unit half its side. Catanatron keys
its tiles by cube coordinates (x, y, z) with pointy-top hexes, so a tile's
centre on our grid is (4 + 2x + z, 6 + 3z) and its corners NORTH ... NORTHWEST
are ours clockwise from the top. Everything here is computed from that
correspondence, so a mismatch shows up as a KeyError, not as a wrong move.
"""

from catanatron.models.enums import (
    RESOURCES,
    SETTLEMENT,
    CITY,
    ROAD,
    DEVELOPMENT_CARDS,
    ActionPrompt,
    ActionType,
)
from catanatron.models.map import LandTile, Port, NodeRef, PORT_DIRECTION_TO_NODEREFS

ROW_OFFSET = [2, 1, 0, 1, 2]
ROW_LEN = [3, 4, 5, 4, 3]
# Clockwise from the top, as NodeRef lists them.
CORNERS = [(0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1)]
NODE_REFS = [
    NodeRef.NORTH,
    NodeRef.NORTHEAST,
    NodeRef.SOUTHEAST,
    NodeRef.SOUTH,
    NodeRef.SOUTHWEST,
    NodeRef.NORTHWEST,
]

HEX_CENTRES = [
    (2 * c + ROW_OFFSET[r], 3 * r) for r in range(5) for c in range(ROW_LEN[r])
]
_corners = sorted(
    {(cx + dx, cy + dy) for (cx, cy) in HEX_CENTRES for (dx, dy) in CORNERS},
    key=lambda p: (p[1], p[0]),
)
VERTEX_AT = {p: i for i, p in enumerate(_corners)}
_edges = set()
for cx, cy in HEX_CENTRES:
    ids = [VERTEX_AT[(cx + dx, cy + dy)] for dx, dy in CORNERS]
    for i in range(6):
        a, b = ids[i], ids[(i + 1) % 6]
        _edges.add((min(a, b), max(a, b)))
_edges = sorted(
    _edges,
    key=lambda e: (
        _corners[e[0]][1] + _corners[e[1]][1],
        _corners[e[0]][0] + _corners[e[1]][0],
    ),
)
EDGE_OF = {e: i for i, e in enumerate(_edges)}
assert len(VERTEX_AT) == 54 and len(EDGE_OF) == 72

RESOURCE_NAME = {
    "WOOD": "wood",
    "BRICK": "brick",
    "SHEEP": "wool",
    "WHEAT": "wheat",
    "ORE": "ore",
}
RESOURCE_OF_NAME = {v: k for k, v in RESOURCE_NAME.items()}
TERRAIN = {
    "WOOD": "forest",
    "BRICK": "hills",
    "SHEEP": "pasture",
    "WHEAT": "fields",
    "ORE": "mountains",
    None: "desert",
}
DEV_NAME = {
    "KNIGHT": "knight",
    "YEAR_OF_PLENTY": "invention",
    "MONOPOLY": "monopoly",
    "ROAD_BUILDING": "road_building",
    "VICTORY_POINT": "victory_point",
}


def centre(coord):
    x, _, z = coord
    return (4 + 2 * x + z, 6 + 3 * z)


class BoardMap:
    """The id correspondence for one Catanatron map."""

    def __init__(self, catan_map):
        self.node = {}  # catanatron node id -> our vertex id
        self.hex_of_coord = {}
        self.coord_of_hex = {}
        for coord, tile in catan_map.land_tiles.items():
            cx, cy = centre(coord)
            for ref, (dx, dy) in zip(NODE_REFS, CORNERS):
                p = (cx + dx, cy + dy)
                if p in VERTEX_AT and ref in tile.nodes:
                    self.node[tile.nodes[ref]] = VERTEX_AT[p]
        for coord, tile in catan_map.land_tiles.items():
            h = HEX_CENTRES.index(centre(coord))
            self.hex_of_coord[coord] = h
            self.coord_of_hex[h] = coord
        assert len(self.hex_of_coord) == 19
        self.hexes = [None] * 19
        for coord, tile in catan_map.land_tiles.items():
            t = {"terrain": TERRAIN[tile.resource]}
            if tile.number is not None:
                t["number"] = tile.number
            self.hexes[self.hex_of_coord[coord]] = t
        self.harbours = []
        for tile in catan_map.tiles.values():
            if isinstance(tile, Port):
                a, b = PORT_DIRECTION_TO_NODEREFS[tile.direction]
                kind = "3:1" if tile.resource is None else RESOURCE_NAME[tile.resource]
                self.harbours.append(
                    {"edge": self.edge((tile.nodes[a], tile.nodes[b])), "kind": kind}
                )

    def edge(self, cat_edge):
        a, b = self.node[cat_edge[0]], self.node[cat_edge[1]]
        return EDGE_OF[(min(a, b), max(a, b))]


def action_key(bm, state, action):
    """The short form of a Catanatron move (see `key` in bridge.rs)."""
    t, v = action.action_type, action.value
    if t == ActionType.ROLL:
        return "roll"
    if t == ActionType.END_TURN:
        return "end_turn"
    if t == ActionType.BUY_DEVELOPMENT_CARD:
        return "buy_dev"
    if t == ActionType.PLAY_KNIGHT_CARD:
        return "knight"
    if t == ActionType.PLAY_ROAD_BUILDING:
        return "road_building"
    if t == ActionType.BUILD_SETTLEMENT:
        return f"settlement:{bm.node[v]}"
    if t == ActionType.BUILD_CITY:
        return f"city:{bm.node[v]}"
    if t == ActionType.BUILD_ROAD:
        return f"road:{bm.edge(v)}"
    if t == ActionType.MOVE_ROBBER:
        coord, victim = v[0], v[1]
        s = "-" if victim is None else str(state.color_to_index[victim])
        return f"robber:{bm.hex_of_coord[coord]}:{s}"
    if t == ActionType.PLAY_YEAR_OF_PLENTY:
        return "invention:" + ",".join(sorted(RESOURCE_NAME[r] for r in v))
    if t == ActionType.PLAY_MONOPOLY:
        return f"monopoly:{RESOURCE_NAME[v]}"
    if t == ActionType.MARITIME_TRADE:
        return f"bank:{RESOURCE_NAME[v[0]]}:{RESOURCE_NAME[v[4]]}"
    return "other"


def our_key(a):
    """The short form of one of our actions (JSON as bridge.rs prints it)."""
    t = a["type"]
    if t == "roll_dice":
        return "roll"
    if t == "end_turn":
        return "end_turn"
    if t == "buy_development_card":
        return "buy_dev"
    if t == "play_knight":
        return "knight"
    if t == "play_road_building":
        return "road_building"
    if t == "build_settlement":
        return f"settlement:{a['vertex']}"
    if t == "build_city":
        return f"city:{a['vertex']}"
    if t == "build_road":
        return f"road:{a['edge']}"
    if t == "move_robber":
        v = a.get("victim")
        return f"robber:{a['hex']}:{'-' if v is None else v}"
    if t == "play_invention":
        return "invention:" + ",".join(sorted(a["resources"]))
    if t == "play_monopoly":
        return f"monopoly:{a['resource']}"
    if t == "trade_bank":
        return f"bank:{a['give']}:{a['get']}"
    return "other"


def position(bm, game, me_color, keys):
    """What our seat sees, in our ids, as bridge.rs reads it."""
    state = game.state
    me = state.color_to_index[me_color]
    seats = []
    for i, color in enumerate(state.colors):
        b = state.buildings_by_color[color]
        roads = sorted({bm.edge(e) for e in b[ROAD]})
        ps = state.player_state
        hand = {RESOURCE_NAME[r]: ps[f"P{i}_{r}_IN_HAND"] for r in RESOURCES}
        devs = []
        for d in DEVELOPMENT_CARDS:
            devs += [DEV_NAME[d]] * ps[f"P{i}_{d}_IN_HAND"]
        played = []
        for d in DEVELOPMENT_CARDS:
            played += [DEV_NAME[d]] * ps[f"P{i}_PLAYED_{d}"]
        seat = {
            "settlements": sorted(bm.node[n] for n in b[SETTLEMENT]),
            "cities": sorted(bm.node[n] for n in b[CITY]),
            "roads": roads,
            "cards": sum(hand.values()),
            "dev_count": len(devs),
            "played": played,
        }
        if i == me:
            # Only our own seat's cards cross over.
            seat["resources"] = hand
            seat["dev_cards"] = devs
        seats.append(seat)
    holder = lambda k: next(
        (i for i in range(len(state.colors)) if state.player_state[f"P{i}_{k}"]), None
    )
    p = {
        "type": "decide",
        "game": game.id,
        "me": me,
        "vp_target": game.vps_to_win,
        "hexes": bm.hexes,
        "harbours": bm.harbours,
        "robber": bm.hex_of_coord[state.board.robber_coordinate],
        "seats": seats,
        "longest_road": holder("HAS_ROAD"),
        "largest_army": holder("HAS_ARMY"),
        "turn": max(1, state.num_turns),
        "dev_played": bool(
            state.player_state[f"P{me}_HAS_PLAYED_DEVELOPMENT_CARD_IN_TURN"]
        ),
        "deck_size": len(state.development_listdeck),
        "bank": {
            RESOURCE_NAME[r]: state.resource_freqdeck[j] for j, r in enumerate(RESOURCES)
        },
        "keys": keys,
    }
    if state.is_initial_build_phase:
        p["phase"] = "opening"
        p["step"] = sum(len(state.buildings_by_color[c][ROAD]) for c in state.colors)
        if state.current_prompt == ActionPrompt.BUILD_INITIAL_ROAD:
            p["settlement"] = bm.node[state.buildings_by_color[me_color][SETTLEMENT][-1]]
    elif state.current_prompt == ActionPrompt.MOVE_ROBBER:
        p["phase"] = "move_robber"
    elif not state.player_state[f"P{me}_HAS_ROLLED"]:
        p["phase"] = "pre_roll"
    else:
        p["phase"] = "action"
    return p
