//! One decision's context: the bot's seat, hand and the board's occupancy,
//! derived once from the [`View`] so every helper reads the same masks.

use crate::board_eval::{BoardEval, Production};
use crate::network::reach;
use crate::plan::{self, Plan};
use catan_core::geometry::{bits64, geo};
use catan_core::{PhaseName, PlayerView, ResourceSet, Seat, View, Viewer};
use std::cell::OnceCell;
use std::sync::Arc;

/// What one decision knows, all from the seat's own view.
pub struct Ctx<'a> {
    /// The view the decision is made from.
    pub view: &'a View,
    /// The bot's seat.
    pub me: Seat,
    /// Board production and harbours (shared: a bot's memo keeps it
    /// between decisions).
    pub eval: Arc<BoardEval>,
    /// The bot's resource cards.
    pub hand: ResourceSet,
    /// The bot's settlements.
    pub my_settlements: u64,
    /// The bot's cities.
    pub my_cities: u64,
    /// Other players' settlements and cities.
    pub opp_buildings: u64,
    /// The bot's roads.
    pub my_roads: u128,
    /// Everyone's roads.
    pub all_roads: u128,
    /// Free vertices where the distance rule allows a settlement.
    pub free_spots: u64,
    /// The bot's production in pips per resource (cities count twice).
    pub my_production: Production,
    /// The goals open to the bot ([`Ctx::plans`]), once asked for.
    pub(crate) plans: OnceCell<Vec<Plan>>,
}

impl<'a> Ctx<'a> {
    /// Builds the context of `view` (for a seat view; other viewers act as the active seat).
    pub fn new(view: &'a View) -> Ctx<'a> {
        Ctx::with_eval(view, Arc::new(BoardEval::new(&view.board)))
    }

    /// [`Ctx::new`] with the board's evaluation already at hand (`eval`
    /// must be that of `view.board`).
    pub fn with_eval(view: &'a View, eval: Arc<BoardEval>) -> Ctx<'a> {
        let me = match view.viewer {
            Viewer::Seat(s) => s,
            _ => view.active,
        };
        let mut ctx = Ctx {
            view,
            me,
            eval,
            hand: ResourceSet::EMPTY,
            my_settlements: 0,
            my_cities: 0,
            opp_buildings: 0,
            my_roads: 0,
            all_roads: 0,
            free_spots: 0,
            my_production: [0.0; 5],
            plans: OnceCell::new(),
        };
        let mut occupied = 0u64;
        for p in &view.players {
            let (s, c, r) = masks(p);
            occupied |= s | c;
            ctx.all_roads |= r;
            if p.seat == me {
                ctx.my_settlements = s;
                ctx.my_cities = c;
                ctx.my_roads = r;
                ctx.hand = p.resources.unwrap_or_default();
            } else {
                ctx.opp_buildings |= s | c;
            }
        }
        let g = geo();
        let mut blocked = occupied;
        for v in bits64(occupied) {
            blocked |= g.vertex_neighbour_mask[v as usize];
        }
        ctx.free_spots = !blocked & ((1u64 << 54) - 1);
        for v in bits64(ctx.my_settlements | ctx.my_cities) {
            let k = if ctx.my_cities & (1 << v) != 0 {
                2.0
            } else {
                1.0
            };
            for (acc, p) in ctx
                .my_production
                .iter_mut()
                .zip(ctx.eval.production[v as usize])
            {
                *acc += k * p;
            }
        }
        ctx
    }

    /// Every goal open to the bot now ([`plan::candidates`]), worked out
    /// at the first call of a decision.
    pub fn plans(&self) -> &[Plan] {
        self.plans
            .get_or_init(|| plan::candidates(self, &reach(self, 0, plan::ROAD_LIMIT)))
    }

    /// The bot's own player entry.
    pub fn me_view(&self) -> Option<&PlayerView> {
        self.view.players.get(self.me.index())
    }

    /// Pieces left: roads, settlements, cities.
    pub fn pieces_left(&self) -> [u8; 3] {
        self.me_view().map(|p| p.pieces_left).unwrap_or([0; 3])
    }

    /// The bot's bank rate for each resource.
    pub fn rates(&self) -> [u8; 5] {
        self.me_view().map(|p| p.bank_rates).unwrap_or([4; 5])
    }

    /// The bot's buildings.
    pub fn my_buildings(&self) -> u64 {
        self.my_settlements | self.my_cities
    }

    /// Whether this is still the opening placement.
    pub fn opening(&self) -> bool {
        self.view.phase == PhaseName::Opening
    }

    /// Points a seat shows (hidden cards excluded, except the bot's own).
    pub fn points(&self, s: Seat) -> u8 {
        self.view
            .players
            .get(s.index())
            .map(|p| {
                if s == self.me {
                    p.victory_points.unwrap_or(p.visible_points)
                } else {
                    p.visible_points
                }
            })
            .unwrap_or(0)
    }

    /// The other players, in seat order.
    pub fn opponents(&self) -> impl Iterator<Item = &'a PlayerView> + use<'a> {
        let me = self.me;
        self.view.players.iter().filter(move |p| p.seat != me)
    }

    /// The opponent showing the most points (ties: more cards in hand).
    pub fn leader(&self) -> Option<Seat> {
        self.opponents()
            .max_by_key(|p| (p.visible_points, p.resource_count))
            .map(|p| p.seat)
    }

    /// Whether `s` is close enough to winning that nobody should help it:
    /// one point short of the target, or two short and ahead of the bot.
    /// (Refusing everyone two short would stop all trading late in games
    /// with high targets, where most players are.)
    pub fn near_win(&self, s: Seat) -> bool {
        let (theirs, target) = (self.points(s), self.view.options.vp_target);
        theirs + 1 >= target || (theirs + 2 >= target && theirs > self.points(self.me))
    }
}

/// Settlement, city and road masks of a player.
pub fn masks(p: &PlayerView) -> (u64, u64, u128) {
    // Ids come from the engine; out-of-range ones are skipped rather than trusted.
    let vmask = |vs: &[catan_core::VertexId]| {
        vs.iter()
            .filter(|v| v.is_valid())
            .fold(0u64, |m, v| m | 1u64 << v.0)
    };
    let s = vmask(&p.settlements);
    let c = vmask(&p.cities);
    let r = p
        .roads
        .iter()
        .filter(|e| e.is_valid())
        .fold(0u128, |m, e| m | 1u128 << e.0);
    (s, c, r)
}
