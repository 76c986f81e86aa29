//! North's rules as a whole game: [`State`] (the battle, the units' places on the table, the dice), [`Order`]
//! (one decision of the side to order), [`Event`] (what happened, with every toss and its odds), and
//! [`North`], the [`Ruleset`] that ties them together.
//!
//! Decision points follow the turn sequence (NORTH-SEQ-01 to NORTH-SEQ-04): the side in its phase gives its
//! command decisions in one order, then one order per unit action, then one order per attack in each combat
//! category, ending each step with [`Order::EndStep`]. When the units step ends, every unit that still owes
//! its ordered move makes it (NORTH-MOV-03), straight toward (Advance) or away from (Withdraw) the enemy's
//! base edge; when the melee step ends, every unit still in contact attacks (NORTH-MEL-06). The defending side
//! answers morale checks by its standing [`Reactions`], set with [`Order::SetReactions`].
//!
//! ```
//! use acw_core::game::{Commander, play};
//! use acw_core::BySide;
//! use acw_north::bots::{Attacker, Holder};
//! use acw_north::game::North;
//! use acw_north::setup::Scenario;
//!
//! let (mut blue, mut grey) = (Attacker::new(1), Holder::new(2));
//! let game = play(&North, &Scenario::default(), 1863, BySide::new(&mut blue as &mut dyn Commander<North>, &mut grey))?;
//! println!("{}", game.outcome);
//! assert!(game.outcome.turn <= 12);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::combat::{AttackGroup, AttackReport, Category};
use crate::command::{OrderChangeReport, OrderTarget};
use crate::error::{RuleViolation, SetupError};
use crate::field::{Field, Place, Stop};
use crate::melee::{ChargeOrder, ChargeReport};
use crate::morale::{
    Choice, ChoicePolicy, FallBackFacts, MoraleProgress, MoraleReport, MoraleStep, RallyPolicy,
    fault_check,
};
use crate::movement::{ActionReport, MoveDirection, MoveOrder, MoveReport, MoveStop, allowance};
use crate::options::LeaderlessOrders;
use crate::sequence::Step;
use crate::setup::{Scenario, Table as Zones, mg_position};
use crate::state::{Battle, BrigadeId, GeneralId, GunState, Unit, UnitId};
use crate::tables::{BrigadeOrder, FireIntent, Formation, Troop, accomplishment_sixths};
use crate::victory::{GameEnd, StandardEnd};
use acw_core::dice::Dice;
use acw_core::game::{Decision, Outcome, Ruleset};
use acw_core::measure::{Heading, Inches, Point};
use acw_core::table::{Footprint, Table as Ground};
use acw_core::{BySide, GameRng, Side};

/// North's rules, as a [`Ruleset`]. The options travel with the scenario and the state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct North;

/// How a side answers the morale checks of its units (NORTH-CMD-09, NORTH-MOR-05, NORTH-MOR-08): standing
/// decisions, since the checks come in the enemy's phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Reactions {
    /// Whether a general who is with the unit tries to rally it.
    pub rally: bool,
    /// When he tries.
    pub rally_policy: RallyPolicy,
    /// The choice on a 3–4.
    pub choice: ChoicePolicy,
    /// Whether generals with a unit that falls back go with it.
    pub generals_follow: bool,
}

impl Default for Reactions {
    /// Rally whenever it could help, fall back rather than lose the unit, generals follow.
    fn default() -> Self {
        Reactions {
            rally: true,
            rally_policy: RallyPolicy::IfWouldNotRally,
            choice: ChoicePolicy::default(),
            generals_follow: true,
        }
    }
}

/// One command decision (NORTH-SEQ-03 (a)).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CommandAction {
    /// NORTH-CMD-06: the Army Commander, with the brigade or unit, sets its order.
    ArmyCommander {
        /// The brigade, or a unit of a leaderless brigade.
        target: OrderTarget,
        /// The new order.
        order: BrigadeOrder,
    },
    /// NORTH-CMD-07: a brigade's MG tries to change its order (5–6).
    MajorGeneral {
        /// The brigade.
        brigade: BrigadeId,
        /// The order wanted.
        order: BrigadeOrder,
    },
    /// NORTH-CMD-13: a unit of a leaderless brigade tries to change its own order.
    Leaderless {
        /// The unit.
        unit: UnitId,
        /// The order wanted.
        order: BrigadeOrder,
    },
    /// NORTH-CMD-08 / NORTH-CMD-15: a general rides (up to 15") to join a unit, or leaves his unit.
    General {
        /// The general.
        general: GeneralId,
        /// The unit to join (`None`: stay where he is, with no unit).
        with: Option<UnitId>,
    },
}

/// One unit's action in the units step (NORTH-SEQ-03 (b)).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Action {
    /// NORTH-MOV-03: the ordered move, straight along `heading` (which must gain ground toward the enemy's base
    /// edge under Advance, and toward the own edge under Withdraw), as far as the rules allow: the full
    /// allowance, or `distance` under `OrderedMove::UpTo`, stopping short of contact and at the table edge.
    March {
        /// The direction of the move.
        heading: Heading,
        /// Inches wanted (only under `OrderedMove::UpTo`; `None` = all the allowance).
        distance: Option<Inches>,
        /// Whether the unit will fire this phase (skirmishers and dismounted cavalry move less, NORTH-MOV-17).
        fire: bool,
        /// Whether it moves at the pace of its brigade's slowest unit (NORTH-MOV-13).
        conform: bool,
        /// The way it faces at the end (facing changes are free, NORTH-MOV-14); `None` keeps its facing.
        face: Option<Heading>,
    },
    /// NORTH-MOV-07: a formation change (needs the accomplishment toss).
    Formation(Formation),
    /// NORTH-MOV-19: dismount.
    Dismount,
    /// NORTH-MOV-21: remount.
    Remount,
    /// NORTH-MOV-18: skirmishers fall back 10" and form column.
    SkirmisherFallBack,
    /// NORTH-MEL-01 / NORTH-MEL-02: charge an enemy unit.
    Charge {
        /// The enemy unit charged.
        target: UnitId,
    },
    /// NORTH-MOV-15: leave the melee.
    WithdrawFromMelee,
    /// NORTH-MOV-24: an unlimbered battery turns its muzzle, in place.
    PivotGun {
        /// The new facing.
        facing: Heading,
    },
    /// NORTH-ART-07: a crew returns to its abandoned gun (within its 10").
    RemanGun,
    /// Nothing: a Hold unit, a unit in contact, or one that cannot move.
    Stand,
}

/// One decision of the side to order.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Order {
    /// The command step, all at once: its decisions in order; the step then ends.
    Command(Vec<CommandAction>),
    /// The units step: one unit's action.
    Act {
        /// The unit.
        unit: UnitId,
        /// What it does.
        action: Action,
    },
    /// A combat step: units attacking one target together (one toss, NORTH-SEQ-06).
    Attack {
        /// The target.
        target: UnitId,
        /// The attackers.
        attackers: Vec<UnitId>,
    },
    /// Ends the current step (see the module docs for what ending the units and melee steps does).
    EndStep,
    /// The standing answers of the side giving it (the engine reads `generals_follow`; bots answer the
    /// morale questions from the rest).
    SetReactions(Reactions),
    /// The owner of a unit checking morale: this general tries to rally it (NORTH-CMD-09).
    Rally {
        /// The general.
        general: GeneralId,
    },
    /// The owner of a unit checking morale: no (further) rally attempt (NORTH-MOR-02).
    NoRally,
    /// The owner of a unit that tossed 3–4 on morale: lose a stand or fall back (NORTH-MOR-05).
    Choose(Choice),
}

/// What a side is asked to decide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// The command step: orders, order changes, generals' moves, all in one order.
    Command,
    /// The units step: one unit's action, or the end of the step.
    UnitAction,
    /// A combat step: one attack, or the end of the step.
    Attack(Category),
    /// A unit hit in the enemy's phase checks morale: may a general try to rally it (having seen the toss)?
    Rally {
        /// The unit checking.
        unit: UnitId,
        /// Its name.
        name: String,
        /// The morale toss, if thrown yet (rallies are declared before it under NORTH-OPT-15).
        face: Option<u16>,
        /// The modified toss so far.
        total: Option<i16>,
        /// The generals who may try.
        generals: Vec<GeneralId>,
    },
    /// A unit tossed 3–4 on morale: lose a stand or fall back?
    Choice {
        /// The unit.
        unit: UnitId,
        /// Its name.
        name: String,
    },
}

impl std::fmt::Display for Question {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Question::Command => f.write_str(
                "the command step: set orders, try order changes and move generals, in one order",
            ),
            Question::UnitAction => {
                f.write_str("the units step: a unit's move or action, or end the step")
            }
            Question::Attack(c) => write!(f, "the {c} step: an attack, or end the step"),
            Question::Rally {
                name, face, total, ..
            } => match (face, total) {
                (Some(face), Some(total)) => write!(
                    f,
                    "{name} tossed {face} for morale ({total} with modifiers): does a general try to rally it?"
                ),
                _ => write!(
                    f,
                    "{name} must check morale: does a general try to rally it before the toss?"
                ),
            },
            Question::Choice { name, .. } => write!(
                f,
                "{name} tossed 3–4 for morale: does it lose a stand or fall back?"
            ),
        }
    }
}

