//! The most points a player could still reach (R43-R44), from the full game:
//! an upper bound the arena uses to tell a game nobody can win any more (so
//! that playing on is pointless) from bots that merely fail to finish.
//!
//! Counted generously, so that "below the target" is a proof: every free
//! corner the player's roads could still reach with the pieces left counts
//! as a settlement spot (ignoring that two such spots may exclude each
//! other), an award counts unless it is out of reach for good, and every
//! Victory Point card not yet in another player's hand counts as the
//! player's.

use catan_core::geometry::{NONE, bits64, geo};
use catan_core::state::{CITIES, SETTLEMENTS};
use catan_core::{DevCard, Game, Seat};

/// An upper bound on the points `seat` can ever reach in `game`.
pub fn point_ceiling(game: &Game, seat: Seat) -> u32 {
    let g = geo();
    let p = &game.players[seat.index()];
    let others: u64 = game
        .players
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != seat.index())
        .fold(0, |m, (_, q)| m | q.buildings());
    let own_roads = p.roads;
    // Breadth-first over free edges from the network, up to the roads left.
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
            if game.occupied_edges & bit != 0 && own_roads & bit == 0 {
                continue;
            }
            let step = if own_roads & bit != 0 { 0 } else { 1 };
            let [a, b] = g.edge_vertices[e as usize];
            let w = if a == v { b } else { a };
            if dist[w as usize] == u8::MAX {
                dist[w as usize] = d + step;
                queue.push(w);
            }
        }
    }
    let free = game.distance_ok_mask();
    let reachable = if p.buildings() == 0 {
        // The opening: any free corner will do.
        free.count_ones()
    } else {
        bits64(free)
            .filter(|&v| dist[v as usize] != u8::MAX)
            .count() as u32
    };
    let built = p.buildings().count_ones();
    let spots = (built + reachable).min((SETTLEMENTS + CITIES) as u32);
    let cities = spots.min(CITIES as u32);
    let buildings = spots + cities;
    let held_elsewhere: u32 = game
        .players
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != seat.index())
        .map(|(_, q)| q.dev.get(DevCard::VictoryPoint) as u32)
        .sum();
    let vp_cards = DevCard::DECK_COUNTS[DevCard::VictoryPoint.index()] as u32 - held_elsewhere;
    buildings + awards(game, seat, free) + vp_cards
}

/// Award points `seat` could still hold: Longest Road if its trail can grow
/// past every trail that can no longer be cut (a trail is cut only by a
/// building on a free corner it passes), Largest Army if all the knights it
/// could ever play beat the most anyone else has played (played knights
/// never go away).
fn awards(game: &Game, seat: Seat, free: u64) -> u32 {
    let p = &game.players[seat.index()];
    let others = game
        .players
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != seat.index());
    let uncuttable = others
        .clone()
        .filter(|(_, q)| q.road_vertices & free == 0)
        .map(|(_, q)| q.trail)
        .max()
        .unwrap_or(0);
    let road = p.trail + p.roads_left >= 5.max(uncuttable + 1)
        || (game.longest_road == Some(seat) && p.trail >= uncuttable);
    let deck_knights = game.deck.iter().filter(|&&c| c == DevCard::Knight).count() as u32;
    let my_knights = p.knights() as u32 + p.dev.get(DevCard::Knight) as u32 + deck_knights;
    let most_other = others.map(|(_, q)| q.knights() as u32).max().unwrap_or(0);
    let army = my_knights >= 3 && (my_knights > most_other || game.largest_army == Some(seat));
    2 * road as u32 + 2 * army as u32
}

/// Whether no player can reach the target any more.
pub fn unwinnable(game: &Game) -> bool {
    game.winner.is_none()
        && (0..game.n_players())
            .all(|s| point_ceiling(game, Seat(s as u8)) < game.options.vp_target as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use catan_core::GameOptions;

    #[test]
    fn r43_a_fresh_game_can_reach_the_highest_target() {
        let (g, _) = Game::new(GameOptions::default(), 1).unwrap();
        // 5 settlements + 4 cities, both awards, all 5 Victory Point cards.
        assert_eq!(point_ceiling(&g, Seat(0)), 5 + 8 + 4 + 5);
        assert!(!unwinnable(&g));
    }

    #[test]
    fn r43_victory_point_cards_held_elsewhere_lower_the_ceiling() {
        let (mut g, _) = Game::new(
            GameOptions {
                vp_target: 20,
                ..GameOptions::default()
            },
            1,
        )
        .unwrap();
        for s in 1..4 {
            g.players[s].dev.0[DevCard::VictoryPoint.index()] = if s == 1 { 2 } else { 1 };
        }
        g.players[0].dev.0[DevCard::VictoryPoint.index()] = 1;
        // Nobody holds more than 2 of the 5 cards: at most 13 + 4 + 2 = 19.
        assert!(unwinnable(&g));
    }
}
