//! The grid rules as a whole game: [`State`] (the battle, where the turn stands, the orders collected, the
//! dice), [`Order`] (one decision of the side asked), [`Event`] (what happened, with the dice and their odds)
//! and [`Grid`], the [`Ruleset`] that ties them together.
//!
//! The game owns the turn sequence (GRID-SEQ-01): it rolls initiative when asked and lets the high roller
//! choose the order (GRID-SEQ-02); it collects every battery's target from both sides and only then rolls the
//! bombardment (GRID-SEQ-05); it rolls the command dice of a side's units before any of them moves
//! (GRID-SEQ-06); it collects both sides' skirmish fire, then fights every combat at once (GRID-SEQ-07), tests
//! the morale of the side that took more hits in each, and carries out each result: a retreat whose route the
//! rules leave to its owner pauses for that side; then pursuit. Nothing is rolled or applied except as the
//! result of the order that caused it, and a refused order changes nothing, the dice included.
//!
//! ```
//! use acw_core::game::{Commander, play};
//! use acw_core::BySide;
//! use acw_grid::bots::{Attacker, Holder};
//! use acw_grid::game::Grid;
//! use acw_grid::board::GridKind;
//! use acw_grid::setup::Scenario;
//!
//! let scenario = Scenario::meeting_engagement(7, GridKind::Hex);
//! let (mut blue, mut grey) = (Attacker::new(1), Holder::new(2));
//! let game = play(&Grid, &scenario, 1863, BySide::new(&mut blue as &mut dyn Commander<Grid>, &mut grey))?;
//! println!("{}", game.outcome);
//! assert!(game.outcome.turn <= 13);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::board::{Area, Facing};
use crate::combat::{CombatPlan, OwedAllocation};
use crate::error::{RuleViolation, fault_check};
use crate::fire::{BombardOrder, SkirmishOrder};
use crate::morale::{PlanRef, RetreatCause, RetreatKind, RetreatPlan, RetreatReport, UnitMorale};
use crate::movement::{MoveOrder, Routes};
use crate::options::SkirmishTiming;
use crate::pool::HitPool;
use crate::sequence::{Initiative, InitiativeOutcome, TieBreak};
use crate::setup::{Scenario, Victory};
use crate::state::{Battle, Phase, Unit, UnitId};
use crate::tables::{self, MoraleResult, StandType};
use acw_core::dice::{Dice, DiceError, Die};
use acw_core::game::{Decision, EndReason, GameResult, Outcome, Ruleset};
use acw_core::{BySide, GameRng, Resolve, Side};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// The grid rules, as a [`Ruleset`]. The options travel with the scenario and the state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Grid;

/// Where the turn stands: which decision the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Step {
    /// GRID-SEQ-02: the initiative dice are to be rolled (asked of the side that moved first last turn, the
    /// Union on turn 1).
    Initiative,
    /// GRID-SEQ-02: the high roller chooses who moves first.
    ChooseOrder(Side),
    /// GRID-SEQ-05: this side names its batteries' targets (the first player, then the second).
    Bombard(Side),
    /// GRID-SEQ-06: this side moves or rallies its units, one order per unit.
    Move(Side),
    /// GRID-FIR-08: this side names its skirmish fire (the first player, then the second).
    Skirmish(Side),
    /// GRID-MEL-12: this side places hits among several of its units (or, with that option, the enemy's), having
    /// seen them.
    Allocate(Side),
    /// GRID-MOR-09: this side chooses the route of the first retreat in the queue.
    Retreat(Side),
    /// GRID-MEL-16: this side may pursue into areas the enemy left (the initiative player, then the other).
    Pursue(Side),
    /// The game is over.
    Over,
}

/// One decision of the side asked.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Order {
    /// Roll the initiative dice.
    RollInitiative,
    /// The initiative winner's choice: this side moves first.
    MovesFirst(Side),
    /// A battery's bombardment target.
    Bombard(BombardOrder),
    /// A unit's move.
    Move(MoveOrder),
    /// A disordered unit rallies instead of moving.
    Rally(UnitId),
    /// A unit's skirmish fire.
    Skirmish(SkirmishOrder),
    /// Where the hits go, for every combat the side asked must place hits in: (combat index, the units with the
    /// hits each takes).
    Allocate(Vec<(usize, Vec<(UnitId, u32)>)>),
    /// The route of the retreat asked about (the areas entered).
    Retreat(Vec<Area>),
    /// A unit that attacked moves into the area its enemy left, facing `facing`.
    Pursue {
        /// The pursuing unit.
        unit: UnitId,
        /// The area it enters.
        into: Area,
        /// The side it faces there.
        facing: Facing,
    },
    /// The side has no more orders in this step.
    Done,
}

/// What a side is asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// Roll for the initiative.
    RollInitiative,
    /// Which side moves first?
    ChooseOrder,
    /// Which targets do your batteries bombard?
    Bombard,
    /// Which units move or rally?
    Move,
    /// Which units fire skirmish fire?
    Skirmish,
    /// How are the hits placed among several units?
    Allocate {
        /// How many combats ask it.
        combats: usize,
    },
    /// By which route does this unit retreat?
    Retreat {
        /// The unit's name.
        unit: String,
        /// How many routes it has.
        routes: usize,
    },
    /// Which units pursue?
    Pursue,
}

impl fmt::Display for Question {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Question::RollInitiative => f.write_str("roll for the initiative"),
            Question::ChooseOrder => f.write_str("you won the initiative: which side moves first?"),
            Question::Bombard => {
                f.write_str("which targets do your batteries bombard? (say done when all are named)")
            }
            Question::Move => f.write_str("which of your units move or rally? (say done to end your movement)"),
            Question::Skirmish => f.write_str("which of your units fire skirmish fire? (say done when all are named)"),
            Question::Allocate { combats } => write!(
                f,
                "the dice are rolled: how do your units share the hits in {} combat{}?",
                combats,
                if *combats == 1 { "" } else { "s" }
            ),
            Question::Retreat { unit, routes } => {
                write!(f, "{unit} must retreat: by which of its {routes} routes?")
            }
            Question::Pursue => f.write_str("which of your units pursue into the ground the enemy left? (say done when finished)"),
        }
    }
}

/// The plan of the retreat an order answers, as its check found it: the routes kept with the question (shared,
/// not copied) or a plan worked out then. Handed on to carry the order out.
enum KeptPlan {
    Asked(Arc<Vec<Vec<Area>>>),
    Worked(RetreatPlan),
}

impl KeptPlan {
    fn as_plan_ref(&self) -> PlanRef<'_> {
        match self {
            KeptPlan::Asked(r) => PlanRef::Clear(r),
            KeptPlan::Worked(plan) => plan.as_plan_ref(),
        }
    }
}

/// A retreat still to be carried out.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Pending {
    unit: UnitId,
    cause: RetreatCause,
    enemies: Vec<Area>,
}

/// A whole game in progress.
///
/// `clone_from` copies into a state already there, keeping every list's room: [`Grid`] carries out each order
/// that rolls dice on a spare kept per thread, copied from the game's state this way, so that a refused order
/// changes nothing.
#[derive(Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "StateData"))]
pub struct State {
    battle: Battle,
    rng: GameRng,
    step: Step,
    victory: Victory,
    start: BySide<u32>,
    /// Shared between copies of the state (it changes only when a unit splits or detaches, copied then):
    /// saved, compared and shown as the map itself.
    #[cfg_attr(feature = "serde", serde(serialize_with = "save_names"))]
    names: Arc<BTreeMap<UnitId, String>>,
    bombard: Vec<BombardOrder>,
    skirmish: Vec<SkirmishOrder>,
    allocations: Vec<(usize, Vec<(UnitId, u32)>)>,
    retreats: Vec<Pending>,
    /// The routes of the retreat the game is asking about (the first of `retreats`), worked out once when the
    /// question is put and kept until it is answered (nothing else can change the battle in between): the
    /// question, the owner's answer and its check all read them. `None` when no retreat is asked about. Not
    /// saved: a loaded game works them out again.
    #[cfg_attr(feature = "serde", serde(skip))]
    asked: Option<Arc<Vec<Vec<Area>>>>,
    pursued: Vec<UnitId>,
    outcome: Option<Outcome>,
}

thread_local! {
    /// This thread's spare state (see [`State::spare_copy`]).
    static SPARE_STATE: acw_core::game::Spare<State> = const { acw_core::game::Spare::new() };
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            battle: self.battle.clone(),
            rng: self.rng.clone(),
            step: self.step,
            victory: self.victory.clone(),
            start: self.start,
            names: Arc::clone(&self.names),
            bombard: self.bombard.clone(),
            skirmish: self.skirmish.clone(),
            allocations: self.allocations.clone(),
            retreats: self.retreats.clone(),
            asked: self.asked.clone(),
            pursued: self.pursued.clone(),
            outcome: self.outcome,
        }
    }

    fn clone_from(&mut self, source: &State) {
        // Destructured so that a field added to `State` cannot be left out here.
        let State {
            battle,
            rng,
            step,
            victory,
            start,
            names,
            bombard,
            skirmish,
            allocations,
            retreats,
            asked,
            pursued,
            outcome,
        } = source;
        self.battle.clone_from(battle);
        self.rng.clone_from(rng);
        self.step = *step;
        self.victory.clone_from(victory);
        self.start = *start;
        self.names.clone_from(names);
        self.bombard.clone_from(bombard);
        self.skirmish.clone_from(skirmish);
        self.allocations.clone_from(allocations);
        self.retreats.clone_from(retreats);
        self.asked.clone_from(asked);
        self.pursued.clone_from(pursued);
        self.outcome = *outcome;
    }
}

