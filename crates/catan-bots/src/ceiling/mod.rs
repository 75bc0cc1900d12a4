//! The most points a player could still reach (R43-R44), from the full game:
//! an upper bound the arena uses to tell a game nobody can win any more (so
//! that playing on is pointless) from bots that merely fail to finish.
//!
//! Counted generously, so that "below the target" is a proof, but no more
//! than the rules allow:
//! - new settlements go on free corners the player's roads could still
//!   reach with the roads left; of those, only as many as can be built at
//!   once under the distance rule (R22: the largest set of them no two of
//!   which are neighbours), and no more that need a new road than there are
//!   roads left (each needs its own last road);
//! - Longest Road counts unless no trail the player could ever have beats
//!   the trails nobody can cut any more: its trails run over its roads and
//!   the free edges its roads could still reach, with no more new edges
//!   than it has roads left, and another's trail can be cut only at a free
//!   corner on it that some other player's roads can still reach (R39);
//! - Largest Army counts unless all the knights it could ever play cannot
//!   beat those already played by another;
//! - every Victory Point card not yet in another player's hand counts as
//!   the player's.

use crate::trail_search::TrailSearch;
use catan_core::geometry::{NONE, bits64, geo};
use catan_core::state::{CITIES, SETTLEMENTS};
use catan_core::{DevCard, Game, Phase, Seat};

/// An upper bound on the points `seat` can ever reach in `game`.
pub fn point_ceiling(game: &Game, seat: Seat) -> u32 {
    let p = game.player(seat);
    let dist = road_dist(game, seat);
    let free = game.distance_ok_mask();
    let cap = (SETTLEMENTS + CITIES) as u32;
    let reachable = if opening(game, seat) {
        // Any free corner will do.
        max_independent(free, cap)
    } else {
        let near = bits64(free)
            .filter(|&v| dist[v as usize] == 0)
            .fold(0u64, |m, v| m | 1 << v);
        let all = bits64(free)
            .filter(|&v| dist[v as usize] != u8::MAX)
            .fold(0u64, |m, v| m | 1 << v);
        max_independent(all, cap).min(max_independent(near, cap) + p.roads_left as u32)
    };
    let built = p.buildings().count_ones();
    let spots = (built + reachable).min(cap);
    let cities = spots.min(CITIES as u32);
    let buildings = spots + cities;
    buildings + awards(game, seat, &dist) + vp_cards_open_to(game, seat)
}

/// The Victory Point cards `seat` could still come to hold: every one not
/// in another player's hand (cards never change hands).
fn vp_cards_open_to(game: &Game, seat: Seat) -> u32 {
    let held_elsewhere: u32 = game
        .players()
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != seat.index())
        .map(|(_, q)| q.dev.get(DevCard::VictoryPoint) as u32)
        .sum();
    DevCard::DECK_COUNTS[DevCard::VictoryPoint.index()] as u32 - held_elsewhere
}

/// Whether the Victory Point cards alone put the target out of everyone's
/// reach: even with every building a player can own (5 settlements and 4
/// cities, 13 points) and both awards (4), no player can come to hold
/// enough of them. Whatever the board, such a game cannot be won (at 20
/// points: once no hand can get to 3 of the 5 cards).
pub fn cards_rule_out(game: &Game) -> bool {
    let most_without_cards = (SETTLEMENTS + 2 * CITIES) as u32 + 2 * AWARD_POINTS;
    game.winner().is_none()
        && (0..game.n_players()).all(|s| {
            most_without_cards + vp_cards_open_to(game, Seat(s as u8))
                < game.options().vp_target as u32
        })
}

/// Whether `seat` may still place a settlement without a road to it: in
/// the opening (R11-R13), or with nothing on the board yet.
fn opening(game: &Game, seat: Seat) -> bool {
    matches!(game.phase(), Phase::Opening { .. }) || game.player(seat).buildings() == 0
}

/// Buildings of every player but `seat`.
fn others_buildings(game: &Game, seat: Seat) -> u64 {
    game.players()
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != seat.index())
        .fold(0, |m, (_, q)| m | q.buildings())
}

/// New roads `seat` needs to touch each corner (its own roads cost
/// nothing, other players' roads and buildings cannot be passed, R23),
/// `u8::MAX` beyond its roads left.
fn road_dist(game: &Game, seat: Seat) -> [u8; 54] {
    let g = geo();
    let p = game.player(seat);
    let others = others_buildings(game, seat);
    let mut dist = [u8::MAX; 54];
    let mut queue: Vec<u8> = Vec::with_capacity(54);
    for v in bits64(p.buildings() | (p.road_vertices & !others)) {
        dist[v as usize] = 0;
        queue.push(v);
    }
    let mut head = 0;
    while head < queue.len() {
        let v = queue[head];
        head += 1;
        let d = dist[v as usize];
        if d >= p.roads_left || (others & (1 << v)) != 0 {
            continue;
        }
        for &e in g.vertex_edges[v as usize].iter().filter(|&&e| e != NONE) {
            let bit = 1u128 << e;
            if game.occupied_edges() & bit != 0 && p.roads & bit == 0 {
                continue;
            }
            let step = if p.roads & bit != 0 { 0 } else { 1 };
            let [a, b] = g.edge_vertices[e as usize];
            let w = if a == v { b } else { a };
            if dist[w as usize] == u8::MAX {
                dist[w as usize] = d + step;
                queue.push(w);
            }
        }
    }
    dist
}

