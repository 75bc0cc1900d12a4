"""ValueFunctionPlayer and AlphaBetaPlayer, written by us for this benchmark.

Catanatron's own players of these names were never published on PyPI: the
`catanatron` 3.2.1 wheel ships only RandomPlayer, WeightedRandomPlayer and
VictoryPointPlayer (checked with `pip download catanatron==3.2.1`); the two
strong players lived in the unpublished `catanatron_experimental` package.
This file is OUR implementation of the algorithm Catanatron's documentation
and leaderboard describe for them, not Catanatron's code:

- ValueFunctionPlayer: one ply. Try every legal move on a copy of the game
  and keep the one whose position scores best under a hand-tuned value
  function of the mover's seat (below).
- AlphaBetaPlayer(depth=2): alpha-beta (expecti-minimax) search over
  Catanatron's engine, `depth` plies (decisions, not turns) deep. Chance
  moves (the roll, the development card drawn, the card stolen) are
  expanded into their outcomes with their probabilities; the seat to move
  maximises if it is the searcher, minimises otherwise; leaves are scored by
  the same value function. No move is pruned (the published default).

The value function follows the published weights of Catanatron's "base"
value function (public VP 3e14, own production 1e8, opponents' production
-1e8, production reachable with one more road 1e4, buildable spots 1e3,
hand synergy 1e2, longest road 10 (0.1 while spots are left), development
cards 10, knights played 10.1, tiles touched 1, cards in hand 1, -5 above
seven cards; a resource type produced at all is worth 4 x 2.778% of
production). As published, the opponents' production is that of the next
seat only. Where the description leaves a detail open we chose: "reachable
with one road" counts the free spots on the seat's network and one road
beyond it. Like the
original, these players read Catanatron's full state (other hands, the
deck) when they expand chance moves; our bot sees only its seat's view.
"""

import math
import time

from catanatron.models.player import Player
from catanatron.models.enums import (
    RESOURCES,
    SETTLEMENT,
    CITY,
    Action,
    ActionType,
)
from catanatron.models.map import number_probability
from catanatron.state_functions import (
    get_longest_road_length,
    get_played_dev_cards,
    player_key,
    player_num_dev_cards,
    player_num_resource_cards,
)

WEIGHTS = {
    "public_vps": 3e14,
    "production": 1e8,
    "enemy_production": -1e8,
    "num_tiles": 1,
    "reachable_production_1": 1e4,
    "buildable_nodes": 1e3,
    "longest_road": 10,
    "hand_synergy": 1e2,
    "hand_resources": 1,
    "discard_penalty": -5,
    "hand_devs": 10,
    "army_size": 10.1,
}
PROBA_POINT = 2.778 / 100
VARIETY = 4  # a resource type produced at all is worth 4 "points" of 2.778%


def production(state, color, variety=True):
    """Expected cards a roll, robbed tile excluded, plus a variety bonus."""
    board = state.board
    by_res = {r: 0.0 for r in RESOURCES}
    b = state.buildings_by_color[color]
    for mult, nodes in ((1, b[SETTLEMENT]), (2, b[CITY])):
        for n in nodes:
            for tile in board.map.adjacent_tiles[n]:
                if tile.resource is None:
                    continue
                if board.map.land_tiles.get(board.robber_coordinate) is tile:
                    continue
                by_res[tile.resource] += mult * number_probability(tile.number)
    total = sum(by_res.values())
    if variety:
        total += sum(1 for v in by_res.values() if v > 0) * VARIETY * PROBA_POINT
    return total


def node_production(board, n):
    return sum(
        number_probability(t.number)
        for t in board.map.adjacent_tiles[n]
        if t.resource is not None
    )


def reachable_one_road(state, color):
    """Production of the free spots on the seat's network or one road beyond."""
    board = state.board
    near = set().union(*board.find_connected_components(color))
    for a, b in board.buildable_edges(color):
        near.update((a, b))
    return sum(node_production(board, n) for n in near if n in board.board_buildable_ids)