impl State {
    /// A copy of this state, made into this thread's spare (`SPARE_STATE`) where one is kept, which keeps the
    /// spare's room; afresh otherwise.
    fn spare_copy(&self) -> State {
        SPARE_STATE.with(|spare| spare.copy_of(self))
    }

    /// Keeps this state as this thread's spare, for the next [`State::spare_copy`] to copy into. Its units are
    /// let go first (the list keeps its room): units are shared between copies and copied when one that is
    /// shared changes, so a spare holding them would make the game copy a unit it changes in place.
    fn keep_as_spare(mut self) {
        self.battle.let_go_of_units();
        SPARE_STATE.with(|spare| spare.keep(self));
    }
}

#[cfg(feature = "serde")]
fn save_names<S: serde::Serializer>(
    names: &Arc<BTreeMap<UnitId, String>>,
    s: S,
) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&**names, s)
}

#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct StateData {
    battle: Battle,
    rng: GameRng,
    step: Step,
    victory: Victory,
    start: BySide<u32>,
    names: BTreeMap<UnitId, String>,
    bombard: Vec<BombardOrder>,
    skirmish: Vec<SkirmishOrder>,
    allocations: Vec<(usize, Vec<(UnitId, u32)>)>,
    retreats: Vec<Pending>,
    pursued: Vec<UnitId>,
    outcome: Option<Outcome>,
}

#[cfg(feature = "serde")]
impl TryFrom<StateData> for State {
    type Error = RuleViolation;
    fn try_from(d: StateData) -> Result<State, RuleViolation> {
        let mut s = State {
            battle: d.battle,
            rng: d.rng,
            step: d.step,
            victory: d.victory,
            start: d.start,
            names: Arc::new(d.names),
            bombard: d.bombard,
            skirmish: d.skirmish,
            allocations: d.allocations,
            retreats: d.retreats,
            asked: None,
            pursued: d.pursued,
            outcome: d.outcome,
        };
        let phase_fits = match s.step {
            Step::Initiative | Step::ChooseOrder(_) => s.battle.phase() == Phase::Initiative,
            Step::Bombard(_) => s.battle.phase() == Phase::Bombardment,
            Step::Move(side) => s.battle.moving_side() == Some(side),
            Step::Allocate(_) => s.battle.pending_combats().is_some(),
            Step::Skirmish(_) | Step::Retreat(_) | Step::Pursue(_) => {
                s.battle.phase() == Phase::Combat
            }
            Step::Over => s.outcome.is_some(),
        };
        let known = |id: &UnitId| s.battle.unit(*id).is_ok();
        if !phase_fits
            || !s
                .bombard
                .iter()
                .all(|o| known(&o.battery) && known(&o.target))
            || !s
                .skirmish
                .iter()
                .all(|o| known(&o.firer) && known(&o.target))
            || !s.retreats.iter().all(|p| known(&p.unit))
            || matches!(s.step, Step::Retreat(_)) && s.retreats.is_empty()
        {
            return Err(RuleViolation::Inconsistent(
                "the saved game's step does not fit its battle",
            ));
        }
        if matches!(s.step, Step::Retreat(_)) {
            s.asked = Some(Arc::new(s.plan_retreat_routes()));
        }
        Ok(s)
    }
}

/// Rolls through to a source, keeping every face thrown, so an event can say which dice were rolled.
struct Tally<'a> {
    dice: &'a mut dyn Dice,
    faces: Vec<u16>,
}

impl<'a> Tally<'a> {
    fn new(dice: &'a mut dyn Dice) -> Tally<'a> {
        Tally {
            dice,
            faces: Vec::new(),
        }
    }
    fn take(&mut self) -> Vec<u16> {
        std::mem::take(&mut self.faces)
    }
}

impl Dice for Tally<'_> {
    fn face(&mut self, die: Die) -> u16 {
        let f = self.dice.face(die);
        self.faces.push(f);
        f
    }
    fn index(&mut self, n: usize) -> usize {
        self.dice.index(n)
    }
    fn fault(&self) -> Option<&DiceError> {
        self.dice.fault()
    }
    fn about(&mut self, purpose: fmt::Arguments<'_>) {
        self.dice.about(purpose);
    }
}

/// A retreat's result, as the log tells it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RetreatEnd {
    /// It held its ground.
    Held,
    /// It ended in `area`, joining the unit named if friends were there.
    Retreated {
        /// Where it ended.
        area: Area,
        /// The friendly unit it joined.
        joined: Option<String>,
    },
    /// It retreated and left the field.
    Routed,
    /// It surrendered.
    Surrendered,
    /// Terrain or the edge stopped it at `area`.
    Stopped {
        /// Where it stopped.
        area: Area,
    },
    /// Its retreat was blocked and it was removed.
    Removed,
}

/// One side of a combat as the log tells it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FoughtSide {
    /// The side.
    pub side: Side,
    /// Its units with the hits each took (after cover, commanders and markers).
    pub units: Vec<(String, u32)>,
    /// The dice it rolled (its units' own dice and its support).
    pub pool: HitPool,
    /// The hits it scored before reductions.
    pub scored: u32,
}

/// What happened: the log. Each event reads as a line of a rulebook's example of play.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Event {
    /// A new turn begins.
    TurnBegins {
        /// Its number.
        turn: u32,
    },
    /// GRID-SEQ-02: the initiative dice (the Union's first).
    Initiative {
        /// The faces rolled, in order.
        faces: Vec<u16>,
        /// The procedure (bonus and tie rule), for its odds.
        procedure: Initiative,
        /// What they decided.
        outcome: InitiativeOutcome,
    },
    /// Who moves first this turn.
    FirstPlayer {
        /// The side that moves first.
        first: Side,
        /// The side that chose, if one did.
        chosen_by: Option<Side>,
    },
    /// GRID-SEQ-05: a battery fired.
    Bombarded {
        /// The battery.
        battery: String,
        /// Its target.
        target: String,
        /// The dice it rolled.
        pool: HitPool,
        /// The faces.
        faces: Vec<u16>,
        /// Hits scored.
        hits: u32,
    },
    /// What a target of the bombardment suffered.
    BombardmentResult {
        /// The target.
        target: String,
        /// Hits before cover.
        raw: u32,
        /// Hits after cover.
        after_cover: u32,
        /// Stands removed.
        stands_removed: u32,
        /// The unit was destroyed.
        destroyed: bool,
    },
    /// GRID-CMD-01 to GRID-CMD-03: a side's command dice before it moves.
    Command {
        /// The side.
        side: Side,
        /// The faces rolled, in order (none if every division was in command).
        faces: Vec<u16>,
        /// Units with stands that failed and may not move this turn.
        halted: Vec<String>,
    },
    /// A unit moved.
    Moved {
        /// The unit.
        unit: String,
        /// Where it started.
        from: Area,
        /// Where it ended.
        to: Area,
        /// It moved into contact with the enemy (an attack).
        attack: bool,
        /// The friendly unit it joined at the end.
        joined: Option<String>,
    },
    /// A unit rallied.
    Rallied {
        /// The unit.
        unit: String,
    },
    /// The dice of skirmish fire and every combat of the turn, in the order thrown.
    CombatDice {
        /// The faces.
        faces: Vec<u16>,
    },
    /// GRID-CAS-05, GRID-CMD-06: the dice thrown after the hits were placed: odd hits halved for cover, and the
    /// commanders' dice with fighting units.
    ReductionDice {
        /// The faces.
        faces: Vec<u16>,
    },
    /// GRID-MEL-12: how a player placed hits among several units.
    HitsPlaced {
        /// The combat, counted from 1 in the order fought.
        combat: usize,
        /// Each unit and the hits it takes.
        placed: Vec<(String, u32)>,
    },
    /// GRID-FIR-08: a unit's skirmish fire.
    Skirmished {
        /// The firer.
        firer: String,
        /// The target.
        target: String,
        /// Hits after cover.
        hits: u32,
    },
    /// GRID-MEL-02 to GRID-MEL-14: one combat.
    Fought {
        /// Each side: its units, the hits each took, its dice and the hits it scored.
        sides: Vec<FoughtSide>,
        /// The side that must test morale.
        tester: Option<Side>,
    },
    /// GRID-MOR-01: a morale test.
    Morale {
        /// The unit.
        unit: String,
        /// Its classes of stand, for the odds.
        classes: [bool; 3],
        /// The face.
        face: u16,
        /// The worst result among its stands.
        result: MoraleResult,
    },
    /// A retreat (of a morale result, or of cavalry left in contact).
    Retreat {
        /// The unit.
        unit: String,
        /// Why it went.
        cause: RetreatCause,
        /// How it ended.
        end: RetreatEnd,
    },
    /// GRID-MEL-16: a pursuit.
    Pursued {
        /// The unit.
        unit: String,
        /// The area it entered.
        into: Area,
    },
    /// The game ended.
    GameOver(Outcome),
}

fn faces_text(faces: &[u16]) -> String {
    if faces.is_empty() {
        return "no dice".to_string();
    }
    let v: Vec<String> = faces.iter().map(u16::to_string).collect();
    v.join(", ")
}

fn hits(n: u32, what: &str) -> String {
    format!("{n} hit{} {what}", if n == 1 { "" } else { "s" })
}

fn dice_count(n: u32) -> String {
    format!("{n} {}", if n == 1 { "die" } else { "dice" })
}