/// One action a unit may take now, or not, and why not ([`State::actions`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ActionChoice {
    /// The action.
    pub action: Action,
    /// Allowed, or the reason the rules refuse it.
    pub allowed: Result<(), RuleViolation>,
}

/// A dice source for checking orders: it gives no face, and says so.
#[derive(Default)]
struct NoDice {
    fault: Option<acw_core::dice::DiceError>,
}

impl Dice for NoDice {
    fn face(&mut self, die: acw_core::dice::Die) -> u16 {
        if self.fault.is_none() {
            self.fault = Some(acw_core::dice::DiceError::Exhausted(die));
        }
        1
    }

    fn index(&mut self, _n: usize) -> usize {
        0
    }

    fn fault(&self) -> Option<&acw_core::dice::DiceError> {
        self.fault.as_ref()
    }
}

/// What kind of accomplishment-toss action a unit tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Tried {
    /// A formation change.
    Formation(Formation),
    /// Dismounting.
    Dismount,
    /// Remounting.
    Remount,
    /// The skirmisher fall-back.
    SkirmisherFallBack,
    /// Leaving a melee.
    WithdrawFromMelee,
}

/// What happened. Every toss carries its face and the chance of the result it gave.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Event {
    /// A player-phase began.
    PhaseBegan {
        /// The turn.
        turn: u32,
        /// The phasing side.
        side: Side,
    },
    /// A step began.
    StepBegan {
        /// The step.
        step: Step,
    },
    /// A side changed its standing reactions.
    ReactionsSet {
        /// The side.
        side: Side,
        /// Its reactions now.
        reactions: Reactions,
    },
    /// The Army Commander set an order.
    OrderSet {
        /// The brigade or unit.
        target: OrderTarget,
        /// The order.
        order: BrigadeOrder,
    },
    /// An order-change toss (an MG's, or a leaderless unit's).
    OrderToss {
        /// The brigade or unit.
        target: OrderTarget,
        /// The order wanted.
        wanted: BrigadeOrder,
        /// The toss.
        report: OrderChangeReport,
    },
    /// A leaderless unit's check at the start of its phase (NORTH-OPT-19 `CheckEveryPhase`).
    LeaderlessCheck {
        /// The unit.
        unit: UnitId,
        /// Its order now.
        order: BrigadeOrder,
    },
    /// A general moved.
    GeneralMoved {
        /// The general.
        general: GeneralId,
        /// Now with this unit.
        with: Option<UnitId>,
        /// Inches ridden.
        distance: Inches,
    },
    /// A unit moved.
    Moved {
        /// The unit.
        unit: UnitId,
        /// From.
        from: Point,
        /// To.
        to: Point,
        /// The obstacle toss, inches moved.
        report: MoveReport,
        /// Whether the engine moved it because its orders required it.
        ordered_by_engine: bool,
    },
    /// A unit tried an accomplishment-toss action.
    Tried {
        /// The unit.
        unit: UnitId,
        /// What it tried.
        action: Tried,
        /// The toss.
        report: ActionReport,
        /// The chance of success it had.
        chance: f64,
    },
    /// A unit charged.
    Charged {
        /// The charger.
        unit: UnitId,
        /// The unit charged.
        target: UnitId,
        /// The charge toss and what followed.
        report: ChargeReport,
        /// The chance the charge toss had.
        chance: f64,
    },
    /// A unit stood.
    Stood {
        /// The unit.
        unit: UnitId,
    },
    /// A unit that owed its ordered move could not make it.
    CouldNotMove {
        /// The unit.
        unit: UnitId,
        /// Why.
        reason: String,
    },
    /// A battery turned.
    GunPivoted {
        /// The battery.
        unit: UnitId,
        /// Its new facing.
        facing: Heading,
    },
    /// A crew re-manned its gun.
    GunRemanned {
        /// The battery.
        unit: UnitId,
    },
    /// An abandoned gun was captured.
    GunCaptured {
        /// The battery whose gun it was.
        battery: UnitId,
        /// The capturing unit.
        by: UnitId,
    },
    /// A morale check's end: the toss, the rallies tried, the owner's choice and what it did to the unit.
    Morale {
        /// The unit that checked.
        unit: UnitId,
        /// The check from start to finish.
        report: MoraleReport,
    },
    /// An attack: the combat toss with its modifiers (its morale check follows as [`Event::Morale`]).
    Attack {
        /// The category.
        category: Category,
        /// The target.
        target: UnitId,
        /// The attackers.
        attackers: Vec<UnitId>,
        /// Whether the target was behind cover.
        cover: bool,
        /// The toss, its chance (`hit_sixths`) and the morale report.
        report: AttackReport,
    },
    /// A unit fell back.
    FellBack {
        /// The unit.
        unit: UnitId,
        /// From.
        from: Point,
        /// To.
        to: Point,
    },
    /// A battery's gun was left on the table.
    GunAbandoned {
        /// The battery.
        unit: UnitId,
        /// Where the gun stands.
        at: Point,
    },
    /// The game ended.
    GameEnded {
        /// How.
        end: GameEnd,
        /// On which turn.
        turn: u32,
    },
}

thread_local! {
    /// Each general's place as last worked out on this thread (by the general's index), with everything it was
    /// worked out from, as bits: the unit, its centre, facing, frontage and depth, and the brigade's order (all
    /// ones for an army commander). See `State::refresh_generals`.
    static GENERAL_PLACES: std::cell::RefCell<Vec<Option<KeptGeneralPlace>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

thread_local! {
    /// A state to apply the next order to on this thread: the game's state before the last order applied here
    /// (or the refused copy), whose lists are reused. See `North::apply_with`.
    static SPARE_STATE: acw_core::game::Spare<State> = const { acw_core::game::Spare::new() };
}

/// A general's place as `GENERAL_PLACES` keeps it: the inputs as bits, and the place.
type KeptGeneralPlace = ([u64; 7], Point);

/// The whole game in progress: the battle, the units' places on the table, reactions, and the dice to come.
///
/// `clone_from` copies into a state already there without allocating (every list keeps its room, the shared
/// names stay shared): [`North`] applies each order to a spare kept per thread, copied from the game's state
/// this way, so that a refused order changes nothing.
#[derive(Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "StateData"))]
pub struct State {
    battle: Battle,
    field: Field,
    zones: Zones,
    general_points: Vec<Point>,
    reactions: BySide<Reactions>,
    end: Option<GameEnd>,
    /// An attack whose target's owner is deciding (its fall-back is measured already).
    pending: Option<PendingAttack>,
    /// The obligatory melee of the phase's end, interrupted by a morale decision, goes on after it.
    melee_owed: bool,
    /// Whether the first phase has been announced in the log.
    started: bool,
    rng: GameRng,
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            battle: self.battle.clone(),
            field: self.field.clone(),
            zones: self.zones,
            general_points: self.general_points.clone(),
            reactions: self.reactions,
            end: self.end,
            pending: self.pending.clone(),
            melee_owed: self.melee_owed,
            started: self.started,
            rng: self.rng.clone(),
        }
    }
    fn clone_from(&mut self, source: &State) {
        // Destructured so that a field added to `State` cannot be left out here.
        let State {
            battle,
            field,
            zones,
            general_points,
            reactions,
            end,
            pending,
            melee_owed,
            started,
            rng,
        } = source;
        self.battle.clone_from(battle);
        self.field.clone_from(field);
        self.zones = *zones;
        self.general_points.clone_from(general_points);
        self.reactions = *reactions;
        self.end = *end;
        self.pending.clone_from(pending);
        self.melee_owed = *melee_owed;
        self.started = *started;
        self.rng.clone_from(rng);
    }
}

/// An attack waiting for the morale decisions of its target's owner: what the game layer needs to finish it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct PendingAttack {
    target: UnitId,
    heading: Heading,
    room_distance: Inches,
    from: Point,
    was_manned: bool,
}

#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[allow(dead_code)]
struct StateData {
    battle: Battle,
    field: Field,
    zones: Zones,
    general_points: Vec<Point>,
    reactions: BySide<Reactions>,
    end: Option<GameEnd>,
    #[cfg_attr(feature = "serde", serde(default))]
    pending: Option<PendingAttack>,
    #[cfg_attr(feature = "serde", serde(default))]
    melee_owed: bool,
    #[cfg_attr(feature = "serde", serde(default))]
    started: bool,
    rng: GameRng,
}

