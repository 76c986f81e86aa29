//! The turn: initiative, the order of phases, and the per-turn flags that reset each turn.

use crate::error::RuleViolation;
use crate::options::FirstTurnTie;
use crate::state::{Battle, Leader, Phase};
use acw_core::dice::{Dice, Die};
use acw_core::{Dist, Resolve, Side};

/// How an initiative tie is settled (GRID-SEQ-03).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TieBreak {
    /// Keep last turn's order (every turn after the first).
    KeepLastOrder,
    /// Roll again until the tie is broken (turn 1, default).
    Reroll,
    /// The scenario's named side goes first (turn 1, option).
    ScenarioFirst(Side),
}

/// What the initiative roll decided (GRID-SEQ-02).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum InitiativeOutcome {
    /// This side scored higher and chooses to go first or second.
    Chooses(Side),
    /// A tie: last turn's order stands.
    KeepsOrder,
    /// A tie on turn 1: the scenario's named side goes first.
    ScenarioFirst(Side),
}

/// GRID-SEQ-02, GRID-SEQ-03, GRID-SEQ-04: each side rolls 1d6 (the Union first), one side may add +1; the
/// higher total chooses the order; ties as [`TieBreak`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Initiative {
    /// GRID-SEQ-04: the side with the scenario's +1.
    pub bonus: Option<Side>,
    /// GRID-SEQ-03: how a tie is settled.
    pub tie: TieBreak,
}

/// The most rerolls of a first-turn tie before giving up (only a scripted source that has run dry gets near
/// it); the Union then chooses.
pub const REROLL_LIMIT: u32 = 100;

impl Initiative {
    fn single(&self, union: u32, confederate: u32) -> Option<Side> {
        let bonus = |s: Side| u32::from(self.bonus == Some(s));
        let u = union + bonus(Side::Union);
        let c = confederate + bonus(Side::Confederate);
        match u.cmp(&c) {
            std::cmp::Ordering::Greater => Some(Side::Union),
            std::cmp::Ordering::Less => Some(Side::Confederate),
            std::cmp::Ordering::Equal => None,
        }
    }

    fn tie_outcome(&self) -> Option<InitiativeOutcome> {
        match self.tie {
            TieBreak::KeepLastOrder => Some(InitiativeOutcome::KeepsOrder),
            TieBreak::ScenarioFirst(s) => Some(InitiativeOutcome::ScenarioFirst(s)),
            TieBreak::Reroll => None,
        }
    }
}

impl Resolve for Initiative {
    type Outcome = InitiativeOutcome;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> InitiativeOutcome {
        for _ in 0..REROLL_LIMIT {
            let u = u32::from(Die::D6.roll(dice));
            let c = u32::from(Die::D6.roll(dice));
            match self.single(u, c) {
                Some(s) => return InitiativeOutcome::Chooses(s),
                None => {
                    if let Some(o) = self.tie_outcome() {
                        return o;
                    }
                    if dice.fault().is_some() {
                        break;
                    }
                }
            }
        }
        InitiativeOutcome::Chooses(Side::Union)
    }

    fn odds(&self) -> Dist<InitiativeOutcome> {
        let one = Dist::die(Die::D6)
            .product(&Dist::die(Die::D6))
            .map(|&(u, c)| self.single(u, c));
        match self.tie_outcome() {
            Some(t) => one.map(|o| o.map_or(t, InitiativeOutcome::Chooses)),
            None => one
                .given(Option::is_some)
                .unwrap_or_else(|| Dist::certain(Some(Side::Union)))
                .map(|o| InitiativeOutcome::Chooses(o.unwrap_or(Side::Union))),
        }
    }
}

impl Battle {
    /// GRID-SEQ-01, GRID-SEQ-02, GRID-SEQ-03: rolls initiative for this turn (Initiative phase only, once).
    /// A tie keeps last turn's order; on turn 1 it is rerolled or settled by the scenario, as the options say.
    /// If a side chooses, call [`Battle::choose_first_player`]; otherwise the order is set and the game moves
    /// to the Bombardment Phase.
    pub fn roll_initiative<D: Dice + ?Sized>(
        &mut self,
        dice: &mut D,
    ) -> Result<InitiativeOutcome, RuleViolation> {
        let mut next = self.clone();
        let out = next.roll_initiative_in_place(dice)?;
        *self = next;
        Ok(out)
    }

    /// [`Battle::roll_initiative`] carried out on this battle itself, for a caller that works on a copy of its own and drops it
    /// on a refusal (the game's orders): a refusal may leave this battle partly changed.
    pub(crate) fn roll_initiative_in_place<D: Dice + ?Sized>(
        &mut self,
        dice: &mut D,
    ) -> Result<InitiativeOutcome, RuleViolation> {
        let out = self.roll_initiative_unchecked(dice)?;
        crate::error::fault_check(dice)?;
        Ok(out)
    }