fn pct(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

impl fmt::Display for RetreatEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RetreatEnd::Held => f.write_str("holds its ground"),
            RetreatEnd::Retreated { area, joined: None } => write!(f, "falls back to area {area}"),
            RetreatEnd::Retreated {
                area,
                joined: Some(j),
            } => write!(f, "falls back to area {area} and joins {j}"),
            RetreatEnd::Routed => f.write_str("routs and leaves the field"),
            RetreatEnd::Surrendered => f.write_str("is cut off by the enemy and surrenders"),
            RetreatEnd::Stopped { area } => {
                write!(f, "is stopped by the ground at area {area}, disordered")
            }
            RetreatEnd::Removed => f.write_str("is blocked and removed from play"),
        }
    }
}

fn result_name(r: MoraleResult) -> &'static str {
    match r {
        MoraleResult::Routed => "routed",
        MoraleResult::Defeated => "defeated",
        MoraleResult::Recoiled => "recoiled",
        MoraleResult::Steady => "steady",
    }
}

impl fmt::Display for Event {
    /// One sentence, beginning with a capital letter.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = Text(self).to_string();
        let mut chars = text.chars();
        if let Some(first) = chars.next() {
            write!(f, "{}{}", first.to_uppercase(), chars.as_str())?;
        }
        Ok(())
    }
}

/// An event's sentence as written (a unit's name may begin it in lower case).
struct Text<'a>(&'a Event);

impl fmt::Display for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Event::TurnBegins { turn } => write!(f, "Turn {turn} begins."),
            Event::Initiative {
                faces,
                procedure,
                outcome,
            } => {
                let p = procedure.odds().prob(|o| o == outcome);
                write!(f, "Initiative dice: {} ", faces_text(faces))?;
                match outcome {
                    InitiativeOutcome::Chooses(s) => {
                        write!(f, "— the {s} player wins and chooses the order")?
                    }
                    InitiativeOutcome::KeepsOrder => {
                        write!(f, "— a tie: last turn's order stands")?
                    }
                    InitiativeOutcome::ScenarioFirst(s) => write!(
                        f,
                        "— a tie: the scenario gives the {s} player the first move"
                    )?,
                }
                write!(f, " (a {} chance).", pct(p))
            }
            Event::FirstPlayer { first, chosen_by } => match chosen_by {
                Some(c) if c == first => write!(f, "The {c} player chooses to move first."),
                Some(c) => write!(
                    f,
                    "The {c} player chooses to let the {first} player move first."
                ),
                None => write!(f, "The {first} player moves first."),
            },
            Event::Bombarded {
                battery,
                target,
                pool,
                faces,
                hits,
            } => {
                let p = pool.odds().prob(|h| h == hits);
                write!(
                    f,
                    "{battery} bombards {target} with {}: {} — {} (a {} chance).",
                    dice_count(pool.dice()),
                    faces_text(faces),
                    self::hits(*hits, "").trim_end(),
                    pct(p)
                )
            }
            Event::BombardmentResult {
                target,
                raw,
                after_cover,
                stands_removed,
                destroyed,
            } => {
                write!(f, "{target} takes {}", hits(*raw, "").trim_end())?;
                if after_cover != raw {
                    write!(f, ", {after_cover} after cover")?;
                }
                crate::reports::losses(f, *stands_removed, *destroyed)?;
                f.write_str(".")
            }
            Event::Command {
                side,
                faces,
                halted,
            } => {
                if faces.is_empty() {
                    write!(f, "Every {side} unit is in command.")
                } else if halted.is_empty() {
                    write!(
                        f,
                        "{side} command dice for units out of reach: {} — every one passes.",
                        faces_text(faces)
                    )
                } else {
                    write!(
                        f,
                        "{side} command dice for units out of reach: {} — {} may not move this turn.",
                        faces_text(faces),
                        halted.join(", ")
                    )
                }
            }
            Event::Moved {
                unit,
                from,
                to,
                attack,
                joined,
            } => {
                write!(f, "{unit} moves from area {from} to area {to}")?;
                if *attack {
                    write!(f, " and attacks")?;
                }
                if let Some(j) = joined {
                    write!(f, ", joining {j}")?;
                }
                write!(f, ".")
            }
            Event::ReductionDice { faces } => write!(
                f,
                "Dice for halving hits in cover and for the commanders with the fighting units: {}.",
                faces_text(faces)
            ),
            Event::HitsPlaced { combat, placed } => {
                let v: Vec<String> = placed
                    .iter()
                    .map(|(n, h)| format!("{} to {n}", hits(*h, "").trim_end()))
                    .collect();
                write!(f, "Combat {combat}: the hits are placed: {}.", v.join(", "))
            }
            Event::Rallied { unit } => write!(f, "{unit} rallies and is no longer disordered."),
            Event::CombatDice { faces } => {
                write!(f, "The Combat Phase dice: {}.", faces_text(faces))
            }
            Event::Skirmished {
                firer,
                target,
                hits,
            } => crate::reports::skirmish(f, firer, target, *hits),
            Event::Fought { sides, tester } => {
                f.write_str("Combat: ")?;
                for (i, fs) in sides.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    let names: Vec<String> = fs
                        .units
                        .iter()
                        .map(|(n, h)| format!("{n} ({})", hits(*h, "taken")))
                        .collect();
                    let p = fs.pool.odds().prob(|h| *h == fs.scored);
                    write!(
                        f,
                        "the {} side, {}, rolls {} and scores {} (a {} chance)",
                        fs.side,
                        names.join(" and "),
                        dice_count(fs.pool.dice()),
                        hits(fs.scored, "").trim_end(),
                        pct(p)
                    )?;
                }
                f.write_str(". ")?;
                crate::reports::morale_test(f, *tester)
            }
            Event::Morale {
                unit,
                classes,
                face,
                result,
            } => {
                let m = UnitMorale { classes: *classes };
                let p = m.odds().prob(|o| o.worst() == Some(*result));
                write!(
                    f,
                    "{unit} tests morale: a {face}, {} (a {} chance).",
                    result_name(*result),
                    pct(p)
                )
            }
            Event::Retreat { unit, cause, end } => match cause {
                RetreatCause::CavalryContact => {
                    write!(f, "{unit}, mounted cavalry still in contact, {end}.")
                }
                RetreatCause::Silenced => write!(f, "{unit}, silenced, {end}."),
                RetreatCause::Morale(_) => write!(f, "{unit} {end}."),
            },
            Event::Pursued { unit, into } => write!(f, "{unit} pursues into area {into}."),
            Event::GameOver(o) => write!(f, "The game ends: {o}."),
        }
    }
}

/// Writes `n` as an ordinal ("1st", "2nd", "11th", "23rd") at the end of `out`, digit by digit (every game
/// names its units this way as it starts, so no formatting machinery is run for it).
fn push_ordinal(out: &mut String, n: u32) {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    let mut digits = [0u8; 10];
    let mut len = 0;
    let mut rest = n;
    loop {
        if let Some(d) = digits.get_mut(len) {
            *d = b'0' + (rest % 10) as u8;
        }
        len += 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for &d in digits.get(..len).unwrap_or(&[]).iter().rev() {
        out.push(char::from(d));
    }
    out.push_str(suffix);
}

/// A starting unit's name: "the Union 2nd Brigade" (its side, its number among the units of its side and kind,
/// its kind), built from its pieces; `side` is the side's name as it is shown.
fn unit_name(side: &str, n: u32, noun: &str) -> String {
    let mut name = String::with_capacity(4 + side.len() + 6 + noun.len());
    name.push_str("the ");
    name.push_str(side);
    name.push(' ');
    push_ordinal(&mut name, n);
    name.push(' ');
    name.push_str(noun);
    name
}

fn kind_noun(u: &Unit) -> &'static str {
    if u.all_artillery() {
        "Battery"
    } else if u.has(StandType::Cavalry) && !u.has(StandType::Infantry) {
        "Cavalry Brigade"
    } else if u.all_wagons() {
        "Train"
    } else {
        "Brigade"
    }
}