impl TryFrom<StateData> for State {
    type Error = SetupError;
    fn try_from(d: StateData) -> Result<State, SetupError> {
        let n = d.battle.units().len();
        if d.field.places.len() != n || d.field.guns.len() != n {
            return Err(SetupError::Inconsistent(
                "a place and a gun mark per unit".into(),
            ));
        }
        if d.general_points.len() != d.battle.generals().len() {
            return Err(SetupError::Inconsistent("a position per general".into()));
        }
        d.field.bases.validate()?;
        // A loaded game must be one the rules can continue: the zones setup checks, and every unit in play on
        // the table with a footprint that can be built.
        if !zones_ok(&d.zones)
            || (d.zones.width.0 - d.field.ground.width().0).abs() > 1e-9
            || (d.zones.depth.0 - d.field.ground.depth().0).abs() > 1e-9
        {
            return Err(SetupError::BadZones);
        }
        for u in d.battle.units().iter().filter(|u| u.in_play()) {
            let on_table = d
                .field
                .footprint(&d.battle, u.id())
                .is_some_and(|f| d.field.ground.holds(&f));
            if !on_table {
                return Err(SetupError::PlacementOutside(u.name().to_string()));
            }
        }
        if d.general_points
            .iter()
            .any(|p| !(p.x.is_finite() && p.y.is_finite()))
        {
            return Err(SetupError::Inconsistent(
                "a general stands at no finite place".into(),
            ));
        }
        if d.pending.is_some() != d.battle.morale_in_progress().is_some()
            || d.pending.as_ref().map(|p| p.target) != d.battle.morale_in_progress().map(|m| m.unit)
        {
            return Err(SetupError::Inconsistent(
                "an attack waits for a morale decision exactly when the battle holds one".into(),
            ));
        }
        Ok(State {
            battle: d.battle,
            field: d.field,
            zones: d.zones,
            general_points: d.general_points,
            reactions: d.reactions,
            end: d.end,
            pending: d.pending,
            melee_owed: d.melee_owed,
            started: d.started,
            rng: d.rng,
        })
    }
}

fn zones_ok(z: &Zones) -> bool {
    z.deployment_depth.0.is_finite()
        && z.deployment_depth.0 > 0.0
        && 2.0 * z.deployment_depth.0 < z.depth.0
}

impl State {
    /// NORTH-SET-08 / NORTH-SET-11: the starting state of `scenario`: the battle, every unit placed (by the
    /// scenario, or deployed in a line of brigades in the middle of its zone, facing the enemy), each MG with
    /// the middle unit of his brigade, and the dice seeded from `seed`.
    pub fn new(scenario: &Scenario, seed: u64) -> Result<State, SetupError> {
        let mut battle = scenario.battle()?;
        scenario.bases.validate()?;
        let zones = scenario.table;
        if !zones_ok(&zones) {
            return Err(SetupError::BadZones);
        }
        let ground = Ground::new(zones.width, zones.depth, scenario.terrain.clone())?;
        let n = battle.units().len();
        let mut field = Field {
            ground,
            bases: scenario.bases,
            places: vec![
                Place {
                    centre: Point::new(0.0, 0.0),
                    facing: Heading::NORTH
                };
                n
            ],
            guns: vec![None; n],
        };
        let mut placed = vec![false; n];
        for p in &scenario.placements {
            let id = battle
                .unit_named(&p.unit)
                .map(Unit::id)
                .ok_or_else(|| SetupError::UnknownPlacement(p.unit.clone()))?;
            let i = id.0 as usize;
            if placed.get(i).copied().unwrap_or(true) {
                return Err(SetupError::UnknownPlacement(p.unit.clone()));
            }
            placed[i] = true;
            field.set(
                id,
                Place {
                    centre: p.centre,
                    facing: p.facing,
                },
            );
        }
        deploy(&battle, &mut field, &zones, &placed);
        check_layout(&battle, &field, &zones)?;
        // Each MG starts with the middle unit of his brigade.
        let joins: Vec<(GeneralId, UnitId)> = battle
            .brigades()
            .iter()
            .filter_map(|b| {
                b.units()
                    .get(b.units().len() / 2)
                    .map(|&u| (b.major_general(), u))
            })
            .collect();
        for (g, u) in joins {
            battle
                .general_mut(g)
                .map_err(|e| SetupError::Inconsistent(e.to_string()))?
                .with_unit = Some(u);
        }
        let mut state = State {
            general_points: vec![Point::new(0.0, 0.0); battle.generals().len()],
            battle,
            field,
            zones,
            reactions: BySide::new(Reactions::default(), Reactions::default()),
            end: None,
            pending: None,
            melee_owed: false,
            started: false,
            rng: GameRng::seed(seed),
        };
        state.refresh_generals();
        Ok(state)
    }

    /// The battle: units, brigades, generals, orders, clock.
    #[must_use]
    pub fn battle(&self) -> &Battle {
        &self.battle
    }

    /// The table and the units' places.
    #[must_use]
    pub fn field(&self) -> &Field {
        &self.field
    }

    /// The table's size and deployment zones.
    #[must_use]
    pub fn zones(&self) -> &Zones {
        &self.zones
    }

    /// The step the game is in.
    #[must_use]
    pub fn step(&self) -> Step {
        self.battle.clock().step()
    }

    /// The side in its phase.
    #[must_use]
    pub fn phasing(&self) -> Side {
        self.battle.clock().phasing()
    }

    /// A side's standing reactions.
    #[must_use]
    pub fn reactions(&self, side: Side) -> Reactions {
        self.reactions[side]
    }

    /// How the game ended, if it has.
    #[must_use]
    pub fn end(&self) -> Option<GameEnd> {
        self.end
    }

    /// Where general `id` stands.
    #[must_use]
    pub fn general_point(&self, id: GeneralId) -> Option<Point> {
        self.general_points.get(id.0 as usize).copied()
    }

    /// Whether unit `id` chose to stand this phase.
    #[must_use]
    pub fn stood(&self, id: UnitId) -> bool {
        self.battle.unit(id).is_ok_and(|u| u.phase().excused)
    }

    /// The footprint of unit `id` now.
    #[must_use]
    pub fn footprint(&self, id: UnitId) -> Option<Footprint> {
        self.field.footprint(&self.battle, id)
    }

    /// A unit's order now (its brigade's, or its own when leaderless).
    pub fn order_of(&self, id: UnitId) -> Result<BrigadeOrder, RuleViolation> {
        self.battle.order_of(id)
    }

    /// Whether unit `id` of the phasing side may attack `target` in `category` now, and how it sees it
    /// (NORTH-FIR-01, NORTH-ART-01, NORTH-MEL-06).
    pub fn can_attack(
        &self,
        attacker: UnitId,
        target: UnitId,
        category: Category,
    ) -> Result<crate::combat::Sight, RuleViolation> {
        let t = self.battle.unit(target)?;
        if t.phase()
            .targeted
            .get(category.index())
            .copied()
            .unwrap_or(false)
        {
            return Err(RuleViolation::TargetAlreadyAttacked(target));
        }
        // The cheap conditions first, as if the line were clear; then the line of sight. The refusal is the one
        // the whole check gives: the attacker's own conditions (before any geometry), then range, then arc.
        let mut measured = None;
        if category != Category::Melee {
            use crate::combat::{Screen, Sight};
            use crate::error::AttackRefusal;
            let after_range = |e: &RuleViolation| {
                matches!(
                    e,
                    RuleViolation::CannotAttack {
                        reason: AttackRefusal::MovedTooFar
                            | AttackRefusal::InContact
                            | AttackRefusal::TargetInMelee,
                        ..
                    }
                )
            };
            let mut optimistic = Sight {
                distance: Inches(0.0),
                line_of_sight: true,
                in_arc: true,
                screen: Screen::Clear,
            };
            // Refusals that come before the range is read do not depend on it.
            if let Err(e) = self
                .battle
                .check_attacker(attacker, category, target, &optimistic)
                && !after_range(&e)
            {
                return Err(e);
            }
            let (a, b) = match (self.footprint(attacker), self.footprint(target)) {
                (Some(a), Some(b)) => (a, b),
                _ => return Err(RuleViolation::NotPlaced(attacker)),
            };
            // Out of range on a lower bound of the distance is out of range on the distance itself.
            optimistic.distance = a.distance_at_least(&b);
            if let Err(
                e @ RuleViolation::CannotAttack {
                    reason: AttackRefusal::OutOfRange,
                    ..
                },
            ) = self
                .battle
                .check_attacker(attacker, category, target, &optimistic)
            {
                return Err(e);
            }
            optimistic.distance = a.distance(&b);
            measured = Some(optimistic.distance);
            // With the arc granted, every refusal but one read after the arc is the whole check's.
            if let Err(e) = self
                .battle
                .check_attacker(attacker, category, target, &optimistic)
                && !matches!(
                    e,
                    RuleViolation::CannotAttack {
                        reason: AttackRefusal::TargetInMelee,
                        ..
                    }
                )
            {
                return Err(e);
            }
            optimistic.in_arc = match category {
                Category::Artillery => {
                    crate::combat::in_artillery_arc(&a, &b, self.battle.options())
                }
                _ => crate::combat::in_fire_arc(&a, &b, self.battle.options()),
            };
            self.battle
                .check_attacker(attacker, category, target, &optimistic)?;
        }
        // Outside melee the distance was measured above, between the same two footprints.
        let sight = self
            .field
            .sight_measured(&self.battle, attacker, target, category, measured)
            .ok_or(RuleViolation::NotPlaced(attacker))?;
        self.battle
            .check_attacker(attacker, category, target, &sight)?;
        Ok(sight)
    }