/// Free corners `seat` could still build a settlement on.
fn settleable(game: &Game, seat: Seat) -> u64 {
    let p = game.player(seat);
    let free = game.distance_ok_mask();
    if p.settlements_left == 0 && p.cities_left == 0 {
        // Every piece is on the board: a settlement can never be freed.
        return 0;
    }
    if opening(game, seat) {
        return free;
    }
    let dist = road_dist(game, seat);
    bits64(free)
        .filter(|&v| dist[v as usize] != u8::MAX)
        .fold(0, |m, v| m | 1 << v)
}

/// The size of the largest set of corners in `mask` no two of which are
/// neighbours (the distance rule, R22), or `cap` if that is smaller.
fn max_independent(mask: u64, cap: u32) -> u32 {
    let mut best = 0;
    independent(mask, 0, cap, &mut best);
    best.min(cap)
}

/// Branch and bound for [`max_independent`]: a corner with at most one
/// neighbour left is always worth taking; otherwise the corner with the
/// fewest neighbours is taken or left out.
fn independent(mask: u64, taken: u32, cap: u32, best: &mut u32) {
    *best = (*best).max(taken);
    if *best >= cap || taken + mask.count_ones() <= *best {
        return;
    }
    let g = geo();
    let Some(v) =
        bits64(mask).min_by_key(|&v| (g.vertex_neighbour_mask[v as usize] & mask).count_ones())
    else {
        return;
    };
    let bit = 1u64 << v;
    let around = g.vertex_neighbour_mask[v as usize] & mask;
    independent(mask & !bit & !around, taken + 1, cap, best);
    if around.count_ones() > 1 {
        independent(mask & !bit, taken, cap, best);
    }
}

/// Most edges [`trail_reaches`] searches trails over; past it (early in a
/// game, where the bound decides nothing) every road left is counted.
const TRAIL_SEARCH_EDGES: u32 = 36;

/// Points of each award (Longest Road, Largest Army).
const AWARD_POINTS: u32 = 2;

/// Whether `seat` could ever have a trail of `goal` roads: a trail over its
/// roads and the free edges it could still build (one end within the roads
/// left of its network and not another's building) that uses no more new
/// edges than it has roads left. Buildings only ever cut trails, so today's
/// cuts are a lower bound on the future ones.
fn trail_reaches(game: &Game, seat: Seat, others: u64, dist: &[u8; 54], goal: u8) -> bool {
    let p = game.player(seat);
    if p.trail >= goal {
        return true;
    }
    if p.trail.saturating_add(p.roads_left) < goal {
        return false;
    }
    if opening(game, seat) {
        return true;
    }
    let g = geo();
    let mut edges = p.roads;
    for e in 0..72u8 {
        let bit = 1u128 << e;
        if game.occupied_edges() & bit != 0 {
            continue;
        }
        let buildable = g.edge_vertices[e as usize]
            .iter()
            .any(|&v| dist[v as usize] < p.roads_left && others & (1 << v) == 0);
        if buildable {
            edges |= bit;
        }
    }
    if edges.count_ones() > TRAIL_SEARCH_EDGES {
        return true;
    }
    TrailSearch {
        edges,
        own: p.roads,
        blocked: others,
        budget: p.roads_left,
        goal,
    }
    .find()
    .is_some()
}

/// Award points `seat` could still hold: Longest Road if its trail can grow
/// ([`trail_reaches`]) past every trail that can no longer be cut (a
/// trail is cut only by another player's settlement on a free corner it
/// passes, so only where that player's roads can still reach), Largest
/// Army if all the knights it could ever play beat the most anyone else has
/// played (played knights never go away).
fn awards(game: &Game, seat: Seat, dist: &[u8; 54]) -> u32 {
    let p = game.player(seat);
    let others = game
        .players()
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != seat.index());
    let corners: Vec<u64> = (0..game.n_players())
        .map(|i| settleable(game, Seat(i as u8)))
        .collect();
    let uncuttable = others
        .clone()
        .filter(|(i, q)| {
            let cutters = corners
                .iter()
                .enumerate()
                .filter(|(j, _)| j != i)
                .fold(0, |m, (_, c)| m | c);
            q.road_vertices & cutters == 0
        })
        .map(|(_, q)| q.trail)
        .max()
        .unwrap_or(0);
    let blocked = game.occupied_vertices() & !p.buildings();
    let road = (game.longest_road() == Some(seat) && p.trail >= uncuttable)
        || trail_reaches(game, seat, blocked, dist, 5.max(uncuttable + 1));
    // Every knight not held or played by another could be the player's:
    // the ones it holds or played and those in the deck (whose cards are
    // secret, but a game dealt from the standard deck has all 14 somewhere).
    let elsewhere: u32 = others
        .clone()
        .map(|(_, q)| q.knights() as u32 + q.dev.get(DevCard::Knight) as u32)
        .sum();
    let my_knights =
        (DevCard::DECK_COUNTS[DevCard::Knight.index()] as u32).saturating_sub(elsewhere);
    let most_other = others.map(|(_, q)| q.knights() as u32).max().unwrap_or(0);
    let army = my_knights >= 3 && (my_knights > most_other || game.largest_army() == Some(seat));
    AWARD_POINTS * (road as u32 + army as u32)
}

/// Whether no player can reach the target any more.
pub fn unwinnable(game: &Game) -> bool {
    game.winner().is_none()
        && (0..game.n_players())
            .all(|s| point_ceiling(game, Seat(s as u8)) < game.options().vp_target as u32)
}

#[cfg(test)]
mod tests;