impl State {
    /// The starting state of `scenario`, its dice seeded from `seed`.
    pub fn new(scenario: &Scenario, seed: u64) -> Result<State, RuleViolation> {
        let battle = scenario.build()?;
        // The game collects skirmish fire in the Combat Phase only, and splits combats the default way with no
        // game master (GRID-FIR-08, GRID-OPT-05): a scenario asking otherwise is refused rather than played wrong.
        if battle.options().skirmish_timing != SkirmishTiming::CombatPhase {
            return Err(RuleViolation::OptionNotInGame(
                "skirmish fire at another time than the Combat Phase",
            ));
        }
        if battle.options().game_master {
            return Err(RuleViolation::OptionNotInGame(
                "a game master splitting the combats",
            ));
        }
        let mut names = BTreeMap::new();
        let mut counts: BTreeMap<(Side, &'static str), u32> = BTreeMap::new();
        // Each side's name written out once, not once per unit.
        let side_names = BySide::new(Side::Union.to_string(), Side::Confederate.to_string());
        for u in battle.units() {
            let noun = kind_noun(u);
            let n = counts.entry((u.side(), noun)).or_insert(0);
            *n += 1;
            names.insert(u.id(), unit_name(side_names.get(u.side()), *n, noun));
        }
        let start = BySide::new(
            stands_of(&battle, Side::Union),
            stands_of(&battle, Side::Confederate),
        );
        Ok(State {
            battle,
            rng: GameRng::seed(seed),
            step: Step::Initiative,
            victory: scenario.victory.clone(),
            start,
            names: Arc::new(names),
            bombard: Vec::new(),
            skirmish: Vec::new(),
            allocations: Vec::new(),
            retreats: Vec::new(),
            asked: None,
            pursued: Vec::new(),
            outcome: None,
        })
    }

    /// The battle: board, units, commanders, losses, turn and phase.
    #[must_use]
    pub fn battle(&self) -> &Battle {
        &self.battle
    }

    /// Where the turn stands.
    #[must_use]
    pub fn step(&self) -> Step {
        self.step
    }

    /// The scenario's victory conditions.
    #[must_use]
    pub fn victory(&self) -> &Victory {
        &self.victory
    }

    /// How the game ended, once it has.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The stands each side started with.
    #[must_use]
    pub fn starting_stands(&self) -> BySide<u32> {
        self.start
    }

    /// A unit's name ("the Union 2nd Brigade"); units split off in play are named after their kind and side.
    #[must_use]
    pub fn name(&self, id: UnitId) -> String {
        if let Some(n) = self.names.get(&id) {
            return n.clone();
        }
        match self.battle.unit(id) {
            Ok(u) => format!("a {} {} detachment", u.side(), kind_noun(u).to_lowercase()),
            Err(_) => "a unit no longer in play".to_string(),
        }
    }

    /// The side that owes the next decision, and the question; `None` when the game is over.
    #[must_use]
    pub fn decision(&self) -> Option<Decision<Question>> {
        let (side, question) = match self.step {
            Step::Over => return None,
            Step::Initiative => (self.battle.initiative_roller(), Question::RollInitiative),
            Step::ChooseOrder(s) => (s, Question::ChooseOrder),
            Step::Bombard(s) => (s, Question::Bombard),
            Step::Move(s) => (s, Question::Move),
            Step::Skirmish(s) => (s, Question::Skirmish),
            Step::Allocate(s) => (
                s,
                Question::Allocate {
                    combats: self.owed_allocations().len(),
                },
            ),
            Step::Retreat(s) => {
                let p = self.retreats.first()?;
                let routes = match &self.asked {
                    Some(r) => r.len(),
                    None => self.plan_retreat_routes().len(),
                };
                (
                    s,
                    Question::Retreat {
                        unit: self.name(p.unit),
                        routes,
                    },
                )
            }
            Step::Pursue(s) => (s, Question::Pursue),
        };
        Some(Decision { side, question })
    }

    /// The side [`State::decision`] names, without working out the question (a retreat's routes).
    fn asking(&self) -> Option<Side> {
        Some(match self.step {
            Step::Over => return None,
            Step::Initiative => self.battle.initiative_roller(),
            Step::Retreat(_) if self.retreats.is_empty() => return None,
            Step::ChooseOrder(s)
            | Step::Bombard(s)
            | Step::Move(s)
            | Step::Skirmish(s)
            | Step::Allocate(s)
            | Step::Retreat(s)
            | Step::Pursue(s) => s,
        })
    }

    fn own(&self, id: UnitId, side: Side) -> Result<&Unit, RuleViolation> {
        let u = self.battle.unit(id)?;
        if u.side() != side {
            return Err(RuleViolation::NotAsked(format!(
                "{} is not one of the {side} player's units",
                self.name(id)
            )));
        }
        Ok(u)
    }

    /// The targets battery `id` may bombard now (none if it is not its side's bombardment step or it already
    /// has a target).
    #[must_use]
    pub fn bombard_targets(&self, id: UnitId) -> Vec<UnitId> {
        self.bombard_targets_with_dice(id)
            .into_iter()
            .map(|(t, _)| t)
            .collect()
    }

    /// [`State::bombard_targets`] with the dice each target would draw ([`Battle::bombard_dice`], more than
    /// none), worked out once for the bots' choice instead of asked again for every target.
    pub(crate) fn bombard_targets_with_dice(&self, id: UnitId) -> Vec<(UnitId, u32)> {
        let Step::Bombard(side) = self.step else {
            return Vec::new();
        };
        let Ok(u) = self.own(id, side) else {
            return Vec::new();
        };
        if !u.has(StandType::Artillery) || self.bombard.iter().any(|o| o.battery == id) {
            return Vec::new();
        }
        let (board, opts) = (self.battle.board(), self.battle.options());
        // Out of range whatever else holds (the range table alone): skip the line-of-sight test.
        let in_range = |e: &Unit| {
            self.battle
                .hill_extension(u.area(), e.area())
                .is_ok_and(|ext| {
                    tables::bombard_dice_per_stand(board.distance(u.area(), e.area(), opts), ext)
                        .is_some()
                })
        };
        self.battle
            .units()
            .filter(|e| e.side() != side && in_range(e))
            .map(Unit::id)
            .filter_map(|t| {
                self.battle
                    .bombard_dice(BombardOrder {
                        battery: id,
                        target: t,
                    })
                    .ok()
                    .map(|d| (t, d.pool.dice()))
                    .filter(|&(_, n)| n > 0)
            })
            .collect()
    }

    /// The targets unit `id` may fire skirmish fire at now.
    #[must_use]
    pub fn skirmish_targets(&self, id: UnitId) -> Vec<UnitId> {
        let Step::Skirmish(side) = self.step else {
            return Vec::new();
        };
        let Ok(u) = self.own(id, side) else {
            return Vec::new();
        };
        if u.flags().skirmished || self.skirmish.iter().any(|o| o.firer == id) {
            return Vec::new();
        }
        // Only a unit exactly 2 areas directly in front can be a target: the full check is asked
        // of the units there alone.
        let two = self.battle.board().directly_in_front(
            u.area(),
            u.facing(),
            crate::tables::SKIRMISH_RANGE,
        );
        self.battle
            .units()
            .filter(|e| e.side() != side && e.area() == two)
            .map(Unit::id)
            .filter(|&t| {
                self.battle
                    .skirmish_dice(SkirmishOrder {
                        firer: id,
                        target: t,
                    })
                    .is_ok_and(|p| p.dice() > 0)
            })
            .collect()
    }

    /// The moves unit `id` may make now: for every area it can reach (by a route each of whose steps is itself
    /// a legal move), one move, facing the nearest enemy or, if the rules refuse that, keeping its facing.
    #[must_use]
    pub fn moves(&self, id: UnitId) -> Vec<MoveOrder> {
        let Ok(u) = self.battle.unit(id) else {
            return Vec::new();
        };
        let routes = self.move_routes(id);
        (0..routes.len())
            .map(|i| self.move_with_facing(u, routes.path(i)))
            .collect()
    }

    /// The routes of the moves unit `id` may make now, in the order [`State::moves`] offers them (the `i`-th
    /// route is the path of its `i`-th move), without working out the facing each would end with;
    /// [`State::move_along`] makes the move of one of them.
    #[must_use]
    pub fn move_routes(&self, id: UnitId) -> Routes {
        let Step::Move(side) = self.step else {
            return Routes::default();
        };
        let Ok(u) = self.own(id, side) else {
            return Routes::default();
        };
        // What the move rules refuse whatever the path (GRID-MOV-11, GRID-CMD-02, GRID-MOR-13): skip the search.
        let f = u.flags();
        if f.moved
            || f.rallied
            || f.entrenched
            || f.bombarded
            || u.disordered()
            || u.stands().iter().all(|s| !s.passed_command_roll())
        {
            return Routes::default();
        }
        let reach = (u.allowance_halves() as usize).min(6);
        self.battle.routes(id, reach)
    }

    /// The move [`State::moves`] offers unit `id` along `path` (one of [`State::move_routes`]): ending facing
    /// the nearest enemy. `None` if there is no such unit.
    #[must_use]
    pub fn move_along(&self, id: UnitId, path: Vec<Area>) -> Option<MoveOrder> {
        let u = self.battle.unit(id).ok()?;
        Some(self.move_with_facing(u, path))
    }

    fn move_with_facing(&self, u: &Unit, path: Vec<Area>) -> MoveOrder {
        let facing = self.facing_at(u, path.last().copied().unwrap_or(u.area()));
        MoveOrder::along(u, path).facing(facing)
    }

    /// The side a unit ending a move in `at` faces: towards the nearest of its enemies' areas (the least area
    /// of those nearest, then the first such side), or its present facing if there is no enemy. (A move's
    /// legality never depends on the facing it ends with.) The enemies are read from the battle as they are
    /// weighed, not gathered into a list.
    fn facing_at(&self, u: &Unit, at: Area) -> Facing {
        let board = self.battle.board();
        let opts = self.battle.options();
        let side = u.side();
        let nearest = self
            .battle
            .units()
            .filter(|e| e.side() != side)
            .map(|e| (board.distance(at, e.area(), opts), e.area()))
            .min();
        nearest
            .and_then(|(_, a)| board.facing_towards(at, a))
            .unwrap_or(u.facing())
    }

    /// The routes of the retreat the game is asking about.
    #[must_use]
    pub fn retreat_routes(&self) -> Vec<Vec<Area>> {
        self.retreat_routes_kept().into_owned()
    }

    /// [`State::retreat_routes`] read where they are kept (no copy), or worked out from the battle.
    pub(crate) fn retreat_routes_kept(&self) -> std::borrow::Cow<'_, [Vec<Area>]> {
        match &self.asked {
            Some(r) => std::borrow::Cow::Borrowed(r.as_slice()),
            None => std::borrow::Cow::Owned(self.plan_retreat_routes()),
        }
    }

    /// [`State::retreat_routes`] worked out from the battle.
    fn plan_retreat_routes(&self) -> Vec<Vec<Area>> {
        let Some(p) = self.retreats.first() else {
            return Vec::new();
        };
        let Some(kind) = p.cause.kind() else {
            return Vec::new();
        };
        match self.battle.retreat_plan(p.unit, kind, &p.enemies) {
            Ok(RetreatPlan::Clear(v)) => v,
            _ => Vec::new(),
        }
    }