    /// Whether `attacker` is surely out of range of `target` for `category`, so that [`State::can_attack`]
    /// refuses the pair: the distance between the centres less both half-diagonals (the lower bound
    /// [`Footprint::distance_at_least`] gives, worked out from the places and base sizes without building the
    /// footprints) is beyond the attacker's range. `false` says nothing (the attack may still be refused);
    /// `true` only when the attack is refused, whatever else holds: every refusal comes before acceptance, and
    /// the range is checked on a distance no less than this bound.
    pub(crate) fn surely_out_of_range(
        &self,
        attacker: UnitId,
        target: UnitId,
        category: Category,
    ) -> bool {
        use acw_core::Arm;
        let (Ok(a), Ok(t)) = (self.battle.unit(attacker), self.battle.unit(target)) else {
            return false;
        };
        let options = self.battle.options();
        let range = match (category, a.arm()) {
            (Category::Artillery, Arm::Artillery) => match options.artillery_max_range {
                Some(r) => r.0,
                None => return false,
            },
            (Category::Musketry, Arm::Infantry | Arm::Cavalry) => {
                match crate::combat::firer_kind(a) {
                    Some(firer) => crate::tables::musketry_range(firer, options).0,
                    None => return false,
                }
            }
            _ => return false,
        };
        self.distance_at_least(a, t)
            .is_some_and(|bound| bound > range + 1e-9)
    }

    /// Whether `unit` surely cannot charge `target`, so that [`State::can_charge`] refuses the pair: the lower
    /// bound of the distance between them (see [`State::surely_out_of_range`]) is beyond the unit's charge
    /// reach. `false` says nothing.
    pub(crate) fn surely_beyond_charge_reach(&self, unit: UnitId, target: UnitId) -> bool {
        let (Ok(u), Ok(t)) = (self.battle.unit(unit), self.battle.unit(target)) else {
            return false;
        };
        let reach =
            crate::movement::charge_reach(u.troop(), self.battle.options()).unwrap_or(Inches(0.0));
        self.distance_at_least(u, t)
            .is_some_and(|bound| bound > reach.0 + 1e-9)
    }

    /// [`Footprint::distance_at_least`] of the two units' footprints, from their places and base sizes (the
    /// same sums, without building the footprints); `None` when either has no place.
    fn distance_at_least(&self, a: &Unit, b: &Unit) -> Option<f64> {
        let (pa, pb) = (self.field.place(a.id())?, self.field.place(b.id())?);
        let reach = |u: &Unit| {
            let (w, d) = self.field.bases.size(u);
            (w.0 * w.0 + d.0 * d.0).sqrt() / 2.0
        };
        let (dx, dy) = (pb.centre.x - pa.centre.x, pb.centre.y - pa.centre.y);
        Some(((dx * dx + dy * dy).sqrt() - reach(a) - reach(b) - 1e-9).max(0.0))
    }

    /// Whether unit `id` may charge `target` now: a legal charger, an enemy within reach (NORTH-MEL-01,
    /// NORTH-MEL-03). Gives the measured charge.
    pub fn can_charge(&self, unit: UnitId, target: UnitId) -> Result<ChargeOrder, RuleViolation> {
        self.battle.check_charger(unit)?;
        let u = self.battle.unit(unit)?;
        let t = self.battle.unit(target)?;
        if !t.in_play() || t.side() == u.side() {
            return Err(RuleViolation::BadTarget(target));
        }
        let (a, b) = match (self.footprint(unit), self.footprint(target)) {
            (Some(a), Some(b)) => (a, b),
            _ => return Err(RuleViolation::NotPlaced(unit)),
        };
        let reach =
            crate::movement::charge_reach(u.troop(), self.battle.options()).unwrap_or(Inches(0.0));
        let out_of_reach = Err(RuleViolation::CannotCharge {
            unit,
            reason: crate::error::ChargeRefusal::OutOfReach,
        });
        // Beyond reach on a lower bound of the distance is beyond reach on the distance itself.
        if a.distance_at_least(&b).0 > reach.0 + 1e-9 {
            return out_of_reach;
        }
        let distance = a.distance(&b);
        if distance.0 > reach.0 + 1e-9 {
            return out_of_reach;
        }
        let obstacles = u8::try_from(
            self.field
                .ground
                .obstacles_crossed(a.front_centre(), b.centre)
                .count(),
        )
        .unwrap_or(u8::MAX);
        Ok(ChargeOrder {
            distance,
            target_in_cover: self.field.in_cover(&self.battle, target, unit),
            obstacles,
        })
    }

    /// Whether unit `id` may stand this phase: under Hold, in contact, or with no move allowed.
    pub fn may_stand(&self, id: UnitId) -> Result<(), RuleViolation> {
        self.battle.check_stand(id)
    }

    /// Whether the rules would accept `order` now, without throwing a die: the order is tried on a copy up to
    /// its first die, which is where every refusal is decided. The same checks as [`North`]'s `apply`.
    pub fn check_order(&self, order: &Order) -> Result<(), RuleViolation> {
        let mut copy = self.spare_copy();
        let mut no_dice = NoDice::default();
        let checked = match copy.apply_order(order, &mut no_dice, &mut Vec::new()) {
            Err(RuleViolation::Dice(_)) => Ok(()),
            other => other,
        };
        copy.keep_as_spare();
        checked
    }

    /// A copy of this state, made into this thread's spare (`SPARE_STATE`) where one is kept, which allocates
    /// nothing; afresh otherwise.
    fn spare_copy(&self) -> State {
        SPARE_STATE.with(|spare| spare.copy_of(self))
    }

    /// Keeps this state as this thread's spare, for the next [`State::spare_copy`] to copy into.
    fn keep_as_spare(self) {
        SPARE_STATE.with(|spare| spare.keep(self));
    }

    /// How far unit `unit` would move if it took `action` now (a march), without throwing a die: the order is
    /// tried on a copy. `None` when the order is refused, is no march, or reaches a die (an obstacle toss).
    #[must_use]
    pub fn march_preview(&self, unit: UnitId, action: Action) -> Option<Inches> {
        if !matches!(action, Action::March { .. }) {
            return None;
        }
        let mut copy = self.spare_copy();
        let mut log = Vec::new();
        let applied = copy.apply_order(
            &Order::Act { unit, action },
            &mut NoDice::default(),
            &mut log,
        );
        copy.keep_as_spare();
        applied.ok()?;
        log.iter().find_map(|e| match e {
            Event::Moved {
                unit: u, report, ..
            } if *u == unit => Some(report.moved),
            _ => None,
        })
    }

    /// What unit `id` may do now (NORTH-SEQ-03 (b)): every action of the units step, each allowed or refused
    /// with the reason — one answer for a UI, consistent with what [`North`] accepts. Moves are listed straight
    /// along the ordered heading (toward the enemy's edge under Hold, where they are refused), guns pivot toward
    /// the nearest enemy, and a charge is listed against every enemy unit in play.
    pub fn actions(&self, id: UnitId) -> Vec<ActionChoice> {
        use strum::IntoEnumIterator;
        let Ok(u) = self.battle.unit(id) else {
            return Vec::new();
        };
        let side = u.side();
        let heading = self
            .ordered_heading(id)
            .unwrap_or_else(|| Field::toward_enemy(side));
        let nearest = self.footprint(id).and_then(|me| {
            self.battle
                .units_in_play(side.enemy())
                .filter_map(|e| self.footprint(e.id()))
                .min_by(|a, b| {
                    me.centre
                        .distance(a.centre)
                        .0
                        .total_cmp(&me.centre.distance(b.centre).0)
                })
                .map(|e| me.centre.heading_to(e.centre))
        });
        let mut candidates = vec![
            Action::Stand,
            Action::March {
                heading,
                distance: None,
                fire: false,
                conform: false,
                face: None,
            },
        ];
        candidates.extend(Formation::iter().map(Action::Formation));
        candidates.extend([
            Action::Dismount,
            Action::Remount,
            Action::SkirmisherFallBack,
            Action::WithdrawFromMelee,
            Action::RemanGun,
            Action::PivotGun {
                facing: nearest.unwrap_or(heading),
            },
        ]);
        candidates.extend(
            self.battle
                .units_in_play(side.enemy())
                .map(|e| Action::Charge { target: e.id() }),
        );
        candidates
            .into_iter()
            .map(|action| ActionChoice {
                allowed: self.check_order(&Order::Act { unit: id, action }),
                action,
            })
            .collect()
    }

    /// The heading of the ordered move straight toward (Advance) or away from (Withdraw) the enemy's base
    /// edge, or `None` under Hold.
    #[must_use]
    pub fn ordered_heading(&self, id: UnitId) -> Option<Heading> {
        let side = self.battle.unit(id).ok()?.side();
        match self.battle.order_of(id).ok()? {
            BrigadeOrder::Advance => Some(Field::toward_enemy(side)),
            BrigadeOrder::Withdraw => Some(Field::toward_enemy(side).reversed()),
            BrigadeOrder::Hold => None,
        }
    }

