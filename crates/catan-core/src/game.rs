//! Creating games, dispatching actions, turn flow and victory (R11, R20, R43-R45).

use crate::action::Action;
use crate::board::{Board, HarbourKind};
use crate::error::refuse;
use crate::error::{ActionError, ErrorCode};
use crate::event::Event;
use crate::geometry::geo;
use crate::ids::{HexId, Seat};
use crate::options::GameOptions;
use crate::resource::{DevCard, ResourceSet};
use crate::rules::production::RobberMove;
use crate::state::{BANK_EACH, GENERIC_HARBOUR, Game, Phase, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Why a game could not be set up.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SetupError(pub String);

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetupError {}

impl Game {
    /// A new game: board from the seed (R10), deck shuffled, opener rolled
    /// for (R11). Returns the game and the opener-roll event.
    pub fn new(options: GameOptions, seed: u64) -> Result<(Game, Event), SetupError> {
        options.validate().map_err(SetupError)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let board = Board::generate(options.board, &mut rng);
        let mut game = Game::blank(options, board, rng)?;
        game.shuffle_standard_deck(&[0; 5]);
        let (rounds, opener) = game.roll_for_opener();
        game.opener = opener;
        game.active = opener;
        Ok((game, Event::OpenerRolled { rounds, opener }))
    }

    /// A game with `board`, full bank and supplies, empty deck, seat 0 to
    /// open. Building block for [`Game::new`] and scenarios.
    pub fn blank(options: GameOptions, board: Board, rng: ChaCha8Rng) -> Result<Game, SetupError> {
        options.validate().map_err(SetupError)?;
        if board.hexes.len() != 19 {
            return Err(SetupError(format!(
                "a board has 19 hexes, not {}",
                board.hexes.len()
            )));
        }
        let mut vertex_harbour = vec![0u8; 54];
        for h in &board.harbours {
            if !h.edge.is_valid() {
                return Err(SetupError(format!(
                    "harbour on {} which does not exist",
                    h.edge
                )));
            }
            let bit = match h.kind {
                HarbourKind::Generic => GENERIC_HARBOUR,
                HarbourKind::Special(r) => 1 << r.index(),
            };
            for v in geo().edge_vertices[h.edge.index()] {
                vertex_harbour[v as usize] |= bit;
            }
        }
        let robber = board.desert().unwrap_or(HexId(0));
        let mut number_hexes = [0u32; 13];
        for (i, h) in board.hexes.iter().enumerate() {
            if let Some(n) = h.number.filter(|n| (2..=12).contains(n)) {
                number_hexes[n as usize] |= 1 << i;
            }
        }
        let n = options.players as usize;
        Ok(Game {
            options,
            board,
            vertex_harbour,
            number_hexes,
            blocked_vertices: 0,
            robber,
            phase: Phase::Opening {
                step: 0,
                settlement: None,
            },
            active: Seat(0),
            opener: Seat(0),
            turn: 0,
            dice: None,
            dice_counts: vec![0; 13],
            bank: ResourceSet([BANK_EACH; 5]),
            deck: Vec::new(),
            players: vec![Player::new(); n],
            occupied_vertices: 0,
            occupied_edges: 0,
            longest_road: None,
            largest_army: None,
            dev_played: false,
            built_this_turn: false,
            discards: vec![0; n],
            offers: Vec::new(),
            next_offer: 0,
            winner: None,
            forced_dice: Vec::new(),
            rng,
        })
    }

    /// Fills the deck with the standard 25 less `taken` (by type), shuffled.
    pub(crate) fn shuffle_standard_deck(&mut self, taken: &[u8; 5]) {
        use rand::seq::SliceRandom;
        self.deck.clear();
        for c in DevCard::ALL {
            let n = DevCard::DECK_COUNTS[c.index()].saturating_sub(taken[c.index()]);
            for _ in 0..n {
                self.deck.push(c);
            }
        }
        self.deck.shuffle(&mut self.rng);
    }

    fn roll_for_opener(&mut self) -> (Vec<Vec<(Seat, u8)>>, Seat) {
        let mut contenders: Vec<Seat> = (0..self.options.players).map(Seat).collect();
        let mut rounds = Vec::new();
        loop {
            let rolls: Vec<(Seat, u8)> = contenders
                .iter()
                .map(|&s| {
                    let d = self.roll_two();
                    (s, d[0] + d[1])
                })
                .collect();
            let best = rolls.iter().map(|r| r.1).max().unwrap_or(0);
            contenders = rolls.iter().filter(|r| r.1 == best).map(|r| r.0).collect();
            rounds.push(rolls);
            if contenders.len() == 1 {
                return (rounds, contenders[0]);
            }
        }
    }

    /// Two dice from the forced list, then the RNG.
    pub(crate) fn roll_two(&mut self) -> [u8; 2] {
        if let Some(d) = self.forced_dice.pop() {
            return d;
        }
        // One draw of 36 equally likely outcomes gives both dice.
        let x: u8 = self.rng.random_range(0..36);
        [x / 6 + 1, x % 6 + 1]
    }

    /// Number of players.
    #[inline]
    pub fn n_players(&self) -> usize {
        self.players.len()
    }

    /// Applies `action` for `seat`, returning what happened. A refused action
    /// changes nothing.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, ActionError> {
        let mut out = Vec::new();
        self.apply_into(seat, action, &mut out)?;
        Ok(out)
    }

    /// Like [`Game::apply`], appending events to `out` (no allocation once
    /// `out` has grown). On refusal `out` is left as it was.
    pub fn apply_into(
        &mut self,
        seat: Seat,
        action: Action,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let mark = out.len();
        let r = self.dispatch(seat, action, out);
        if r.is_err() {
            out.truncate(mark);
        } else if !matches!(self.phase, Phase::Opening { .. } | Phase::Finished) {
            self.check_win(out);
        }
        r
    }

    fn dispatch(
        &mut self,
        seat: Seat,
        action: Action,
        out: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if self.phase == Phase::Finished {
            refuse!(GameOver, "the game is over");
        }
        if seat.index() >= self.n_players() {
            refuse!(
                InvalidSeat,
                "there is no {seat} in a {}-player game",
                self.n_players()
            );
        }
        match action {
            Action::BuildSettlement { vertex } => self.build_settlement(seat, vertex, out),
            Action::BuildRoad { edge } => self.build_road(seat, edge, out),
            Action::BuildCity { vertex } => self.build_city(seat, vertex, out),
            Action::BuyDevelopmentCard => self.buy_dev_card(seat, out),
            Action::RollDice => self.roll_dice(seat, out),
            Action::Discard { cards } => self.discard(seat, cards, out),
            Action::MoveRobber { hex, victim } => {
                self.move_robber(seat, RobberMove { hex, victim }, out)
            }
            Action::PlayKnight { hex, victim } => {
                self.play_knight(seat, RobberMove { hex, victim }, out)
            }
            Action::PlayRoadBuilding { edges } => self.play_road_building(seat, edges, out),
            Action::PlayInvention { resources } => self.play_invention(seat, resources, out),
            Action::PlayMonopoly { resource } => self.play_monopoly(seat, resource, out),
            Action::TradeBank { give, get } => self.trade_bank(seat, give, get, out),
            Action::OfferTrade { give, get, to } => self.offer_trade(seat, give, get, to, out),
            Action::AcceptTrade { offer } => self.accept_trade(seat, offer, out),
            Action::DeclineTrade { offer } => self.decline_trade(seat, offer, out),
            Action::ConfirmTrade { offer, with } => self.confirm_trade(seat, offer, with, out),
            Action::CancelTrade { offer } => self.cancel_trade(seat, offer, out),
            Action::EndTurn => self.end_turn(seat, out),
        }
    }

    /// Refuses unless it is `seat`'s turn.
    pub(crate) fn require_active(&self, seat: Seat) -> Result<(), ActionError> {
        if seat != self.active {
            refuse!(NotYourTurn, "it is {}'s turn, not {seat}'s", self.active);
        }
        Ok(())
    }

    /// Refuses unless the active player is in the action phase (R20, R26).
    pub(crate) fn require_action_phase(&self, seat: Seat) -> Result<(), ActionError> {
        self.require_active(seat)?;
        match self.phase {
            Phase::Action => Ok(()),
            Phase::PreRoll => Err(ActionError::new(
                ErrorCode::WrongPhase,
                "roll the dice first (before the roll only a development card may be played)",
            )),
            other => Err(wrong_phase(other)),
        }
    }

    fn end_turn(&mut self, seat: Seat, out: &mut Vec<Event>) -> Result<(), ActionError> {
        self.require_action_phase(seat)?;
        self.close_all_offers(out);
        let p = &mut self.players[seat.index()];
        p.dev_new = Default::default();
        self.dev_played = false;
        self.built_this_turn = false;
        self.active = Seat(((seat.index() + 1) % self.n_players()) as u8);
        self.turn += 1;
        if self.options.turn_limit.is_some_and(|l| self.turn >= l) {
            self.phase = Phase::Finished;
            out.push(Event::GameDrawn {
                turn: self.turn,
                revealed_vp_cards: self.vp_cards(),
            });
            return Ok(());
        }
        self.phase = Phase::PreRoll;
        out.push(Event::TurnStarted {
            seat: self.active,
            turn: self.turn,
        });
        Ok(())
    }

    fn vp_cards(&self) -> crate::per_seat::PerSeat<u8> {
        let mut r = crate::per_seat::PerSeat::new(self.n_players());
        for (i, p) in self.players.iter().enumerate() {
            r[i] = p.dev.get(DevCard::VictoryPoint);
        }
        r
    }

    /// Total victory points, hidden Victory Point cards included (R43).
    pub fn victory_points(&self, seat: Seat) -> u8 {
        let p = &self.players[seat.index()];
        self.visible_points(seat) + p.dev.get(DevCard::VictoryPoint)
    }

    /// Points everyone can see: buildings and awards (R46).
    pub fn visible_points(&self, seat: Seat) -> u8 {
        let p = &self.players[seat.index()];
        let mut vp = p.settlements.count_ones() as u8 + 2 * p.cities.count_ones() as u8;
        if self.longest_road == Some(seat) {
            vp += 2;
        }
        if self.largest_army == Some(seat) {
            vp += 2;
        }
        vp
    }

    /// Ends the game if the active player has reached the target (R44-R45).
    pub(crate) fn check_win(&mut self, out: &mut Vec<Event>) {
        let seat = self.active;
        let points = self.victory_points(seat);
        if points >= self.options.vp_target {
            self.winner = Some(seat);
            self.phase = Phase::Finished;
            self.close_all_offers(out);
            out.push(Event::GameWon {
                seat,
                points,
                revealed_vp_cards: self.vp_cards(),
            });
        }
    }

    /// Seat after `s` clockwise.
    pub fn next_seat(&self, s: Seat) -> Seat {
        Seat(((s.index() + 1) % self.n_players()) as u8)
    }

    /// The first seat whose player `has` holds, if any.
    #[inline]
    fn seat_where(&self, has: impl Fn(&Player) -> bool) -> Option<Seat> {
        self.players.iter().position(has).map(|i| Seat(i as u8))
    }

    /// Who owns a building on vertex `v`, if anyone.
    #[inline]
    pub fn vertex_owner(&self, v: u8) -> Option<Seat> {
        let bit = 1u64 << v;
        if self.occupied_vertices & bit == 0 {
            return None;
        }
        self.seat_where(|p| p.buildings() & bit != 0)
    }

    /// Who owns the road on edge `e`, if anyone.
    #[inline]
    pub fn edge_owner(&self, e: u8) -> Option<Seat> {
        let bit = 1u128 << e;
        if self.occupied_edges & bit == 0 {
            return None;
        }
        self.seat_where(|p| p.roads & bit != 0)
    }
}

/// The refusal for an action that does not fit `phase`.
pub(crate) fn wrong_phase(phase: Phase) -> ActionError {
    let msg = match phase {
        Phase::Opening {
            settlement: None, ..
        } => "the opening placement is under way: place a settlement",
        Phase::Opening { .. } => {
            "the opening placement is under way: place the road for your settlement"
        }
        Phase::PreRoll => "the dice have not been rolled yet",
        Phase::Discard => "waiting for players to discard after a 7",
        Phase::MoveRobber => "the robber must be moved first",
        Phase::Action => "the dice have already been rolled",
        Phase::Finished => "the game is over",
    };
    ActionError::new(ErrorCode::WrongPhase, msg)
}