    /// The areas unit `id` may pursue into now.
    #[must_use]
    pub fn pursuits(&self, id: UnitId) -> Vec<Area> {
        let Step::Pursue(side) = self.step else {
            return Vec::new();
        };
        let Ok(u) = self.own(id, side) else {
            return Vec::new();
        };
        if !u.flags().attacked || self.pursued.contains(&id) {
            return Vec::new();
        }
        u.attacked_areas()
            .iter()
            .copied()
            .filter(|&a| self.battle.check_pursue(id, a, u.facing()).is_ok())
            .collect()
    }

    /// Every order unit `id` may be given now (a move, a rally, a bombardment or skirmish target, a pursuit).
    /// Each is accepted by [`Grid`]'s `apply`, and [`State::check_order`] accepts it.
    #[must_use]
    pub fn actions(&self, id: UnitId) -> Vec<Order> {
        let mut out = Vec::new();
        match self.step {
            Step::Bombard(_) => out.extend(self.bombard_targets(id).into_iter().map(|target| {
                Order::Bombard(BombardOrder {
                    battery: id,
                    target,
                })
            })),
            Step::Skirmish(_) => out.extend(
                self.skirmish_targets(id)
                    .into_iter()
                    .map(|target| Order::Skirmish(SkirmishOrder { firer: id, target })),
            ),
            Step::Move(side) => {
                if self.own(id, side).is_ok() && self.battle.may_rally(id).is_ok() {
                    out.push(Order::Rally(id));
                }
                out.extend(self.moves(id).into_iter().map(Order::Move));
            }
            Step::Pursue(_) => {
                if let Ok(u) = self.battle.unit(id) {
                    let facing = u.facing();
                    out.extend(self.pursuits(id).into_iter().map(|into| Order::Pursue {
                        unit: id,
                        into,
                        facing,
                    }));
                }
            }
            _ => {}
        }
        out
    }

    /// Whether `order` would be accepted now, or why not; changes nothing. (It does not roll: an order that
    /// rolls dice is checked before any is thrown.)
    pub fn check_order(&self, order: &Order) -> Result<(), RuleViolation> {
        let Some(side) = self.asking() else {
            return Err(RuleViolation::NotAsked("the game is over".into()));
        };
        let not_now = |what: &str| {
            Err(RuleViolation::NotAsked(format!(
                "{what} is not asked for now; the {side} player is asked: {}",
                self.decision()
                    .map(|d| d.question.to_string())
                    .unwrap_or_default()
            )))
        };
        match (order, self.step) {
            (Order::RollInitiative, Step::Initiative) => Ok(()),
            (Order::MovesFirst(_), Step::ChooseOrder(_)) => Ok(()),
            (Order::Bombard(o), Step::Bombard(s)) => {
                let b = self.own(o.battery, s)?;
                if !b.has(StandType::Artillery) {
                    return Err(RuleViolation::NotEligible {
                        unit: o.battery,
                        why: "only artillery bombards",
                    });
                }
                if self.bombard.iter().any(|x| x.battery == o.battery) {
                    return Err(RuleViolation::NotEligible {
                        unit: o.battery,
                        why: "a battery fires at one target a phase",
                    });
                }
                if self.battle.bombard_dice(*o)?.pool.dice() == 0 {
                    return Err(RuleViolation::BadTarget {
                        target: o.target,
                        why: "the battery has no dice against it",
                    });
                }
                Ok(())
            }
            (Order::Skirmish(o), Step::Skirmish(s)) => {
                self.own(o.firer, s)?;
                if self.skirmish_targets(o.firer).contains(&o.target) {
                    Ok(())
                } else {
                    self.battle.skirmish_dice(*o)?;
                    Err(RuleViolation::NotEligible {
                        unit: o.firer,
                        why: "a unit skirmishes once a turn",
                    })
                }
            }
            (Order::Move(o), Step::Move(s)) => {
                self.own(o.unit, s)?;
                self.battle.check_move(o)
            }
            (Order::Rally(id), Step::Move(s)) => {
                self.own(*id, s)?;
                self.battle.may_rally(*id)
            }
            (Order::Allocate(given), Step::Allocate(_)) => {
                let owed = self.owed_allocations();
                if given.len() != owed.len() {
                    return Err(RuleViolation::BadAllocation(
                        "give the hits of every combat asked about, once each",
                    ));
                }
                for o in &owed {
                    let Some((_, placed)) = given.iter().find(|(c, _)| *c == o.combat) else {
                        return Err(RuleViolation::BadAllocation(
                            "give the hits of every combat asked about, once each",
                        ));
                    };
                    self.battle.check_allocation(o, placed)?;
                }
                Ok(())
            }
            (Order::Retreat(path), Step::Retreat(_)) => {
                let listed = match &self.asked {
                    Some(r) => r.iter().any(|r| r == path),
                    None => self.plan_retreat_routes().iter().any(|r| r == path),
                };
                if listed {
                    Ok(())
                } else {
                    Err(RuleViolation::BadRetreat(
                        "that is not one of the unit's retreat routes",
                    ))
                }
            }
            (Order::Pursue { unit, into, facing }, Step::Pursue(s)) => {
                self.own(*unit, s)?;
                if self.pursued.contains(unit) {
                    return Err(RuleViolation::BadPursuit("a unit pursues once a turn"));
                }
                self.battle.check_pursue(*unit, *into, *facing).map(|_| ())
            }
            (Order::Done, Step::Retreat(_) | Step::Allocate(_)) => not_now("ending the step"),
            (Order::Done, Step::Initiative | Step::ChooseOrder(_)) => not_now("ending the step"),
            (Order::Done, _) => Ok(()),
            (Order::RollInitiative, _) => not_now("the initiative roll"),
            (Order::MovesFirst(_), _) => not_now("choosing the order"),
            (Order::Bombard(_), _) => not_now("a bombardment target"),
            (Order::Skirmish(_), _) => not_now("skirmish fire"),
            (Order::Move(_), _) => not_now("a move"),
            (Order::Rally(_), _) => not_now("a rally"),
            (Order::Retreat(_), _) => not_now("a retreat route"),
            (Order::Allocate(_), _) => not_now("placing hits"),
            (Order::Pursue { .. }, _) => not_now("a pursuit"),
        }
    }

    fn apply_order(
        &mut self,
        order: &Order,
        dice: &mut Tally<'_>,
        log: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        // A move's check is its plan, and a retreat's is its routes: each is then carried out as worked out
        // here rather than worked out again.
        let mut move_plan = None;
        let mut retreat_plan = None;
        match (order, self.step) {
            (Order::Move(o), Step::Move(s)) => {
                self.own(o.unit, s)?;
                move_plan = Some(self.battle.plan_move(o)?);
            }
            (Order::Retreat(path), Step::Retreat(_)) => {
                if self.asking().is_none() {
                    // Refused as `check_order` refuses it (nobody is asked).
                    self.check_order(order)?;
                }
                // The routes put to the owner with the question, if kept; otherwise worked out now.
                let planned = self.retreats.first().and_then(|p| {
                    let kind = p.cause.kind()?;
                    let plan = match &self.asked {
                        Some(r) => KeptPlan::Asked(Arc::clone(r)),
                        None => KeptPlan::Worked(
                            self.battle.retreat_plan(p.unit, kind, &p.enemies).ok()?,
                        ),
                    };
                    Some((kind, plan))
                });
                let listed = match planned.as_ref().map(|(_, plan)| plan.as_plan_ref()) {
                    Some(PlanRef::Clear(v)) => v.iter().any(|r| r == path),
                    _ => false,
                };
                if !listed {
                    return Err(RuleViolation::BadRetreat(
                        "that is not one of the unit's retreat routes",
                    ));
                }
                retreat_plan = planned;
            }
            _ => self.check_order(order)?,
        }
        match (order, self.step) {
            (Order::RollInitiative, _) => {
                dice.about(format_args!(
                    "initiative: the Union die, then the Confederate die"
                ));
                let out = self.battle.roll_initiative_in_place(dice)?;
                let procedure = self.battle.initiative_procedure_used();
                log.push(Event::Initiative {
                    faces: dice.take(),
                    procedure,
                    outcome: out,
                });
                match out {
                    InitiativeOutcome::Chooses(s) => self.step = Step::ChooseOrder(s),
                    _ => {
                        if let Some(first) = self.battle.first_player() {
                            log.push(Event::FirstPlayer {
                                first,
                                chosen_by: None,
                            });
                        }
                        self.begin_bombardment();
                    }
                }
            }
            (Order::MovesFirst(first), Step::ChooseOrder(s)) => {
                self.battle.choose_first_player(s, *first)?;
                log.push(Event::FirstPlayer {
                    first: *first,
                    chosen_by: Some(s),
                });
                self.begin_bombardment();
            }
            (Order::Bombard(o), _) => self.bombard.push(*o),
            (Order::Skirmish(o), _) => self.skirmish.push(*o),
            (Order::Move(o), _) => {
                let from = self.battle.unit(o.unit)?.area();
                let name = self.name(o.unit);
                let r = match move_plan.take() {
                    Some(plan) => self.battle.move_planned(o, plan)?,
                    None => self.battle.move_unit(o)?,
                };
                if r.unit != o.unit && !self.names.contains_key(&r.unit) && r.joined.is_none() {
                    Arc::make_mut(&mut self.names)
                        .insert(r.unit, format!("a detachment of {name}"));
                }
                log.push(Event::Moved {
                    unit: name,
                    from,
                    to: o.path.last().copied().unwrap_or(from),
                    attack: r.attack,
                    joined: r.joined.map(|j| self.name(j)),
                });
            }
            (Order::Rally(id), _) => {
                self.battle.rally(*id)?;
                log.push(Event::Rallied {
                    unit: self.name(*id),
                });
            }
            (Order::Allocate(given), _) => {
                self.allocations.extend(given.iter().cloned());
                self.next_allocation(dice, log)?;
            }
            (Order::Retreat(path), _) => {
                self.asked = None;
                let p = self.retreats.remove(0);
                let kept = retreat_plan.take();
                let known = kept
                    .as_ref()
                    .map(|(kind, plan)| (*kind, p.enemies.as_slice(), plan.as_plan_ref()));
                self.retreat_along(&p, path, known, log)?;
                self.next_retreat(log)?;
            }
            (Order::Pursue { unit, into, facing }, _) => {
                self.battle.pursue(*unit, *into, *facing)?;
                self.pursued.push(*unit);
                log.push(Event::Pursued {
                    unit: self.name(*unit),
                    into: *into,
                });
            }
            (Order::Done, Step::Bombard(s)) => {
                if Some(s) == self.battle.first_player() {
                    self.step = Step::Bombard(s.enemy());
                } else {
                    self.fire_bombardment(dice, log)?;
                }
            }
            (Order::Done, Step::Move(_)) => {
                self.battle.advance()?;
                self.begin_movement_or_combat(dice, log)?;
            }
            (Order::Done, Step::Skirmish(s)) => {
                if Some(s) == self.battle.first_player() {
                    self.step = Step::Skirmish(s.enemy());
                } else {
                    self.fight(dice, log)?;
                }
            }
            (Order::Done, Step::Pursue(s)) => {
                if Some(s) == self.battle.initiative_side() {
                    self.step = Step::Pursue(s.enemy());
                    self.skip_idle_pursuit(log)?;
                } else {
                    self.end_turn(log)?;
                }
            }
            _ => {
                return Err(RuleViolation::NotAsked(
                    "that order is not asked for now".into(),
                ));
            }
        }
        self.check_end(log);
        Ok(())
    }