    /// Works out where each general with a unit in play stands: by its unit's footprint, at the place its rank
    /// and (for a major general) its brigade's order give ([`mg_position`]). A place is a function of the unit's
    /// centre, facing and base size, the rank and the order alone, and most orders move no general's unit: a
    /// place worked out from the same inputs, bit for bit, is read back from a per-thread memory.
    fn refresh_generals(&mut self) {
        GENERAL_PLACES.with(|memo| {
            let mut memo = memo.borrow_mut();
            if memo.len() < self.general_points.len() {
                memo.resize(self.general_points.len(), None);
            }
            for (i, g) in self.battle.generals().iter().enumerate() {
                let Some(uid) = g.with_unit() else { continue };
                let Ok(u) = self.battle.unit(uid) else {
                    continue;
                };
                if !u.in_play() {
                    continue;
                }
                let Some(place) = self.field.places.get(uid.0 as usize) else {
                    continue;
                };
                let (frontage, depth) = self.field.bases.size(u);
                let order = match g.rank() {
                    crate::state::Rank::MajorGeneral(b) => Some(
                        self.battle
                            .brigade(b)
                            .map(|b| b.order())
                            .unwrap_or(BrigadeOrder::Hold),
                    ),
                    crate::state::Rank::ArmyCommander => None,
                };
                let key = [
                    u64::from(uid.0),
                    place.centre.x.to_bits(),
                    place.centre.y.to_bits(),
                    place.facing.as_degrees().to_bits(),
                    frontage.0.to_bits(),
                    depth.0.to_bits(),
                    order.map_or(u64::MAX, |o| o as u64),
                ];
                let kept = memo.get(i).copied().flatten();
                let point = match kept {
                    Some((k, p)) if k == key => p,
                    _ => {
                        let Ok(f) = Footprint::new(place.centre, place.facing, frontage, depth)
                        else {
                            continue;
                        };
                        let offset = Inches(f.depth.0 / 2.0 + 0.5);
                        let point = match order {
                            Some(order) => mg_position(f.centre, f.facing, order, offset).0,
                            None => f.centre.moved(f.facing.reversed(), Inches(offset.0 + 0.75)),
                        };
                        if let Some(slot) = memo.get_mut(i) {
                            *slot = Some((key, point));
                        }
                        point
                    }
                };
                if let Some(p) = self.general_points.get_mut(i) {
                    *p = point;
                }
            }
        });
    }

    /// The side that owes the next decision: the owner of a unit checking morale, else the phasing side.
    pub fn side_to_decide(&self) -> Side {
        self.battle
            .morale_in_progress()
            .and_then(|m| self.battle.unit(m.unit).ok())
            .map_or_else(|| self.phasing(), Unit::side)
    }

    /// What the side to decide is asked (see [`Question`]).
    #[must_use]
    pub fn question(&self) -> Question {
        if let Some(m) = self.battle.morale_in_progress() {
            let name = self
                .battle
                .unit(m.unit)
                .map_or_else(|_| m.unit.to_string(), |u| u.name().to_string());
            return match self.battle.morale_step() {
                Some(MoraleStep::Choice) => Question::Choice { unit: m.unit, name },
                _ => Question::Rally {
                    unit: m.unit,
                    name,
                    face: m.face,
                    total: m.total(),
                    generals: self.battle.rally_candidates(),
                },
            };
        }
        match self.step() {
            Step::Command => Question::Command,
            Step::Units => Question::UnitAction,
            Step::Artillery => Question::Attack(Category::Artillery),
            Step::Musketry => Question::Attack(Category::Musketry),
            Step::Melee => Question::Attack(Category::Melee),
        }
    }

    fn apply_order(
        &mut self,
        order: &Order,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        if self.end.is_some() || self.battle.is_over() {
            return Err(RuleViolation::GameOver);
        }
        if !self.started {
            self.started = true;
            log.push(Event::PhaseBegan {
                turn: self.battle.clock().turn(),
                side: self.phasing(),
            });
        }
        let step = self.step();
        match order {
            Order::SetReactions(r) => {
                let side = self.side_to_decide();
                self.reactions[side] = *r;
                log.push(Event::ReactionsSet {
                    side,
                    reactions: *r,
                });
            }
            Order::Rally { general } => {
                let progress = self.battle.rally_inner(*general, dice)?;
                self.after_morale(progress, dice, log)?;
            }
            Order::NoRally => {
                let progress = self.battle.end_rallies_inner(dice)?;
                self.after_morale(progress, dice, log)?;
            }
            Order::Choose(choice) => {
                let report = self.battle.choose_inner(*choice, dice)?;
                self.after_morale(MoraleProgress::Done(report), dice, log)?;
            }
            _ if self.pending.is_some() => return Err(RuleViolation::MoralePending),
            Order::Command(actions) => {
                if step != Step::Command {
                    return Err(RuleViolation::NotThisStep { step });
                }
                for a in actions {
                    self.command(a.clone(), dice, log)?;
                }
                self.next_step(log)?;
            }
            Order::Act { unit, action } => {
                if step != Step::Units {
                    return Err(RuleViolation::NotThisStep { step });
                }
                self.act(*unit, *action, dice, log)?;
            }
            Order::Attack { target, attackers } => {
                let category = match step {
                    Step::Artillery => Category::Artillery,
                    Step::Musketry => Category::Musketry,
                    Step::Melee => Category::Melee,
                    _ => return Err(RuleViolation::NotThisStep { step }),
                };
                self.attack(category, *target, attackers.clone(), dice, log)?;
            }
            Order::EndStep => self.end_step(dice, log)?,
        }
        for u in self.battle.units().iter().filter(|u| u.in_play()) {
            self.field.settle(&self.battle, u.id());
        }
        self.refresh_generals();
        Ok(())
    }

    fn next_step(&mut self, log: &mut Vec<Event>) -> Result<(), RuleViolation> {
        let step = self.battle.next_step()?;
        log.push(Event::StepBegan { step });
        Ok(())
    }

    fn command(
        &mut self,
        action: CommandAction,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        let side = self.phasing();
        match action {
            CommandAction::ArmyCommander { target, order } => {
                self.battle.army_commander_sets_order(side, target, order)?;
                log.push(Event::OrderSet { target, order });
            }
            CommandAction::MajorGeneral { brigade, order } => {
                let report = self
                    .battle
                    .attempt_order_change_inner(brigade, order, dice)?;
                log.push(Event::OrderToss {
                    target: OrderTarget::Brigade(brigade),
                    wanted: order,
                    report,
                });
            }
            CommandAction::Leaderless { unit, order } => {
                let report = self
                    .battle
                    .attempt_unit_order_change_inner(unit, order, dice)?;
                log.push(Event::OrderToss {
                    target: OrderTarget::Unit(unit),
                    wanted: order,
                    report,
                });
            }
            CommandAction::General { general, with } => {
                let from = self
                    .general_point(general)
                    .ok_or(RuleViolation::UnknownGeneral(general))?;
                let distance = match with {
                    Some(u) => self
                        .footprint(u)
                        .ok_or(RuleViolation::NotPlaced(u))?
                        .distance_to(from),
                    None => Inches(0.0),
                };
                self.battle.move_general(general, distance, with)?;
                log.push(Event::GeneralMoved {
                    general,
                    with,
                    distance,
                });
            }
        }
        Ok(())
    }

    fn chance(&self, id: UnitId, charge_cover: bool) -> f64 {
        self.battle.unit(id).map_or(0.0, |u| {
            f64::from(accomplishment_sixths(
                u.capacity(self.battle.options()),
                charge_cover,
            )) / 6.0
        })
    }