    fn roll_initiative_unchecked<D: Dice + ?Sized>(
        &mut self,
        dice: &mut D,
    ) -> Result<InitiativeOutcome, RuleViolation> {
        self.phase_is(Phase::Initiative)?;
        if self.first_player.is_some() || self.initiative_winner.is_some() {
            return Err(RuleViolation::Inconsistent("initiative was already rolled"));
        }
        let tie = match (self.last_first_player, self.options.first_turn_tie) {
            (Some(_), _) => TieBreak::KeepLastOrder,
            (None, FirstTurnTie::Reroll) => TieBreak::Reroll,
            (None, FirstTurnTie::ScenarioFirst(s)) => TieBreak::ScenarioFirst(s),
        };
        let proc = Initiative {
            bonus: self.options.initiative_bonus,
            tie,
        };
        let out = proc.roll(dice);
        match out {
            InitiativeOutcome::Chooses(s) => self.initiative_winner = Some(s),
            InitiativeOutcome::KeepsOrder => {
                self.first_player = self.last_first_player;
                self.phase = Phase::Bombardment;
            }
            InitiativeOutcome::ScenarioFirst(s) => {
                self.first_player = Some(s);
                self.phase = Phase::Bombardment;
            }
        }
        Ok(out)
    }

    /// GRID-SEQ-02: the side that won the initiative roll chooses who moves first; the game then moves to the
    /// Bombardment Phase. Refused for the other side, or when nobody is choosing.
    pub fn choose_first_player(&mut self, chooser: Side, first: Side) -> Result<(), RuleViolation> {
        self.phase_is(Phase::Initiative)?;
        match self.initiative_winner {
            Some(w) if w == chooser => {
                self.first_player = Some(first);
                self.phase = Phase::Bombardment;
                Ok(())
            }
            Some(w) => Err(RuleViolation::WrongSide(w)),
            None => Err(RuleViolation::Inconsistent("roll initiative first")),
        }
    }

    /// The player with the initiative this turn: the winner of the roll, or else the first player (GRID-MEL-03).
    #[must_use]
    pub fn initiative_side(&self) -> Option<Side> {
        self.initiative_winner.or(self.first_player)
    }

    /// GRID-SEQ-01: moves to the next phase: Bombardment → first player's movement → second player's movement
    /// → Combat → the next turn's Initiative (GRID-SEQ-08 flags reset then). From Initiative, the order must have
    /// been settled.
    pub fn advance(&mut self) -> Result<Phase, RuleViolation> {
        self.phase = match self.phase {
            Phase::Initiative => {
                if self.first_player.is_none() {
                    return Err(RuleViolation::Inconsistent("settle the initiative first"));
                }
                Phase::Bombardment
            }
            Phase::Bombardment => {
                if self.bombardment.is_some() {
                    return Err(RuleViolation::Inconsistent(
                        "the bombardment rolled this phase must be applied first",
                    ));
                }
                Phase::FirstMovement
            }
            Phase::FirstMovement => Phase::SecondMovement,
            Phase::SecondMovement => Phase::Combat,
            Phase::Combat => {
                if !self.combat_done {
                    return Err(RuleViolation::Inconsistent(
                        "the Combat Phase's skirmish fire and combats must be resolved first",
                    ));
                }
                if let Some(t) = self.owed_tests.first() {
                    return Err(RuleViolation::MoraleOwed(t.unit));
                }
                if let Some(r) = self.owed_retreats.first() {
                    return Err(RuleViolation::RetreatOwed(r.unit));
                }
                self.begin_next_turn();
                Phase::Initiative
            }
        };
        Ok(self.phase)
    }

    /// GRID-SEQ-08: starts the next turn: every per-turn flag resets; disorder, hits, half-hits, entrenchment
    /// progress, refused flanks, formation, mount, facing and markers persist. Lost commanders may return
    /// (GRID-CMD-07).
    fn begin_next_turn(&mut self) {
        self.turn = self.turn.saturating_add(1);
        self.last_first_player = self.first_player.or(self.last_first_player);
        self.first_player = None;
        self.initiative_winner = None;
        self.combat_done = false;
        self.vacated.clear();
        self.command_checked = Default::default();
        // A unit is copied (if shared with a copy of the battle) only when one of its per-turn marks is set.
        for u in self.units.values_mut() {
            let fresh = u.flags() == Default::default()
                && u.attacked_areas().is_empty()
                && u.stands()
                    .iter()
                    .all(|s| !s.fired_this_turn() && s.passed_command_roll());
            if fresh {
                continue;
            }
            let u = std::sync::Arc::make_mut(u);
            *u.flags_mut() = Default::default();
            u.set_attacked_areas(Vec::new());
            for s in u.stands_mut() {
                s.set_fired(false);
                s.set_command(true);
            }
        }
        // The commanders are copied (if shared) only when one of them moved.
        if self.commanders.values().any(Leader::moved) {
            for c in std::sync::Arc::make_mut(&mut self.commanders).values_mut() {
                c.set_moved(false);
            }
        }
        self.replace_commanders();
    }

    /// GRID-SEQ-09: whether the scenario's game length has run out (the turn number is past the limit).
    #[must_use]
    pub fn game_over(&self) -> bool {
        self.turn_limit.is_some_and(|t| self.turn > t)
    }
}