    fn begin_bombardment(&mut self) {
        self.bombard.clear();
        self.step = Step::Bombard(self.battle.first_player().unwrap_or(Side::Union));
    }

    fn fire_bombardment(
        &mut self,
        dice: &mut Tally<'_>,
        log: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        let orders = std::mem::take(&mut self.bombard);
        if !orders.is_empty() {
            let names: Vec<(String, String)> = orders
                .iter()
                .map(|o| (self.name(o.battery), self.name(o.target)))
                .collect();
            let shots: Vec<(BombardOrder, HitPool, u32)> = self
                .battle
                .roll_bombardment_announced(&orders, dice, |i, _, d: &mut Tally<'_>| {
                    if let Some((battery, target)) = names.get(i) {
                        d.about(format_args!("bombardment of {target} by {battery}"));
                    }
                })?
                .shots()
                .iter()
                .map(|(o, d, h)| (*o, d.pool, *h))
                .collect();
            let faces = dice.take();
            let mut at = 0;
            for (o, pool, hits) in shots {
                let n = (pool.dice() as usize).min(faces.len() - at.min(faces.len()));
                log.push(Event::Bombarded {
                    battery: self.name(o.battery),
                    target: self.name(o.target),
                    pool,
                    faces: faces[at..at + n].to_vec(),
                    hits,
                });
                at += n;
            }
            dice.about(format_args!("halving the bombardment's hits for cover"));
            let results = self.battle.apply_bombardment_in_place(&[], dice)?;
            dice.take();
            for r in results {
                let (removed, destroyed) = r
                    .recorded
                    .map_or((0, false), |h| (h.stands_removed, h.destroyed));
                log.push(Event::BombardmentResult {
                    target: self.name(r.target),
                    raw: r.raw,
                    after_cover: r.after_cover,
                    stands_removed: removed,
                    destroyed,
                });
            }
        }
        self.battle.advance()?;
        self.begin_movement_or_combat(dice, log)
    }

    /// In a movement phase: rolls the moving side's command dice and asks it to move. In the Combat Phase:
    /// asks for skirmish fire.
    fn begin_movement_or_combat(
        &mut self,
        dice: &mut Tally<'_>,
        log: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        if let Some(side) = self.battle.moving_side() {
            dice.about(format_args!(
                "{side} command rolls for divisions and units out of their commanders' reach"
            ));
            let r = self.battle.command_phase_in_place(side, dice)?;
            let mut halted: Vec<String> = r.halted.iter().map(|(u, _)| self.name(*u)).collect();
            halted.dedup();
            log.push(Event::Command {
                side,
                faces: dice.take(),
                halted,
            });
            self.step = Step::Move(side);
            Ok(())
        } else {
            self.skirmish.clear();
            self.step = Step::Skirmish(self.battle.first_player().unwrap_or(Side::Union));
            Ok(())
        }
    }

    fn fight(&mut self, dice: &mut Tally<'_>, log: &mut Vec<Event>) -> Result<(), RuleViolation> {
        let skirmish = std::mem::take(&mut self.skirmish);
        let mut markers = Vec::new();
        for u in self.battle.units() {
            // Only a unit with a tenacity stand can carry a marker: the others are not asked whether they are
            // engaged.
            if u.stands().iter().any(|s| s.tenacity) && self.battle.engaged(u.id())? {
                for (i, s) in u.stands().iter().enumerate() {
                    if s.tenacity {
                        markers.push((u.id(), i));
                    }
                }
            }
        }
        let plan = CombatPlan {
            split_by: self.battle.initiative_side(),
            skirmish,
            markers,
            ..CombatPlan::default()
        };
        dice.about(format_args!(
            "the Combat Phase of turn {}: skirmish fire, then each combat's dice",
            self.battle.turn()
        ));
        self.battle.roll_combats(&plan, dice)?;
        let faces = dice.take();
        if !faces.is_empty() {
            log.push(Event::CombatDice { faces });
        }
        self.allocations.clear();
        self.next_allocation(dice, log)
    }

    /// GRID-MEL-12: the hits placed where a player has the choice are asked of him (the initiative player
    /// first); once every choice is made, the hits are placed and the combat phase goes on.
    fn next_allocation(
        &mut self,
        dice: &mut Tally<'_>,
        log: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        let owed = self.owed_allocations_all();
        let first = self.battle.initiative_side().unwrap_or(Side::Union);
        for side in [first, first.enemy()] {
            if owed.iter().any(|o| o.placer == side) {
                self.step = Step::Allocate(side);
                return Ok(());
            }
        }
        self.after_combat(dice, log)
    }

    /// Every placement of hits still owed.
    fn owed_allocations_all(&self) -> Vec<OwedAllocation> {
        let done: Vec<usize> = self.allocations.iter().map(|(c, _)| *c).collect();
        self.battle
            .pending_combats()
            .map(|r| r.owed(&self.battle))
            .unwrap_or_default()
            .into_iter()
            .filter(|o| !done.contains(&o.combat))
            .collect()
    }

    /// The placements of hits the side asked owes now (GRID-MEL-12): for each combat, the units that share the
    /// hits and how many.
    #[must_use]
    pub fn owed_allocations(&self) -> Vec<OwedAllocation> {
        let Step::Allocate(side) = self.step else {
            return Vec::new();
        };
        self.owed_allocations_all()
            .into_iter()
            .filter(|o| o.placer == side)
            .collect()
    }

    fn after_combat(
        &mut self,
        dice: &mut Tally<'_>,
        log: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        // Names as the units were before the hits (some will not survive them): the units in play now, each
        // with its name worked out now only if it is not among the kept names (a detachment, named after its
        // kind and side, which the hits may remove); a kept name is read when it is needed.
        let before: Vec<(UnitId, Option<String>)> = self
            .battle
            .units()
            .map(|u| {
                let id = u.id();
                (id, (!self.names.contains_key(&id)).then(|| self.name(id)))
            })
            .collect();
        let name = |id: UnitId| match before.iter().find(|(u, _)| *u == id) {
            Some((_, Some(n))) => n.clone(),
            Some((_, None)) => self.names.get(&id).cloned().unwrap_or_default(),
            None => "a unit no longer in play".to_string(),
        };
        let allocations = std::mem::take(&mut self.allocations);
        for (ci, placed) in &allocations {
            log.push(Event::HitsPlaced {
                combat: ci + 1,
                placed: placed.iter().map(|(u, h)| (name(*u), *h)).collect(),
            });
        }
        dice.about(format_args!(
            "the Combat Phase of turn {}: halving hits for cover, and commanders' dice",
            self.battle.turn()
        ));
        let report = self.battle.place_combat_hits_in_place(&allocations, dice)?;
        let faces = dice.take();
        if !faces.is_empty() {
            log.push(Event::ReductionDice { faces });
        }
        for (o, h) in &report.skirmish {
            log.push(Event::Skirmished {
                firer: name(o.firer),
                target: name(o.target),
                hits: h.hits,
            });
        }
        let mut queue: Vec<(UnitId, Vec<Area>)> = Vec::new();
        for c in &report.combats {
            let cs = c.centre_side;
            let mut sides = Vec::new();
            for side in [cs, cs.enemy()] {
                let mut pool = HitPool::EMPTY;
                let mut units = Vec::new();
                for d in &c.dice {
                    let s = c
                        .areas
                        .iter()
                        .find(|(u, _, _)| *u == d.unit)
                        .map(|(_, s, _)| *s);
                    if s == Some(side) {
                        pool = pool.merged(d.own)?;
                        let taken = c
                            .taken
                            .iter()
                            .find(|(u, _)| *u == d.unit)
                            .map_or(0, |(_, h)| *h);
                        units.push((name(d.unit), taken));
                    }
                }
                let (sup, scored) = if side == cs {
                    (c.support.0, c.raw.1)
                } else {
                    (c.support.1, c.raw.0)
                };
                pool = pool.merged(sup)?;
                sides.push(FoughtSide {
                    side,
                    units,
                    pool,
                    scored,
                });
            }
            log.push(Event::Fought {
                sides,
                tester: c.tester,
            });
            if let Some(t) = c.tester {
                let enemies = c.areas_of(t.enemy());
                for &u in &c.testers {
                    if !queue.iter().any(|(q, _)| *q == u) {
                        queue.push((u, enemies.clone()));
                    }
                }
            }
        }
        // Morale: one die per unit that must test (GRID-MOR-01), then each result carried out.
        self.retreats.clear();
        self.asked = None;
        for (u, enemies) in queue {
            if self.battle.unit(u).is_err() {
                continue;
            }
            let unit_name = self.name(u);
            dice.about(format_args!("morale test of {unit_name}"));
            let classes = UnitMorale::of(self.battle.unit(u)?).classes;
            let tested = self.battle.test_morale_in_place(&[u], dice)?;
            let face = dice.take().first().copied().unwrap_or(0);
            for outcome in tested {
                let id = outcome.unit;
                log.push(Event::Morale {
                    unit: unit_name.clone(),
                    classes,
                    face,
                    result: outcome.result.worst().unwrap_or(MoraleResult::Steady),
                });
                for (part, result) in outcome.parts {
                    if part != id {
                        Arc::make_mut(&mut self.names).insert(part, format!("part of {unit_name}"));
                    }
                    if result != MoraleResult::Steady {
                        self.retreats.push(Pending {
                            unit: part,
                            cause: RetreatCause::Morale(result),
                            enemies: enemies.clone(),
                        });
                    }
                }
            }
        }
        self.next_retreat(log)
    }

    /// Carries out queued retreats that leave their owner no choice, pausing at the first that does.
    fn next_retreat(&mut self, log: &mut Vec<Event>) -> Result<(), RuleViolation> {
        while let Some(p) = self.retreats.first().cloned() {
            if self.battle.unit(p.unit).is_err() {
                self.retreats.remove(0);
                continue;
            }
            // The plan is worked out once: more than one clear route asks the owner (as `retreat_routes` lists
            // them); otherwise the unit takes the only route, the longest blocked one, or none.
            let plan = p
                .cause
                .kind()
                .map(|kind| self.battle.retreat_plan(p.unit, kind, &p.enemies));
            let plan = match plan {
                Some(Ok(RetreatPlan::Clear(v))) if v.len() > 1 => {
                    let side = self.battle.unit(p.unit)?.side();
                    self.step = Step::Retreat(side);
                    self.asked = Some(Arc::new(v));
                    return Ok(());
                }
                other => other,
            };
            self.retreats.remove(0);
            let plan = plan.transpose()?;
            let path = match &plan {
                Some(RetreatPlan::Clear(v) | RetreatPlan::Blocked(v)) => {
                    v.first().cloned().unwrap_or_default()
                }
                Some(RetreatPlan::Surrender) | None => Vec::new(),
            };
            // The plan just worked out is handed on rather than worked out again.
            let known = p
                .cause
                .kind()
                .zip(plan.as_ref())
                .map(|(kind, plan)| (kind, p.enemies.as_slice(), plan.as_plan_ref()));
            self.retreat_along(&p, &path, known, log)?;
        }
        self.cavalry_contact(log)?;
        self.begin_pursuit(log)
    }

    fn retreat_along(
        &mut self,
        p: &Pending,
        path: &[Area],
        known: Option<(RetreatKind, &[Area], PlanRef<'_>)>,
        log: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        let name = self.name(p.unit);
        let r = self.battle.retreat_planned(p.unit, path, None, known)?;
        let end = self.retreat_end(r);
        log.push(Event::Retreat {
            unit: name,
            cause: p.cause,
            end,
        });
        Ok(())
    }

    fn retreat_end(&self, r: RetreatReport) -> RetreatEnd {
        match r {
            RetreatReport::Held => RetreatEnd::Held,
            RetreatReport::Retreated { area, joined } => RetreatEnd::Retreated {
                area,
                joined: joined.map(|j| self.name(j)),
            },
            RetreatReport::Routed => RetreatEnd::Routed,
            RetreatReport::Surrendered => RetreatEnd::Surrendered,
            RetreatReport::Stopped { area } => RetreatEnd::Stopped { area },
            RetreatReport::Removed => RetreatEnd::Removed,
        }
    }

    /// GRID-MEL-15: mounted cavalry still in contact after the retreats falls back a full move, by the first
    /// route the rules allow (the software's reading: the owner's choice is not asked for).
    fn cavalry_contact(&mut self, log: &mut Vec<Event>) -> Result<(), RuleViolation> {
        for id in self.battle.cavalry_in_contact() {
            if self.battle.unit(id).is_err() {
                continue;
            }
            let enemies: Vec<Area> = self
                .battle
                .adjacent_enemies(id)?
                .iter()
                .filter_map(|e| self.battle.unit(*e).ok().map(Unit::area))
                .collect();
            let plan = self
                .battle
                .retreat_plan(id, RetreatKind::FullMove, &enemies)?;
            let mut candidates = match &plan {
                RetreatPlan::Clear(v) | RetreatPlan::Blocked(v) => v.clone(),
                RetreatPlan::Surrender => Vec::new(),
            };
            candidates.push(Vec::new());
            let name = self.name(id);
            // The first candidate the rules accept (a refused retreat changes nothing, so each is tried on the
            // same battle, and the plan just worked out still holds for it).
            if let Ok((_, r)) =
                self.battle
                    .forced_cavalry_retreat_first(id, &candidates, Some(plan.as_plan_ref()))
            {
                let end = self.retreat_end(r);
                log.push(Event::Retreat {
                    unit: name,
                    cause: RetreatCause::CavalryContact,
                    end,
                });
            }
        }
        Ok(())
    }

    fn begin_pursuit(&mut self, log: &mut Vec<Event>) -> Result<(), RuleViolation> {
        self.pursued.clear();
        let first = self.battle.initiative_side().unwrap_or(Side::Union);
        self.step = Step::Pursue(first);
        self.skip_idle_pursuit(log)
    }

    /// A side with no unit able to pursue is not asked.
    fn skip_idle_pursuit(&mut self, log: &mut Vec<Event>) -> Result<(), RuleViolation> {
        loop {
            let Step::Pursue(s) = self.step else {
                return Ok(());
            };
            let any = self
                .battle
                .units()
                .filter(|u| u.side() == s)
                .any(|u| !self.pursuits(u.id()).is_empty());
            if any {
                return Ok(());
            }
            if Some(s) == self.battle.initiative_side() {
                self.step = Step::Pursue(s.enemy());
            } else {
                return self.end_turn(log);
            }
        }
    }

    fn end_turn(&mut self, log: &mut Vec<Event>) -> Result<(), RuleViolation> {
        self.check_end(log);
        if self.outcome.is_some() {
            return Ok(());
        }
        self.battle.advance()?;
        if self.battle.game_over() {
            self.finish_at_turn_limit(log);
            return Ok(());
        }
        log.push(Event::TurnBegins {
            turn: self.battle.turn(),
        });
        self.step = Step::Initiative;
        Ok(())
    }

    fn finish_at_turn_limit(&mut self, log: &mut Vec<Event>) {
        let obj = self.victory.objectives();
        let held = |s: Side| self.battle.objectives_held(s, obj);
        let (hu, hc) = (held(Side::Union), held(Side::Confederate));
        let lost = |s: Side| self.battle.losses(s).stands_lost;
        let result = if hu != hc {
            GameResult::Winner(if hu > hc {
                Side::Union
            } else {
                Side::Confederate
            })
        } else if lost(Side::Union) + 2 <= lost(Side::Confederate) {
            GameResult::Winner(Side::Union)
        } else if lost(Side::Confederate) + 2 <= lost(Side::Union) {
            GameResult::Winner(Side::Confederate)
        } else {
            GameResult::Draw
        };
        self.finish(
            Outcome {
                result,
                reason: EndReason::TurnLimit,
                turn: self.battle.turn().saturating_sub(1),
            },
            log,
        );
    }

    fn finish(&mut self, outcome: Outcome, log: &mut Vec<Event>) {
        self.outcome = Some(outcome);
        self.step = Step::Over;
        log.push(Event::GameOver(outcome));
    }

    /// GRID-VIC-01: a side with nothing left in play loses; an army that lost its scenario's share of stands
    /// breaks.
    fn check_end(&mut self, log: &mut Vec<Event>) {
        if self.outcome.is_some() {
            return;
        }
        let turn = self.battle.turn();
        let alive = |s: Side| self.battle.units().any(|u| u.side() == s);
        let (au, ac) = (alive(Side::Union), alive(Side::Confederate));
        if !au || !ac {
            let result = match (au, ac) {
                (true, false) => GameResult::Winner(Side::Union),
                (false, true) => GameResult::Winner(Side::Confederate),
                _ => GameResult::Draw,
            };
            self.finish(
                Outcome {
                    result,
                    reason: EndReason::Annihilation,
                    turn,
                },
                log,
            );
            return;
        }
        let broken = |s: Side| {
            self.victory
                .broken(self.start[s], self.battle.losses(s).stands_lost)
        };
        let (bu, bc) = (broken(Side::Union), broken(Side::Confederate));
        if bu || bc {
            let result = match (bu, bc) {
                (true, false) => GameResult::Winner(Side::Confederate),
                (false, true) => GameResult::Winner(Side::Union),
                _ => GameResult::Draw,
            };
            // Only at a point where no retreat is half done.
            if !matches!(self.step, Step::Retreat(_)) {
                self.finish(
                    Outcome {
                        result,
                        reason: EndReason::ArmyBroken,
                        turn,
                    },
                    log,
                );
            }
        }
    }
}