    fn act(
        &mut self,
        id: UnitId,
        action: Action,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        let tried = |what: Tried, report: ActionReport, chance: f64, log: &mut Vec<Event>| {
            log.push(Event::Tried {
                unit: id,
                action: what,
                report,
                chance,
            });
        };
        match action {
            Action::March {
                heading,
                distance,
                fire,
                conform,
                face,
            } => self.march(id, heading, distance, fire, conform, face, false, dice, log)?,
            Action::Formation(to) => {
                let chance = self.chance(id, false);
                let report = self.battle.attempt_formation_change_inner(id, to, dice)?;
                tried(Tried::Formation(to), report, chance, log);
            }
            Action::Dismount => {
                let chance = self.chance(id, false);
                let report = self.battle.attempt_dismount_inner(id, dice)?;
                tried(Tried::Dismount, report, chance, log);
            }
            Action::Remount => {
                let chance = self.chance(id, false);
                let report = self.battle.attempt_remount_inner(id, dice)?;
                tried(Tried::Remount, report, chance, log);
            }
            Action::SkirmisherFallBack => {
                let chance = self.chance(id, false);
                let contacts = self.battle.unit(id)?.contacts().to_vec();
                let heading = self.field.fall_back_heading(&self.battle, id, &contacts);
                let room = self
                    .field
                    .room(
                        &self.battle,
                        id,
                        heading,
                        crate::tables::SKIRMISH_FALL_BACK,
                        self.battle.options().contact_gap,
                    )
                    .0;
                let from = self.footprint(id).map(|f| f.centre);
                let report = self.battle.attempt_skirmisher_fall_back_inner(id, dice)?;
                tried(Tried::SkirmisherFallBack, report, chance, log);
                if report.success {
                    let facing = self.field.place(id).map_or(heading, |p| p.facing);
                    self.field.shift(id, heading, room, facing);
                    self.log_fall_back(id, from, log);
                }
            }
            Action::WithdrawFromMelee => {
                let chance = self.chance(id, false);
                let u = self.battle.unit(id)?;
                let contacts = u.contacts().to_vec();
                let full = allowance(u, FireIntent::NoFire, self.battle.options());
                let heading = self.field.fall_back_heading(&self.battle, id, &contacts);
                let room = self
                    .field
                    .room(
                        &self.battle,
                        id,
                        heading,
                        full,
                        self.battle.options().contact_gap,
                    )
                    .0;
                let from = self
                    .footprint(id)
                    .map(|f| f.centre)
                    .ok_or(RuleViolation::NotPlaced(id))?;
                let obstacles = u8::try_from(
                    self.field
                        .obstacles_on(from, from.moved(heading, room))
                        .len(),
                )
                .unwrap_or(u8::MAX);
                let report = self
                    .battle
                    .attempt_withdraw_from_melee_inner(id, room, obstacles, dice)?;
                tried(Tried::WithdrawFromMelee, report, chance, log);
                if report.success {
                    let facing = self.field.place(id).map_or(heading, |p| p.facing);
                    self.field.shift(id, heading, room, facing);
                    log.push(Event::Moved {
                        unit: id,
                        from,
                        to: from.moved(heading, room),
                        report: MoveReport {
                            obstacle: None,
                            moved: room,
                            left_table: false,
                        },
                        ordered_by_engine: false,
                    });
                }
            }
            Action::Charge { target } => {
                let order = self.can_charge(id, target)?;
                let chance = self.chance(id, order.target_in_cover);
                let report = self.battle.attempt_charge_inner(id, target, order, dice)?;
                if report.contact
                    && let (Some(me), Some(them)) = (self.footprint(id), self.footprint(target))
                {
                    let turned = me.placed_in_contact(&them);
                    // Turning to face the target must not take it off the table; if it would, it closes straight.
                    let f = if self.field.ground.holds(&turned) {
                        turned
                    } else {
                        let straight = me.placed(me.centre, me.facing);
                        let gap = me.distance(&them);
                        straight.placed(
                            me.centre.moved(me.centre.heading_to(them.centre), gap),
                            me.facing,
                        )
                    };
                    self.field.set(
                        id,
                        Place {
                            centre: f.centre,
                            facing: f.facing,
                        },
                    );
                }
                log.push(Event::Charged {
                    unit: id,
                    target,
                    report,
                    chance,
                });
            }
            Action::PivotGun { facing } => {
                self.battle.pivot_gun(id)?;
                if let Some(p) = self.field.place(id) {
                    self.field.set(id, Place { facing, ..p });
                }
                log.push(Event::GunPivoted { unit: id, facing });
            }
            Action::RemanGun => {
                let gun = self
                    .field
                    .guns
                    .get(id.0 as usize)
                    .copied()
                    .flatten()
                    .ok_or(RuleViolation::GunNotAbandoned(id))?;
                let distance = self
                    .footprint(id)
                    .ok_or(RuleViolation::NotPlaced(id))?
                    .distance_to(gun);
                self.battle.reman_gun(id, distance)?;
                if let Some(p) = self.field.place(id) {
                    self.field.set(id, Place { centre: gun, ..p });
                }
                if let Some(g) = self.field.guns.get_mut(id.0 as usize) {
                    *g = None;
                }
                log.push(Event::GunRemanned { unit: id });
            }
            Action::Stand => {
                self.battle.stand(id)?;
                log.push(Event::Stood { unit: id });
            }
        }
        Ok(())
    }

    /// NORTH-MOV-03 / NORTH-MOV-09 / NORTH-MOV-11 / NORTH-MOV-12 / NORTH-MOV-14: measures an ordered move on
    /// the table and makes it.
    #[allow(clippy::too_many_arguments)]
    fn march(
        &mut self,
        id: UnitId,
        heading: Heading,
        distance: Option<Inches>,
        fire: bool,
        conform: bool,
        face: Option<Heading>,
        by_engine: bool,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        let u = self.battle.unit(id)?;
        let side = u.side();
        let intent = if fire {
            FireIntent::Fire
        } else {
            FireIntent::NoFire
        };
        let options = self.battle.options();
        let own = allowance(u, intent, options);
        let limit = if conform {
            Inches(
                self.battle
                    .brigade_conform_allowance(u.brigade())?
                    .0
                    .min(own.0),
            )
        } else {
            own
        };
        if let Some(d) = distance
            && !(d.0.is_finite() && d.0 >= 0.0)
        {
            return Err(RuleViolation::BadLength(d.0));
        }
        let want = Inches(distance.map_or(limit.0, |d| d.0.min(limit.0)));
        let gap = options.contact_gap;
        // Facing changes are free (NORTH-MOV-14): the unit turns in place first, if it has room to.
        if let (Some(f), Some(place)) = (face, self.field.place(id)) {
            let turned = self.footprint(id).map(|fp| fp.placed(fp.centre, f));
            let others: Vec<Footprint> = self
                .field
                .others(&self.battle, &[id])
                .into_iter()
                .map(|(_, o)| o)
                .collect();
            let fits = turned.is_some_and(|t| {
                self.field.ground.holds(&t)
                    && others.iter().all(|o| {
                        // Apart on the lower bound is apart.
                        t.distance_at_least(o).0 > 0.0
                            || t.distance(o).0 > 0.0
                            || self.footprint(id).is_some_and(|me| me.distance(o).0 <= 0.0)
                    })
            });
            if fits {
                self.field.set(id, Place { facing: f, ..place });
            }
        }
        let keep = self.ordered_heading(id);
        let mut route = self.field.route(&self.battle, id, heading, want, gap, keep);
        // Within a millionth of an inch, no move is no move (its direction would be noise) and the full move is
        // the full move (the slide's last step can fall short by rounding).
        let got = route.length();
        if got.0 < 1e-6 {
            route.legs = [(heading, Inches(0.0)), (heading, Inches(0.0))];
        } else if got.0 > want.0 - 1e-6 {
            if route.legs[1].1.0 == 0.0 {
                route.legs[0].1 = want;
            } else {
                route.legs[1].1 = Inches(want.0 - route.legs[0].1.0);
            }
            route.stop = None;
        }
        let (got, mut stop) = (route.length(), route.stop);
        if by_engine && got.0 == 0.0 {
            let at_edge = stop.is_some_and(|s| s.edge);
            // NORTH-OPT-36: a withdrawing unit already at its own edge leaves play with its move of nothing.
            let leaves = at_edge
                && options.exit_table_on_withdraw
                && self.battle.order_of(id)? == BrigadeOrder::Withdraw;
            if !leaves {
                return Err(if at_edge {
                    RuleViolation::AtTableEdge(id)
                } else {
                    RuleViolation::NoWay(id)
                });
            }
            // The edge stops it (every slide meets the edge, so enemies "alone" would seem to as well).
            stop = Some(Stop {
                edge: true,
                enemy: false,
            });
        }
        let from = self
            .footprint(id)
            .ok_or(RuleViolation::NotPlaced(id))?
            .centre;
        let to = route.point_at(from, got);
        let corner = route.corner(from);
        let would_contact = stop.is_some_and(|s| s.enemy);
        let stopped_by = match stop {
            None => (conform && limit.0 < own.0).then_some(MoveStop::Conform),
            Some(Stop {
                enemy: false,
                edge: true,
            }) => Some(MoveStop::TableEdge),
            Some(_) => Some(MoveStop::ContactGap),
        };
        let gain = self.zones.gain_toward_enemy(side, from, to);
        let direction = if gain > 1e-6 {
            MoveDirection::TowardEnemy
        } else if gain < -1e-6 {
            MoveDirection::AwayFromEnemy
        } else {
            MoveDirection::Other
        };
        let mut obstacles_at = self.field.obstacles_on(from, corner);
        if route.legs[1].1.0 > 0.0 {
            let first = route.legs[0].1;
            obstacles_at.extend(
                self.field
                    .obstacles_on(corner, to)
                    .into_iter()
                    .map(|d| Inches(d.0 + first.0)),
            );
        }
        let order = MoveOrder {
            distance: got,
            direction: Some(direction),
            intent,
            obstacles_at,
            crosses_rough: self.field.crosses_rough(from, corner)
                || (route.legs[1].1.0 > 0.0 && self.field.crosses_rough(corner, to)),
            stopped_by,
            would_contact,
        };
        let report = self.battle.move_unit_inner(id, &order, dice)?;
        let facing = face
            .or_else(|| self.field.place(id).map(|p| p.facing))
            .unwrap_or(heading);
        let end = route.point_at(from, report.moved);
        self.field.set(
            id,
            Place {
                centre: end,
                facing,
            },
        );
        log.push(Event::Moved {
            unit: id,
            from,
            to: end,
            report,
            ordered_by_engine: by_engine,
        });
        self.capture_guns(id, log);
        Ok(())
    }

    /// NORTH-ART-08: an infantry or cavalry unit that ends a move touching an abandoned enemy gun takes it.
    fn capture_guns(&mut self, id: UnitId, log: &mut Vec<Event>) {
        if !self.battle.options().enemy_captures_abandoned_guns {
            return;
        }
        let Some(me) = self.footprint(id) else { return };
        let Ok(side) = self.battle.unit(id).map(Unit::side) else {
            return;
        };
        let reach = self.battle.options().contact_gap.0 + 0.01;
        let guns: Vec<(UnitId, Point)> = self
            .field
            .guns
            .iter()
            .enumerate()
            .filter_map(|(i, g)| g.map(|p| (UnitId(i as u32), p)))
            .collect();
        for (battery, at) in guns {
            let theirs = self.battle.unit(battery).is_ok_and(|b| b.side() != side);
            if theirs
                && me.distance_to(at).0 <= reach
                && self.battle.capture_gun(id, battery).is_ok()
            {
                if let Some(g) = self.field.guns.get_mut(battery.0 as usize) {
                    *g = None;
                }
                log.push(Event::GunCaptured { battery, by: id });
            }
        }
    }