def value(game, color, w=WEIGHTS):
    """The hand-tuned value of `game` for `color` (see the module docs)."""
    state = game.state
    key = player_key(state, color)
    ps = state.player_state
    own = production(state, color)
    nxt = state.colors[(state.color_to_index[color] + 1) % len(state.colors)]
    enemy = production(state, nxt, False)
    wheat, ore = ps[f"{key}_WHEAT_IN_HAND"], ps[f"{key}_ORE_IN_HAND"]
    sheep, brick, wood = (
        ps[f"{key}_SHEEP_IN_HAND"],
        ps[f"{key}_BRICK_IN_HAND"],
        ps[f"{key}_WOOD_IN_HAND"],
    )
    to_city = (max(2 - wheat, 0) + max(3 - ore, 0)) / 5.0
    to_settlement = (
        max(1 - wheat, 0) + max(1 - sheep, 0) + max(1 - brick, 0) + max(1 - wood, 0)
    ) / 4.0
    synergy = (2 - to_city - to_settlement) / 2
    cards = player_num_resource_cards(state, color)
    b = state.buildings_by_color[color]
    tiles = set()
    for n in b[SETTLEMENT] + b[CITY]:
        tiles.update(id(t) for t in state.board.map.adjacent_tiles[n])
    buildable = len(state.board.buildable_node_ids(color))
    road_factor = w["longest_road"] if buildable == 0 else 0.1
    return float(
        ps[f"{key}_VICTORY_POINTS"] * w["public_vps"]
        + own * w["production"]
        + enemy * w["enemy_production"]
        + reachable_one_road(state, color) * w["reachable_production_1"]
        + synergy * w["hand_synergy"]
        + buildable * w["buildable_nodes"]
        + len(tiles) * w["num_tiles"]
        + cards * w["hand_resources"]
        + (w["discard_penalty"] if cards > 7 else 0)
        + get_longest_road_length(state, color) * road_factor
        + player_num_dev_cards(state, color) * w["hand_devs"]
        + get_played_dev_cards(state, color, "KNIGHT") * w["army_size"]
    )


DICE = {s: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == s) / 36 for s in range(2, 13)}
PAIR = {s: next((a, s - a) for a in range(1, 7) if 1 <= s - a <= 6) for s in range(2, 13)}


def outcomes(game, action):
    """The games `action` may lead to, with their probabilities."""
    t = action.action_type
    out = []
    if t == ActionType.ROLL:
        for s, p in DICE.items():
            g = game.copy()
            g.execute(Action(action.color, t, PAIR[s]), validate_action=False)
            out.append((g, p))
    elif t == ActionType.BUY_DEVELOPMENT_CARD:
        deck = game.state.development_listdeck
        for card in set(deck):
            g = game.copy()
            g.execute(Action(action.color, t, card), validate_action=False)
            out.append((g, deck.count(card) / len(deck)))
    elif t == ActionType.MOVE_ROBBER and action.value[1] is not None:
        coord, victim = action.value[0], action.value[1]
        vkey = player_key(game.state, victim)
        hand = {r: game.state.player_state[f"{vkey}_{r}_IN_HAND"] for r in RESOURCES}
        total = sum(hand.values())
        for r, k in hand.items():
            if k:
                g = game.copy()
                g.execute(Action(action.color, t, (coord, victim, r)), validate_action=False)
                out.append((g, k / total))
    if not out:
        g = game.copy()
        g.execute(action, validate_action=False)
        out.append((g, 1.0))
    return out


class ValueFunctionPlayer(Player):
    """One-ply greedy on the value function (ours; see the module docs)."""

    def decide(self, game, playable_actions):
        if len(playable_actions) == 1:
            return playable_actions[0]
        best, best_value = playable_actions[0], -math.inf
        for a in playable_actions:
            g = game.copy()
            g.execute(a)
            v = value(g, self.color)
            if v > best_value:
                best, best_value = a, v
        return best


class AlphaBetaPlayer(Player):
    """Expecti-minimax with alpha-beta cuts (ours; see the module docs)."""

    def __init__(self, color, depth=2, max_seconds=20.0):
        super().__init__(color)
        self.depth = depth
        self.max_seconds = max_seconds

    def decide(self, game, playable_actions):
        if len(playable_actions) == 1:
            return playable_actions[0]
        deadline = time.time() + self.max_seconds
        action, _ = self.search(game, self.depth, -math.inf, math.inf, deadline)
        return action if action in playable_actions else playable_actions[0]

    def search(self, game, depth, alpha, beta, deadline):
        if depth == 0 or game.winning_color() is not None or time.time() >= deadline:
            return None, value(game, self.color)
        maximizing = game.state.current_color() == self.color
        best_action = None
        best = -math.inf if maximizing else math.inf
        for a in game.state.playable_actions:
            expected = 0.0
            for g, p in outcomes(game, a):
                _, v = self.search(g, depth - 1, alpha, beta, deadline)
                expected += p * v
            if maximizing and expected > best:
                best_action, best = a, expected
                alpha = max(alpha, best)
            elif not maximizing and expected < best:
                best_action, best = a, expected
                beta = min(beta, best)
            if alpha >= beta:
                break
        return best_action, best