fn stands_of(b: &Battle, side: Side) -> u32 {
    b.units()
        .filter(|u| u.side() == side)
        .map(Unit::stand_count)
        .sum()
}

impl Battle {
    /// The side asked to roll the initiative dice: the side that moved first last turn, the Union on turn 1.
    #[must_use]
    pub fn initiative_roller(&self) -> Side {
        self.last_first_player.unwrap_or(Side::Union)
    }

    /// The initiative procedure this turn's roll used (its bonus and its tie rule), for the odds of its result.
    fn initiative_procedure_used(&self) -> Initiative {
        let tie = match (self.last_first_player, self.options.first_turn_tie) {
            (Some(_), _) => TieBreak::KeepLastOrder,
            (None, crate::options::FirstTurnTie::Reroll) => TieBreak::Reroll,
            (None, crate::options::FirstTurnTie::ScenarioFirst(s)) => TieBreak::ScenarioFirst(s),
        };
        Initiative {
            bonus: self.options.initiative_bonus,
            tie,
        }
    }
}

impl Ruleset for Grid {
    type Scenario = Scenario;
    type State = State;
    type Order = Order;
    type Event = Event;
    type Question = Question;
    type SetupError = RuleViolation;
    type RuleError = RuleViolation;

    fn setup(&self, scenario: &Scenario, seed: u64) -> Result<State, RuleViolation> {
        State::new(scenario, seed)
    }