    fn attack(
        &mut self,
        category: Category,
        target: UnitId,
        attackers: Vec<UnitId>,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        let mut sights = Vec::with_capacity(attackers.len());
        for &a in &attackers {
            sights.push(
                self.field
                    .sight(&self.battle, a, target, category)
                    .ok_or(RuleViolation::NotPlaced(a))?,
            );
        }
        let cover = !attackers.is_empty()
            && attackers
                .iter()
                .all(|&a| self.field.in_cover(&self.battle, target, a));
        let t = self.battle.unit(target)?;
        let defender = t.side();
        let fall = if t.troop() == Troop::MountedCavalry {
            Inches(15.0)
        } else {
            Inches(10.0)
        };
        let heading = self
            .field
            .fall_back_heading(&self.battle, target, &attackers);
        let from = self
            .footprint(target)
            .ok_or(RuleViolation::NotPlaced(target))?
            .centre;
        let generals_follow = self.reactions[defender].generals_follow;
        let group = AttackGroup {
            category,
            target,
            attackers: attackers.clone(),
        };
        let was_manned = matches!(self.battle.unit(target)?.gun(), Some(GunState::Manned));
        let nearby = self.generals_near(target);
        // The fall-back's room is measured only on a hit, when the morale check opens. Until then the attack
        // has marked who attacked and who was targeted, and no unit has moved, changed formation or lost a
        // stand: the room is the one the table shows before the toss.
        let field = &self.field;
        let mut room_distance = Inches(0.0);
        let measure = |battle: &Battle| {
            let (room, got) = field.fall_back_room(battle, target, heading, fall);
            room_distance = got;
            FallBackFacts {
                room,
                obstacles: u8::try_from(field.obstacles_on(from, from.moved(heading, got)).len())
                    .unwrap_or(u8::MAX),
                generals_follow,
            }
        };
        let mut report = self
            .battle
            .open_attack_inner(&group, &sights, cover, measure, nearby, dice)?;
        let finished = report.morale.take();
        let hit = report.hit;
        log.push(Event::Attack {
            category,
            target,
            attackers,
            cover,
            report,
        });
        if hit {
            self.pending = Some(PendingAttack {
                target,
                heading,
                room_distance,
                from,
                was_manned,
            });
        }
        if let Some(morale) = finished {
            self.finish_attack(morale, log);
        }
        Ok(())
    }

    /// A decision on a morale check was made: if the check is over, the attack is finished on the table (gun
    /// left, fall-back made), and an obligatory melee it interrupted goes on.
    fn after_morale(
        &mut self,
        progress: MoraleProgress,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        if let MoraleProgress::Done(report) = progress {
            self.finish_attack(report, log);
            if self.melee_owed {
                self.continue_melee(dice, log)?;
            }
        }
        Ok(())
    }

    /// NORTH-MOR-07 / NORTH-ART-06: the morale check is over: its event, the gun left behind, the fall-back
    /// made on the table.
    fn finish_attack(&mut self, morale: MoraleReport, log: &mut Vec<Event>) {
        let Some(p) = self.pending.take() else {
            return;
        };
        let effect = morale.effect;
        log.push(Event::Morale {
            unit: p.target,
            report: morale,
        });
        let abandoned = matches!(
            self.battle.unit(p.target).map(Unit::gun),
            Ok(Some(GunState::Abandoned { .. }))
        );
        if p.was_manned && abandoned {
            if let Some(g) = self.field.guns.get_mut(p.target.0 as usize) {
                *g = Some(p.from);
            }
            log.push(Event::GunAbandoned {
                unit: p.target,
                at: p.from,
            });
        }
        if let Some(d) = effect.fell_back
            && !effect.removed
            && !effect.left_table
        {
            let go = Inches(d.0.min(p.room_distance.0));
            let facing = self.field.place(p.target).map_or(p.heading, |pl| pl.facing);
            self.field.shift(p.target, p.heading, go, facing);
            log.push(Event::FellBack {
                unit: p.target,
                from: p.from,
                to: p.from.moved(p.heading, go),
            });
        }
    }

    /// NORTH-OPT-16 / NORTH-CMD-08: the generals of the unit's side who stand within `with_distance` of its
    /// footprint without being attached to it (with the default of 0", none: "with" is touching, which the
    /// attachment stands for).
    fn generals_near(&self, unit: UnitId) -> Vec<GeneralId> {
        let Some(f) = self.footprint(unit) else {
            return Vec::new();
        };
        let Ok(side) = self.battle.unit(unit).map(Unit::side) else {
            return Vec::new();
        };
        let options = self.battle.options();
        if options.with_distance.0 <= 0.0 {
            return Vec::new();
        }
        self.battle
            .generals()
            .iter()
            .filter(|g| g.side() == side && g.is_active() && g.with_unit() != Some(unit))
            .filter(|g| {
                self.general_point(g.id())
                    .is_some_and(|p| crate::command::general_is_with(f.distance_to(p), options))
            })
            .map(|g| g.id())
            .collect()
    }

    fn log_fall_back(&self, id: UnitId, from: Option<Point>, log: &mut Vec<Event>) {
        if let (Some(from), Some(to)) = (from, self.footprint(id).map(|f| f.centre)) {
            log.push(Event::FellBack { unit: id, from, to });
        }
    }

    fn end_step(&mut self, dice: &mut dyn Dice, log: &mut Vec<Event>) -> Result<(), RuleViolation> {
        match self.step() {
            Step::Command | Step::Artillery | Step::Musketry => self.next_step(log),
            Step::Units => {
                self.ordered_moves(dice, log)?;
                self.next_step(log)
            }
            Step::Melee => self.continue_melee(dice, log),
        }
    }

    /// NORTH-MOV-03 / NORTH-MOV-09: every unit of the phasing side that still owes its ordered move makes it,
    /// straight toward (Advance) or away from (Withdraw) the enemy's base edge.
    fn ordered_moves(
        &mut self,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        for id in self.battle.owed_moves() {
            let Some(heading) = self.ordered_heading(id) else {
                continue;
            };
            let before = log.len();
            match self.march(id, heading, None, false, false, None, true, dice, log) {
                Ok(()) => {}
                Err(RuleViolation::Dice(e)) => return Err(RuleViolation::Dice(e)),
                Err(e) => {
                    log.truncate(before);
                    log.push(Event::CouldNotMove {
                        unit: id,
                        reason: e.to_string(),
                    });
                    self.battle.excuse_move(id)?;
                }
            }
        }
        Ok(())
    }

    /// NORTH-MEL-06: the obligatory melee, then the end of the phase; paused (and taken up again) when an
    /// attack waits for the defender's morale decisions.
    fn continue_melee(
        &mut self,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        self.melee_owed = false;
        if self.obligatory_melee(dice, log)? {
            self.end_phase(dice, log)
        } else {
            self.melee_owed = true;
            Ok(())
        }
    }