    fn owed(&self, state: &State) -> Option<Decision<Question>> {
        state.decision()
    }

    fn apply_with(
        &self,
        state: &mut State,
        order: &Order,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        // A move, a bombardment target or a skirmish target throws no dice, and once `check_order` (the first
        // thing `apply_order` does) has accepted it nothing in carrying it out can refuse it: it is applied in
        // place, without a copy. A refusal still changes nothing, as it comes from that check before anything is
        // touched; a source that has already failed takes the copying path, which refuses the order as before.
        if dice.fault().is_none()
            && matches!(
                order,
                Order::Move(_) | Order::Bombard(_) | Order::Skirmish(_)
            )
        {
            // The events go straight into the log, which a refusal cuts back to where it was.
            let before = log.len();
            let mut tally = Tally::new(dice);
            let done = state.apply_order(order, &mut tally, log);
            if done.is_err() {
                log.truncate(before);
            }
            return done;
        }
        // Every other order is carried out on a copy that replaces the state only if nothing refused it, so the
        // battle's procedures it calls (command rolls, initiative, bombardment, placing hits, morale tests) work
        // on that copy in place instead of each on a copy of its own.
        // The copy is made into a spare kept per thread from the last such order, so that copying the state
        // keeps the spare's room; the state and the spare change places only when the order is accepted. (An
        // order applied inside another finds no spare and makes one afresh.)
        let mut next = state.spare_copy();
        let before = log.len();
        let mut tally = Tally::new(dice);
        let done = next
            .apply_order(order, &mut tally, log)
            .and_then(|()| fault_check(&tally));
        if done.is_ok() {
            std::mem::swap(state, &mut next);
        } else {
            log.truncate(before);
        }
        next.keep_as_spare();
        done
    }

    fn rng_mut<'s>(&self, state: &'s mut State) -> &'s mut GameRng {
        &mut state.rng
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        state.outcome
    }

    fn losses(&self, state: &State) -> BySide<u32> {
        BySide::new(
            state.battle.losses(Side::Union).stands_lost,
            state.battle.losses(Side::Confederate).stands_lost,
        )
    }
}

/// One line of narration per event (the same as the event's `Display`).
#[must_use]
pub fn narrate(event: &Event) -> String {
    event.to_string()
}

/// The board as text, one line per row of areas (north at the top; on hexes each column's areas are drawn in
/// the rows of the rectangle they fill): `U3` a Union unit of 3 stands, `C2` a Confederate unit of 2, `*` an
/// objective, `#` cover (woods and the like), `^` a hill, `:` broken ground, `=` the road, `.` open ground.
#[must_use]
pub fn board_text(state: &State) -> String {
    let b = state.battle();
    let board = b.board();
    let kind = board.kind();
    let row_of = |a: Area| match kind {
        crate::board::GridKind::Square => a.y,
        crate::board::GridKind::Hex => a.y + a.x.div_euclid(2),
    };
    let areas: Vec<Area> = board.areas().collect();
    let (Some(min_x), Some(max_x)) = (
        areas.iter().map(|a| a.x).min(),
        areas.iter().map(|a| a.x).max(),
    ) else {
        return String::new();
    };
    let (min_r, max_r) = (
        areas.iter().map(|a| row_of(*a)).min().unwrap_or(0),
        areas.iter().map(|a| row_of(*a)).max().unwrap_or(0),
    );
    let mut out = String::new();
    for r in (min_r..=max_r).rev() {
        for x in min_x..=max_x {
            let Some(&a) = areas.iter().find(|a| a.x == x && row_of(**a) == r) else {
                out.push_str("   ");
                continue;
            };
            let cell = if let Some(u) = b.units_at(a).next() {
                let letter = if u.side() == Side::Union { 'U' } else { 'C' };
                format!("{letter}{}", b.stands_in(a).min(9))
            } else if state.victory().objectives().contains(&a) {
                " *".to_string()
            } else {
                let t = board.terrain(a).ok();
                let road = board.neighbours(a).any(|n| board.road_between(a, n));
                let c = match t {
                    Some(t) if t.gives_cover() => '#',
                    Some(t) if t.elevation > 0 => '^',
                    Some(t) if t.ground != crate::tables::Ground::Open => ':',
                    _ if road => '=',
                    _ => '.',
                };
                format!(" {c}")
            };
            out.push_str(&cell);
            out.push(' ');
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::board::GridKind;
    use crate::bots::{Attacker, Holder};
    use acw_core::game::Commander;

    /// A starting unit's name, built piece by piece, reads as the formatted sentence would, for ordinals
    /// across the teens and hundreds.
    #[test]
    fn unit_names_read_as_formatted() {
        for n in (0..=125).chain([1_000, 1_011, 4_294_967_295]) {
            let suffix = match (n % 10, n % 100) {
                (1, 11) | (2, 12) | (3, 13) => "th",
                (1, _) => "st",
                (2, _) => "nd",
                (3, _) => "rd",
                _ => "th",
            };
            for side in [Side::Union, Side::Confederate] {
                assert_eq!(
                    unit_name(&side.to_string(), n, "Cavalry Brigade"),
                    format!("the {side} {n}{suffix} Cavalry Brigade")
                );
            }
        }
        assert_eq!(unit_name("Union", 2, "Battery"), "the Union 2nd Battery");
        assert_eq!(
            unit_name("Confederate", 12, "Brigade"),
            "the Confederate 12th Brigade"
        );
        assert_eq!(unit_name("Union", 23, "Train"), "the Union 23rd Train");
    }

    /// A state copied into another with `clone_from` (as each order that rolls dice is carried out on a spare
    /// copied this way) equals the state copied, whatever the other held: two seeded games are played side by
    /// side on each grid, and at every order each is copied into a copy of the other, into the copy of itself
    /// kept from before its last order, and into a spare whose units were let go (as the game keeps its spare).
    /// The games pass through owed retreats, hits waiting to be placed and retreat questions, so the lists
    /// copied into differ in length both ways.
    #[test]
    fn a_copy_into_another_state_is_that_state() {
        for kind in [GridKind::Square, GridKind::Hex] {
            let mut games = [3u64, 4].map(|seed| {
                (
                    Grid.setup(&Scenario::meeting_engagement(seed, kind), seed)
                        .unwrap(),
                    Attacker::new(seed),
                    Holder::new(seed ^ 1),
                )
            });
            let (mut retreating, mut placing, mut asked) = (0u32, 0u32, 0u32);
            let mut log = Vec::new();
            let mut before: Vec<State> = games.iter().map(|g| g.0.clone()).collect();
            loop {
                for ((state, ..), earlier) in games.iter().zip(&mut before) {
                    earlier.clone_from(state);
                    assert_eq!(*earlier, *state);
                }
                let [(a, ..), (b, ..)] = &games;
                for (from, into) in [(a, b), (b, a)] {
                    let mut copy = into.clone();
                    copy.clone_from(from);
                    assert_eq!(copy, *from);
                    let mut spare = into.clone();
                    spare.battle.let_go_of_units();
                    spare.clone_from(from);
                    assert_eq!(spare, *from);
                    retreating += u32::from(!from.retreats.is_empty());
                    placing += u32::from(from.battle.rolled_combats.is_some());
                    asked += u32::from(from.asked.is_some());
                }
                let mut played = false;
                for (state, attacker, holder) in &mut games {
                    if let Some(side) = Grid.to_order(state) {
                        let order = match side {
                            Side::Union => attacker.order(&Grid, state, side),
                            Side::Confederate => holder.order(&Grid, state, side),
                        };
                        Grid.apply(state, &order, &mut log).unwrap();
                        played = true;
                    }
                }
                if !played {
                    break;
                }
            }
            assert!(retreating > 0, "{kind:?}: {retreating}");
            assert!(placing > 0, "{kind:?}: {placing}");
            assert!(asked > 0, "{kind:?}: {asked}");
        }
    }
}