    /// NORTH-MEL-06: every phasing unit still in contact attacks an enemy it touches, together with the other
    /// phasing units touching that enemy. Returns false when an attack waits for the defender's decision.
    fn obligatory_melee(
        &mut self,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<bool, RuleViolation> {
        let side = self.phasing();
        loop {
            let mut next: Option<(UnitId, Vec<UnitId>)> = None;
            for u in self.battle.units_in_play(side) {
                if u.phase().attacked.is_some() {
                    continue;
                }
                for &t in u.contacts() {
                    if self.can_attack(u.id(), t, Category::Melee).is_ok() {
                        let group: Vec<UnitId> = self
                            .battle
                            .units_in_play(side)
                            .filter(|o| o.phase().attacked.is_none() && o.contacts().contains(&t))
                            .filter(|o| self.can_attack(o.id(), t, Category::Melee).is_ok())
                            .map(Unit::id)
                            .collect();
                        next = Some((t, group));
                        break;
                    }
                }
                if next.is_some() {
                    break;
                }
            }
            match next {
                Some((target, attackers)) => {
                    self.attack(Category::Melee, target, attackers, dice, log)?;
                    if self.pending.is_some() {
                        return Ok(false);
                    }
                }
                None => return Ok(true),
            }
        }
    }

    /// NORTH-VIC-02: the end of a player-phase: the end condition, then the next phase.
    fn end_phase(
        &mut self,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        let turn = self.battle.clock().turn();
        if let Some(end) = self.battle.end_phase(&StandardEnd)? {
            self.end = Some(end);
            log.push(Event::GameEnded { end, turn });
            return Ok(());
        }
        log.push(Event::PhaseBegan {
            turn: self.battle.clock().turn(),
            side: self.phasing(),
        });
        if self.battle.options().leaderless_orders == LeaderlessOrders::CheckEveryPhase {
            let side = self.phasing();
            let ids: Vec<UnitId> = self
                .battle
                .units_in_play(side)
                .filter(|u| {
                    self.battle
                        .brigade(u.brigade())
                        .is_ok_and(|b| b.is_leaderless())
                })
                .map(Unit::id)
                .collect();
            for unit in ids {
                let order = self.battle.leaderless_order_check_inner(unit, dice)?;
                log.push(Event::LeaderlessCheck { unit, order });
            }
        }
        Ok(())
    }
}

/// NORTH-SET-08 / NORTH-SET-11: places every unit the scenario did not: each side's brigades side by side in
/// the middle of its zone, 1" between units and 3" between brigades, facing the enemy, in rows if one is too
/// wide for the table.
fn deploy(battle: &Battle, field: &mut Field, zones: &Zones, placed: &[bool]) {
    for side in Side::both() {
        let facing = Field::toward_enemy(side);
        let mut rows: Vec<Vec<(UnitId, f64, f64)>> = vec![Vec::new()];
        let mut row_width = 0.0;
        for b in battle.brigades().iter().filter(|b| b.side() == side) {
            for (k, &id) in b.units().iter().enumerate() {
                if placed.get(id.0 as usize).copied().unwrap_or(true) {
                    continue;
                }
                let Ok(u) = battle.unit(id) else { continue };
                let (w, _) = field.bases.size(u);
                let gap = if k == 0 { 3.0 } else { 1.0 };
                if row_width + gap + w.0 > zones.width.0 - 2.0 && row_width > 0.0 {
                    rows.push(Vec::new());
                    row_width = 0.0;
                }
                let lead = if row_width == 0.0 { 0.0 } else { gap };
                row_width += lead + w.0;
                if let Some(r) = rows.last_mut() {
                    r.push((id, w.0, lead));
                }
            }
        }
        let edge = zones.base_edge_y(side);
        let inward = if edge == 0.0 { 1.0 } else { -1.0 };
        for (ri, row) in rows.iter().enumerate() {
            let total: f64 = row.iter().map(|(_, w, lead)| w + lead).sum();
            let mut x = (zones.width.0 - total) / 2.0;
            let y = edge + inward * (zones.deployment_depth.0 / 2.0 - 3.0 * ri as f64);
            for &(id, w, lead) in row {
                x += lead;
                field.set(
                    id,
                    Place {
                        centre: Point::new(x + w / 2.0, y),
                        facing,
                    },
                );
                x += w;
            }
        }
    }
}

/// Checks that every unit is on the table, inside its side's zone, and overlaps no other unit.
fn check_layout(battle: &Battle, field: &Field, zones: &Zones) -> Result<(), SetupError> {
    let name = |id: UnitId| {
        battle
            .unit(id)
            .map_or(String::new(), |u| u.name().to_string())
    };
    let mut prints: Vec<(UnitId, Footprint)> = Vec::with_capacity(battle.units().len());
    for u in battle.units() {
        // A unit whose footprint cannot be built (a place that is not finite) is refused, never skipped.
        match field.footprint(battle, u.id()) {
            Some(f) => prints.push((u.id(), f)),
            None => return Err(SetupError::PlacementOutside(name(u.id()))),
        }
    }
    for (id, f) in &prints {
        let side = battle.unit(*id).map(Unit::side).unwrap_or(Side::Union);
        let inside = f
            .corners()
            .iter()
            .all(|&c| zones.in_deployment_zone(side, c));
        if !inside {
            return Err(SetupError::PlacementOutside(name(*id)));
        }
    }
    for (i, (a, fa)) in prints.iter().enumerate() {
        for (b, fb) in prints.iter().skip(i + 1) {
            // Apart on the lower bound is apart: only footprints near each other are measured.
            if fa.distance_at_least(fb).0 <= 0.0 && fa.distance(fb).0 <= 0.0 {
                return Err(SetupError::Overlap(name(*a), name(*b)));
            }
        }
    }
    Ok(())
}

impl Ruleset for North {
    type Scenario = Scenario;
    type State = State;
    type Order = Order;
    type Event = Event;
    type Question = Question;
    type SetupError = SetupError;
    type RuleError = RuleViolation;

    fn setup(&self, scenario: &Scenario, seed: u64) -> Result<State, SetupError> {
        State::new(scenario, seed)
    }

    /// The phasing side, except while a unit hit in its phase checks morale: then its owner decides whether a
    /// general tries to rally it and, on 3–4, what it loses.
    fn owed(&self, state: &State) -> Option<Decision<Question>> {
        state.end.is_none().then(|| Decision {
            side: state.side_to_decide(),
            question: state.question(),
        })
    }

    /// Applies the order to a copy and keeps it only if every part was accepted and every face was given, so a
    /// refused order changes nothing (not even the dice).
    fn apply_with(
        &self,
        state: &mut State,
        order: &Order,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        fault_check(dice)?;
        // The order is applied to a spare copy, kept per thread from the last order so that copying the state
        // into it allocates nothing; the game's state and the spare change places only when the order is
        // accepted. (A spare taken by an order applied inside another, none is kept, is made afresh.)
        let mut next = state.spare_copy();
        let mut events = Vec::new();
        let applied = next
            .apply_order(order, dice, &mut events)
            .and_then(|()| fault_check(dice));
        if applied.is_ok() {
            std::mem::swap(state, &mut next);
            log.extend(events);
        }
        next.keep_as_spare();
        applied
    }

    fn rng_mut<'s>(&self, state: &'s mut State) -> &'s mut GameRng {
        &mut state.rng
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        let end = state.end?;
        Some(Outcome {
            result: end.result,
            reason: end.reason,
            turn: state.battle.clock().turn(),
        })
    }

    fn losses(&self, state: &State) -> BySide<u32> {
        state.battle.reports().map(|_, r| r.stands_lost())
    }
}

/// A reading of the event log: one line per event, naming units (empty for bookkeeping events). The same as
/// `state.narrate(event).to_string()`.
#[must_use]
pub fn narrate(state: &State, event: &Event) -> String {
    state.narrate(event).to_string()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::bots::{Attacker, Holder};
    use acw_core::game::Commander;

    /// A state copied into another with `clone_from` (as each order's spare is) equals the state copied, field
    /// for field, whatever the other held: two seeded games are played side by side, and at every order each is
    /// copied into a copy of the other, and into the copy of itself kept from before its last order (where the
    /// units the order left alone keep their stamps and are passed over). The games pass through units in
    /// contact and units lost, so the lists of contacts copied into differ in length both ways and the units
    /// differ in every part.
    #[test]
    fn a_copy_into_another_state_is_that_state() {
        let mut games = [3u64, 4].map(|seed| {
            (
                North.setup(&Scenario::default(), seed).unwrap(),
                Attacker::new(seed),
                Holder::new(seed),
            )
        });
        let (mut in_contact, mut lost) = (0u32, 0u32);
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
                in_contact += u32::from(from.battle().units().iter().any(Unit::in_contact));
                lost += u32::from(from.battle().units().iter().any(|u| !u.in_play()));
            }
            let mut played = false;
            for (state, attacker, holder) in &mut games {
                if let Some(side) = North.to_order(state) {
                    let order = match side {
                        Side::Union => attacker.order(&North, state, side),
                        Side::Confederate => holder.order(&North, state, side),
                    };
                    North.apply(state, &order, &mut log).unwrap();
                    played = true;
                }
            }
            if !played {
                break;
            }
        }
        assert!(in_contact > 10, "{in_contact}");
        assert!(lost > 10, "{lost}");
    }

    /// The bounds the bots pass pairs over on are refusals of the engine: over whole seeded games, at every
    /// state, a pair surely out of range is refused by `can_attack` (both categories) and a pair surely beyond
    /// charge reach by `can_charge`. The bounds pass over many pairs, and some pairs they leave are accepted.
    #[test]
    fn sure_refusals_are_refusals() {
        let (mut out_of_range, mut beyond_reach, mut allowed) = (0u32, 0u32, 0u32);
        for seed in [5u64, 9] {
            let mut state = North.setup(&Scenario::default(), seed).unwrap();
            let (mut attacker, mut holder) = (Attacker::new(seed), Holder::new(seed));
            let mut log = Vec::new();
            while let Some(side) = North.to_order(&state) {
                let ids: Vec<(UnitId, Side)> = state
                    .battle()
                    .units()
                    .iter()
                    .filter(|u| u.in_play())
                    .map(|u| (u.id(), u.side()))
                    .collect();
                for &(a, sa) in &ids {
                    for &(t, _) in ids.iter().filter(|&&(_, st)| st != sa) {
                        for category in [Category::Artillery, Category::Musketry] {
                            if state.surely_out_of_range(a, t, category) {
                                out_of_range += 1;
                                assert!(state.can_attack(a, t, category).is_err());
                            } else if state.can_attack(a, t, category).is_ok() {
                                allowed += 1;
                            }
                        }
                        if state.surely_beyond_charge_reach(a, t) {
                            beyond_reach += 1;
                            assert!(state.can_charge(a, t).is_err());
                        }
                    }
                }
                let order = match side {
                    Side::Union => attacker.order(&North, &state, side),
                    Side::Confederate => holder.order(&North, &state, side),
                };
                North.apply(&mut state, &order, &mut log).unwrap();
            }
        }
        assert!(out_of_range > 10_000, "{out_of_range}");
        assert!(beyond_reach > 10_000, "{beyond_reach}");
        assert!(allowed > 100, "{allowed}");
    }
}
