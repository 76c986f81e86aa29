//! [`Battle`]: the rules engine. It holds the units, turns the cards, and resolves every procedure by rolling
//! and applying it in one step. A refused call, or a dice source that runs out or gives an impossible face,
//! leaves the battle as it was.

use crate::error::{RuleViolation, SetupError};
use crate::fire::{
    self, AmmunitionRoll, HitCard, MassFire, Personal, PersonalShot, Ranks, TargetArea, TypeFire,
};
use crate::melee::{
    CatchRoll, CloseTest, ColoursRoll, Defending, Melee, MeleeFacts, MeleeSide, Party,
    StragglerRoll,
};
use crate::morale::{self, MoraleTest, RatingRoll, SixRoll};
use crate::movement::{self, Flight, LeaderlessDie, MoveDice, MoveFacts, SplitMove, VehicleMove};
use crate::options::{
    BatteryFire, CasualtyTiming, CaughtFleeing, ColourRecovery, CompulsoryFirst, EvadedCharge,
    FigureChoice, FireSystem, HitDeck, IndividualFireCards, MajorScope, MissingCategory, Options,
    RallyRouted, Remainder, SplitFire, WoundPolicy,
};
use crate::sequence;
use crate::setup::UnitSpec;
use crate::state::{
    Compulsory, Formation, MoraleState, Phase, Role, Status, Unit, UnitId, UnitKind,
};
use crate::tables::{self, Category, FireRow, HitEffect, MeleeRow, MoveMode, Quality, TargetClass};
use acw_core::cards::{Card, Deck};
use acw_core::{BySide, Dice, Resolve, Side};
use std::fmt;

/// A charge's number in its battle, shown as "charge 3".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct ChargeId(pub u32);

impl fmt::Display for ChargeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "charge {}", self.0)
    }
}

/// Where a charge has got to in the close-combat phase (TSATF-SEQ-07).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ChargeStep {
    /// In contact after the movement phase; the close-combat tests come next.
    #[strum(to_string = "in contact, waiting for the tests")]
    Contact,
    /// The attackers closed; the defenders test next.
    #[strum(to_string = "closed, waiting for the defenders' test")]
    AwaitStand,
    /// Both sides stand (or the target is routed or caught): the melee is next.
    #[strum(to_string = "waiting for the melee")]
    AwaitMelee,
    /// Over.
    #[strum(to_string = "over")]
    Done,
}

/// An open charge (TSATF-MEL-03).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Charge {
    id: ChargeId,
    attacker: UnitId,
    target: UnitId,
    unused: f64,
    highest_die: u16,
    protected: bool,
    flank_or_rear: bool,
    step: ChargeStep,
    captive_melee: bool,
}

impl Charge {
    /// Its number.
    #[must_use]
    pub fn id(&self) -> ChargeId {
        self.id
    }
    /// The charging unit.
    #[must_use]
    pub fn attacker(&self) -> UnitId {
        self.attacker
    }
    /// The charged unit.
    #[must_use]
    pub fn target(&self) -> UnitId {
        self.target
    }
    /// The unused charge movement in inches, to the marked extent (TSATF-MEL-03).
    #[must_use]
    pub fn unused(&self) -> f64 {
        self.unused
    }
    /// Where it has got to.
    #[must_use]
    pub fn step(&self) -> ChargeStep {
        self.step
    }
}

/// A unit's move on its card (TSATF-MOV-01).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoveOrder {
    /// The table column (`None`: change formation or facing only, rolling the cross-country dice for it).
    pub mode: Option<MoveMode>,
    /// What the move crosses.
    pub facts: MoveFacts,
    /// A new formation and the distance its furthest figure moves to take it (TSATF-MOV-11).
    pub formation: Option<(Formation, f64)>,
    /// Mount (`true`) or dismount (`false`) (TSATF-MOV-08).
    pub mount: Option<bool>,
    /// Limber (`true`) or unlimber (`false`) (TSATF-MOV-08).
    pub limber: Option<bool>,
    /// Hidden enemy units the scouts look for, with their measured distances; one roll reveals those within
    /// [`Options::spotting_distance`] (TSATF-OPT-04).
    pub scout_for: Vec<(UnitId, f64)>,
    /// The troops are getting off a stopped train (TSATF-OPT-10): one more die dropped.
    pub from_train: bool,
}

/// What a move came to.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoveReport {
    /// The unit.
    pub unit: String,
    /// The leaderless die stopped it.
    pub leaderless_halt: bool,
    /// The dice rolled.
    pub dice: Option<MoveDice>,
    /// Inches rolled.
    pub rolled: u32,
    /// Inches it may still move after halving for carried wounded and paying for a formation change.
    pub allowance: f64,
    /// Hidden units the scouts revealed.
    pub spotted: Vec<String>,
}

impl fmt::Display for MoveReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.leaderless_halt {
            return write!(f, "{} has no leader and will not move this turn", self.unit);
        }
        write!(
            f,
            "{} rolled {}\" and may move {}\"",
            self.unit, self.rolled, self.allowance
        )?;
        if !self.spotted.is_empty() {
            write!(f, "; its scouts spotted {}", self.spotted.join(", "))?;
        }
        Ok(())
    }
}

/// A charge declared on the charger's card (TSATF-MEL-01).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChargeOrder {
    /// The target.
    pub target: UnitId,
    /// The measured distance to it in inches.
    pub distance: f64,
    /// Rough features on the way.
    pub rough_features: u8,
    /// The charge comes from outside the target's frontal sector (TSATF-MEL-19; see
    /// [`crate::fire::outside_front`]).
    pub flank_or_rear: bool,
    /// The target holds a protected position (TSATF-MEL-25).
    pub protected: bool,
}

/// How a charge declaration ended.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ChargeReport {
    /// The leaderless die stopped the unit.
    LeaderlessHalt,
    /// First turn against a protected position: moved up (or toward it) and stopped; it may fire.
    Approached {
        /// Inches rolled.
        rolled: u32,
        /// Whether it reached 1" of the position.
        in_position: bool,
    },
    /// Stragglers left half the unit or fewer: it goes back and is pinned (TSATF-MEL-06).
    Halted {
        /// Stragglers.
        stragglers: u16,
    },
    /// The charge dice fell short of the target (TSATF-MEL-03).
    Short {
        /// Stragglers.
        stragglers: u16,
        /// Inches rolled.
        rolled: u32,
    },
    /// In contact: the close-combat phase resolves it.
    Contact {
        /// The charge's number.
        charge: ChargeId,
        /// Stragglers.
        stragglers: u16,
        /// Inches rolled.
        rolled: u32,
        /// Unused movement to the marked extent.
        unused: f64,
    },
}

impl fmt::Display for ChargeReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChargeReport::LeaderlessHalt => f.write_str("the leaderless unit would not go forward"),
            ChargeReport::Approached {
                rolled,
                in_position,
            } => write!(
                f,
                "moved {rolled}\" toward the position{}",
                if *in_position {
                    " and stopped an inch short of it"
                } else {
                    ""
                }
            ),
            ChargeReport::Halted { stragglers } => write!(
                f,
                "{stragglers} stragglers left half the unit or fewer: the charge halted and the unit is pinned"
            ),
            ChargeReport::Short { stragglers, rolled } => {
                write!(
                    f,
                    "{stragglers} stragglers; the charge ran {rolled}\" and fell short"
                )
            }
            ChargeReport::Contact {
                stragglers,
                rolled,
                unused,
                ..
            } => write!(
                f,
                "{stragglers} stragglers; the charge ran {rolled}\" into contact with {unused}\" to spare"
            ),
        }
    }
}

/// A unit's fire on its card (TSATF-FIR-10, TSATF-FIR-23).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FireOrder {
    /// The target.
    pub target: UnitId,
    /// The measured range to its nearest figure, in inches.
    pub range: f64,
    /// Rank-and-file figures with the target in their cone and range (`None`: all of them).
    pub in_reach: Option<u16>,
    /// The target figures in the cone and range, by protection.
    pub area: TargetArea,
    /// A gun fires canister.
    pub canister: bool,
    /// Other units of the same side and row firing with it, their figures pooled (TSATF-FIR-11 `Pool`,
    /// TSATF-ART-02 battery).
    pub with: Vec<UnitId>,
    /// The target's owner's order of figures to take hits (indices; the rest follow in roster order).
    pub hit_order: Vec<usize>,
}

/// One hit card and what it did.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct HitRecord {
    /// The card drawn.
    pub card: Card,
    /// Its effect.
    pub effect: HitEffect,
    /// The category it named.
    pub category: Category,
    /// The figure it struck and what became of it.
    pub struck: Option<(usize, Status)>,
}

/// What a unit's fire did.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FireReport {
    /// The firer.
    pub firer: String,
    /// The target.
    pub target: String,
    /// The row fired on.
    pub row: FireRow,
    /// The target class.
    pub class: TargetClass,
    /// Figures firing (or D20 thrown).
    pub figures: u16,
    /// Hits scored.
    pub hits: u16,
    /// The hit cards.
    pub cards: Vec<HitRecord>,
}

impl fmt::Display for FireReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} fired {} figures as {} at {} ({}): {} hit{}",
            self.firer,
            self.figures,
            self.row,
            self.target,
            self.class,
            self.hits,
            if self.hits == 1 { "" } else { "s" }
        )?;
        let killed = self
            .cards
            .iter()
            .filter(|c| matches!(c.struck, Some((_, Status::Killed))))
            .count();
        let wounded = self
            .cards
            .iter()
            .filter(|c| matches!(c.struck, Some((_, Status::Wounded))))
            .count();
        write!(f, ", {killed} killed and {wounded} wounded")
    }
}

/// What an officer's or sniper's shot did.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PersonalReport {
    /// The weapon.
    pub weapon: Personal,
    /// The die's effect.
    pub effect: HitEffect,
    /// The figure struck and what became of it.
    pub struck: Option<(usize, Status)>,
}

impl fmt::Display for PersonalReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.struck {
            Some((i, s)) => write!(f, "the {} shot struck figure {i}, now {s}", self.weapon),
            None => write!(f, "the {} shot {}", self.weapon, self.effect),
        }
    }
}

/// The first tests of a charge in the close-combat phase (TSATF-MEL-05).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CloseReport {
    /// The target had gone: the chargers occupy its ground (TSATF-MEL-07).
    #[strum(to_string = "the target had gone and the chargers took its ground")]
    Occupied,
    /// The target had gone: the chargers stay where they stopped.
    #[strum(to_string = "the target had gone and the chargers stayed where they were")]
    StayedPut,
    /// Fire and stragglers left half or fewer: back to the start, pinned (TSATF-MEL-06).
    #[strum(to_string = "the charge was halted at half strength; back to its start and pinned")]
    Halted,
    /// The attackers failed to close: back 6", pinned and prone (TSATF-MEL-09).
    #[strum(to_string = "the attackers failed to close, fell back six inches and are pinned")]
    FailedToClose,
    /// The attackers closed; the defenders test next.
    #[strum(to_string = "the attackers closed")]
    Closed,
    /// The target is routed: no test, straight to the melee (TSATF-MEL-28).
    #[strum(to_string = "the target is routed and is caught from the rear")]
    RoutedTarget,
}

/// The defenders' test (TSATF-MEL-10, TSATF-MEL-11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum StandReport {
    /// They stand: melee.
    Stood,
    /// They fled this far and got away; the attackers take the ground.
    Fled {
        /// Inches fled.
        flight: u32,
    },
    /// They fled and were caught.
    Caught {
        /// Inches fled.
        flight: u32,
        /// Captured outright (option), or meleed from the rear first.
        captured: bool,
    },
}

impl fmt::Display for StandReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StandReport::Stood => f.write_str("the defenders stood to fight"),
            StandReport::Fled { flight } => {
                write!(f, "the defenders broke and fled {flight}\", shaken")
            }
            StandReport::Caught {
                flight,
                captured: true,
            } => {
                write!(
                    f,
                    "the defenders fled {flight}\" but were overtaken and captured"
                )
            }
            StandReport::Caught { flight, .. } => {
                write!(
                    f,
                    "the defenders fled {flight}\" but were caught and must fight from the rear"
                )
            }
        }
    }
}

/// The choices each side makes for a melee (TSATF-MEL-14, TSATF-MEL-21, TSATF-MEL-29).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MeleeOrder {
    /// The attackers put their officers and NCOs in the front rank first.
    pub attacker_cadre_first: bool,
    /// The defenders do.
    pub defender_cadre_first: bool,
    /// Victorious attackers pursue with their unused movement instead of holding the ground.
    pub pursue: bool,
    /// The losers' non-fighting figures (wounded, carriers, horseholders, stragglers) are in the enemy's
    /// reach and are captured.
    pub non_fighters_contacted: bool,
    /// Across a protected position: how many attacking figures the obstacle holds, measured on the table
    /// (TSATF-MEL-14, TSATF-MEL-26). Only they fight; the others wait as reserves and step onto the obstacle
    /// as places come free. `None`: as many as there are defenders to pair with (the reading without a table).
    #[cfg_attr(feature = "serde", serde(default))]
    pub obstacle_room: Option<u16>,
}

impl Default for MeleeOrder {
    fn default() -> Self {
        MeleeOrder {
            attacker_cadre_first: true,
            defender_cadre_first: true,
            pursue: true,
            non_fighters_contacted: false,
            obstacle_room: None,
        }
    }
}

/// What a melee did.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MeleeReport {
    /// The winning unit.
    pub winner: String,
    /// The losing unit.
    pub loser: String,
    /// Which side of the melee won.
    pub party: Party,
    /// The fight's tally.
    pub tally: crate::melee::MeleeTally,
    /// The losers' 4D6 flight, if they fled.
    pub flight: Option<u32>,
    /// Figures taken prisoner.
    pub captured: u16,
    /// The colours changed hands.
    pub colours_taken: bool,
    /// Colours were recovered.
    pub colours_recovered: bool,
    /// The melee as it was fought: each side's fighting figures, modifiers and order, and the most pairs at
    /// once ([`Resolve::odds`] on it gives the exact chance of every end).
    pub melee: Melee,
}

impl MeleeReport {
    /// The exact chance, before the first round, that the winners would win (TSATF-MEL-17). Computed when
    /// asked (a Markov chain over the figures left on each side: milliseconds for two full companies), so
    /// simulations that do not read it do not pay for it.
    #[must_use]
    pub fn chance(&self) -> f64 {
        self.melee.odds().prob(|o| o.winner == self.party)
    }
}

impl fmt::Display for MeleeReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} beat {} after {} rounds ({} against {} figures",
            self.winner,
            self.loser,
            self.tally.rounds,
            self.melee.attackers.cadre + self.melee.attackers.others,
            self.melee.defenders.cadre + self.melee.defenders.others,
        )?;
        if self.melee.front < u16::MAX {
            write!(f, ", {} at a time on the obstacle", self.melee.front)?;
        }
        write!(
            f,
            "; {} won with a chance of {:.1}%)",
            self.party,
            100.0 * self.chance()
        )?;
        if let Some(d) = self.flight {
            write!(f, "; the losers fled {d}\" shaken")?;
        }
        if self.captured > 0 {
            write!(f, "; {} prisoners taken", self.captured)?;
        }
        if self.colours_taken {
            f.write_str("; the colours were captured")?;
        }
        if self.colours_recovered {
            f.write_str("; lost colours were recovered")?;
        }
        Ok(())
    }
}

/// A morale check due in the morale phase (TSATF-MOR-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CheckDue {
    /// The side's Major Morale.
    #[strum(to_string = "Major Morale")]
    Major(Side),
    /// A unit's Critical Morale.
    #[strum(to_string = "Critical Morale")]
    Critical(UnitId),
    /// A pinned unit's check.
    #[strum(to_string = "Pinned Morale")]
    Pinned(UnitId),
    /// A shaken or routed unit may try to rally (optional).
    #[strum(to_string = "a rally")]
    Rally(UnitId),
}

/// Why the game is over (TSATF-SEQ-09).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum GameEnd {
    /// The scenario's turn limit passed.
    #[strum(to_string = "the turn limit was reached")]
    TurnLimit,
    /// A side has nothing left on the table that is not routed.
    #[strum(to_string = "one side has no unit left in good enough order")]
    SideBroken(Side),
}

/// The state of a game and the rules that change it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "BattleData", into = "BattleData"))]
pub struct Battle {
    units: Vec<Unit>,
    options: Options,
    turn: u32,
    phase: Phase,
    deck: Option<Deck>,
    card: Option<Side>,
    hit_deck: Deck,
    commander: BySide<Option<(UnitId, usize)>>,
    major_due: BySide<bool>,
    charges: Vec<Charge>,
    next_charge: u32,
    pending_hits: Vec<(UnitId, usize, Status)>,
    split: Option<UnitId>,
}

/// The serde form of [`Battle`], checked on load.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug)]
#[doc(hidden)]
pub struct BattleData {
    units: Vec<Unit>,
    options: Options,
    turn: u32,
    phase: Phase,
    deck: Option<Deck>,
    card: Option<Side>,
    hit_deck: Deck,
    commander: BySide<Option<(UnitId, usize)>>,
    major_due: BySide<bool>,
    charges: Vec<Charge>,
    next_charge: u32,
    pending_hits: Vec<(UnitId, usize, Status)>,
    split: Option<UnitId>,
}

impl From<Battle> for BattleData {
    fn from(b: Battle) -> Self {
        BattleData {
            units: b.units,
            options: b.options,
            turn: b.turn,
            phase: b.phase,
            deck: b.deck,
            card: b.card,
            hit_deck: b.hit_deck,
            commander: b.commander,
            major_due: b.major_due,
            charges: b.charges,
            next_charge: b.next_charge,
            pending_hits: b.pending_hits,
            split: b.split,
        }
    }
}

impl TryFrom<BattleData> for Battle {
    type Error = SetupError;
    fn try_from(d: BattleData) -> Result<Self, SetupError> {
        d.options.validate()?;
        let bad = |m: &str| Err(SetupError::Inconsistent(m.to_string()));
        let n = d.units.len();
        for (i, u) in d.units.iter().enumerate() {
            if u.id != UnitId(i as u32) {
                return bad("unit numbers must run from 0 in order");
            }
            if u.figures.is_empty()
                || u.figures.len() > crate::setup::MAX_FIGURES
                || usize::from(u.starting) != u.figures.len()
            {
                return bad("a unit's figures do not match its starting strength");
            }
            if u.colours_held.iter().any(|c| c.0 as usize >= n)
                || u.attached.is_some_and(|(a, _)| a.0 as usize >= n)
            {
                return bad("a unit refers to a unit that does not exist");
            }
        }
        let fig_ok = |id: UnitId, i: usize| {
            d.units
                .get(id.0 as usize)
                .is_some_and(|u| i < u.figures.len())
        };
        if d.charges
            .iter()
            .any(|c| c.attacker.0 as usize >= n || c.target.0 as usize >= n)
            || d.pending_hits.iter().any(|&(u, i, _)| !fig_ok(u, i))
            || [d.commander.union, d.commander.confederate]
                .iter()
                .flatten()
                .any(|&(u, i)| !fig_ok(u, i))
            || d.split.is_some_and(|u| u.0 as usize >= n)
        {
            return bad(
                "a charge, hit or commander refers to a unit or figure that does not exist",
            );
        }
        if d.turn == 0 {
            return bad("turns are counted from 1");
        }
        Ok(Battle {
            units: d.units,
            options: d.options,
            turn: d.turn,
            phase: d.phase,
            deck: d.deck,
            card: d.card,
            hit_deck: d.hit_deck,
            commander: d.commander,
            major_due: d.major_due,
            charges: d.charges,
            next_charge: d.next_charge,
            pending_hits: d.pending_hits,
            split: d.split,
        })
    }
}

type Rule<T> = Result<T, RuleViolation>;

impl Battle {
    /// A battle of the given units under the options (TSATF-SET-02): each side needs a unit and at most 26
    /// (one card of its colour each); names must be unique. It starts in turn 1's movement phase with no card
    /// turned: call [`Battle::begin_phase`] to shuffle.
    pub fn new(forces: &[UnitSpec], options: Options) -> Result<Battle, SetupError> {
        options.validate()?;
        let mut units = Vec::with_capacity(forces.len());
        for (i, spec) in forces.iter().enumerate() {
            spec.validate()?;
            if forces[..i].iter().any(|s| s.name() == spec.name()) {
                return Err(SetupError::DuplicateName(spec.name().to_string()));
            }
            units.push(spec.build(UnitId(i as u32)));
        }
        for side in Side::both() {
            let n = units.iter().filter(|u| u.side == side).count();
            if n == 0 {
                return Err(SetupError::EmptySide(side));
            }
            if n > 26 {
                return Err(SetupError::TooManyUnits { side, units: n });
            }
        }
        let hit_deck = Deck::of(fire::FULL_DECK)
            .map_err(|_| SetupError::Inconsistent("no hit deck".into()))?;
        let mut b = Battle {
            units,
            options,
            turn: 1,
            phase: Phase::Movement,
            deck: None,
            card: None,
            hit_deck,
            commander: BySide::default(),
            major_due: BySide::default(),
            charges: Vec::new(),
            next_charge: 0,
            pending_hits: Vec::new(),
            split: None,
        };
        for side in Side::both() {
            *b.commander.get_mut(side) = b.highest_officer(side);
        }
        Ok(b)
    }

    // ----- reading -----

    /// The options.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }
    /// Every unit.
    #[must_use]
    pub fn units(&self) -> &[Unit] {
        &self.units
    }
    /// A unit.
    pub fn unit(&self, id: UnitId) -> Rule<&Unit> {
        self.units
            .get(id.0 as usize)
            .ok_or(RuleViolation::NoSuchUnit(id.0))
    }
    /// A unit by name.
    #[must_use]
    pub fn unit_named(&self, name: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.name == name)
    }
    /// The turn, from 1.
    #[must_use]
    pub fn turn(&self) -> u32 {
        self.turn
    }
    /// The phase.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The side whose card is turned and waiting for a unit.
    #[must_use]
    pub fn card(&self) -> Option<Side> {
        self.card
    }
    /// The sequencing deck of the phase.
    #[must_use]
    pub fn sequencing_deck(&self) -> Option<&Deck> {
        self.deck.as_ref()
    }
    /// The persistent hit deck (option `hit_deck = Persistent`).
    #[must_use]
    pub fn hit_deck(&self) -> &Deck {
        &self.hit_deck
    }
    /// The exact odds of the next hit card under the options (TSATF-FIR-15): a full deck for independent
    /// draws, the hit deck (or the sequencing deck) as it stands otherwise.
    #[must_use]
    pub fn next_hit_odds(&self) -> acw_core::Dist<(HitEffect, Category)> {
        match self.options.hit_deck {
            HitDeck::Persistent => fire::deck_hit_odds(&self.hit_deck),
            HitDeck::SequencingDeck => match &self.deck {
                Some(d) if d.remaining() > 0 => fire::deck_hit_odds(d),
                _ => HitCard.odds(),
            },
            _ => HitCard.odds(),
        }
    }
    /// The edge fleeing and routing troops make for, for the caller to measure their flight toward
    /// (TSATF-MOV-13, TSATF-MEL-22).
    #[must_use]
    pub fn flight_edge(&self) -> crate::options::FleeEdge {
        self.options.flee_edge
    }
    /// The open charges of this turn.
    #[must_use]
    pub fn charges(&self) -> &[Charge] {
        &self.charges
    }
    /// The side's highest officer, by unit and figure (TSATF-CMD-03).
    #[must_use]
    pub fn senior_officer(&self, side: Side) -> Option<(UnitId, usize)> {
        *self.commander.get(side)
    }

    /// Whether a unit counts as with leader (TSATF-CMD-01): an active officer or NCO of its own, or an officer
    /// who has joined it.
    pub fn with_leader(&self, id: UnitId) -> Rule<bool> {
        let u = self.unit(id)?;
        Ok(u.own_leader() || self.attached_officer(u).is_some())
    }

    fn attached_officer(&self, u: &Unit) -> Option<crate::state::Figure> {
        let (a, i) = u.attached?;
        let f = *self.units.get(a.0 as usize)?.figures.get(i)?;
        f.is_active().then_some(f)
    }

    /// The modifier to a unit's own tests (TSATF-MOR-14, TSATF-OPT-02): its best-ranked rated officer's rating
    /// (or a joined higher officer's), and its captured colours.
    pub fn test_modifier(&self, id: UnitId) -> Rule<i8> {
        let u = self.unit(id)?;
        let rating = match (u.own_rating(), self.attached_officer(u)) {
            (_, Some(f)) if f.rating.is_some() => f.rating,
            (r, _) => r,
        };
        Ok(morale::test_modifier(
            rating,
            u8::try_from(u.colours_held.len()).unwrap_or(u8::MAX),
            &self.options,
        ))
    }

    /// The units in play: on the table with someone left.
    fn in_play(&self, u: &Unit) -> bool {
        !u.off_table && u.strength() > 0
    }

    /// The game is over (TSATF-SEQ-09): past the turn limit, or a side with no unit in play that is not routed.
    #[must_use]
    pub fn game_over(&self) -> Option<GameEnd> {
        if self.options.turn_limit.is_some_and(|t| self.turn > t) {
            return Some(GameEnd::TurnLimit);
        }
        Side::both()
            .find(|&s| {
                !self
                    .units
                    .iter()
                    .any(|u| u.side == s && self.in_play(u) && u.morale != MoraleState::Routed)
            })
            .map(GameEnd::SideBroken)
    }

    /// The morale checks due now (TSATF-MOR-01, TSATF-SEQ-08), in the order they are taken.
    #[must_use]
    pub fn checks_due(&self) -> Vec<CheckDue> {
        let mut v = Vec::new();
        if self.phase != Phase::Morale {
            return v;
        }
        for s in Side::both() {
            if *self.major_due.get(s) {
                v.push(CheckDue::Major(s));
            }
        }
        v.extend(
            self.units
                .iter()
                .filter(|u| u.critical_due)
                .map(|u| CheckDue::Critical(u.id)),
        );
        v.extend(
            self.units
                .iter()
                .filter(|u| u.pinned_due)
                .map(|u| CheckDue::Pinned(u.id)),
        );
        v.extend(
            self.units
                .iter()
                .filter(|u| self.rally_allowed(u))
                .map(|u| CheckDue::Rally(u.id)),
        );
        v
    }

    fn rally_allowed(&self, u: &Unit) -> bool {
        self.in_play(u)
            && !u.critical_due
            && !u.rally_tried
            && match u.morale {
                MoraleState::Shaken => true,
                MoraleState::Routed => u.routed_turn.is_some_and(|t| t < self.turn),
                _ => false,
            }
    }

    // ----- the engine's plumbing -----

    /// Runs `f` on a copy and keeps the copy only if `f` accepted and the dice did not fault.
    fn transact<D: Dice + ?Sized, T>(
        &mut self,
        dice: &mut D,
        f: impl FnOnce(&mut Battle, &mut D) -> Rule<T>,
    ) -> Rule<T> {
        if let Some(e) = dice.fault() {
            return Err(RuleViolation::Dice(e.clone()));
        }
        let mut copy = self.clone();
        let out = f(&mut copy, dice)?;
        if let Some(e) = dice.fault() {
            return Err(RuleViolation::Dice(e.clone()));
        }
        *self = copy;
        Ok(out)
    }

    fn idx(&self, id: UnitId) -> Rule<usize> {
        let i = id.0 as usize;
        if i < self.units.len() {
            Ok(i)
        } else {
            Err(RuleViolation::NoSuchUnit(id.0))
        }
    }

    fn name(&self, i: usize) -> String {
        self.units[i].name.clone()
    }

    fn need_phase(&self, action: &'static str, needed: Phase) -> Rule<()> {
        if self.game_over().is_some() {
            return Err(RuleViolation::GameOver);
        }
        if self.phase == needed {
            Ok(())
        } else {
            Err(RuleViolation::WrongPhase {
                action,
                needed,
                now: self.phase,
            })
        }
    }

    /// Takes the turned card for a unit (TSATF-SEQ-03, TSATF-SEQ-04, TSATF-SEQ-05).
    fn take_card(&mut self, i: usize, compulsory: bool) -> Rule<()> {
        let u = &self.units[i];
        if u.acted {
            return Err(RuleViolation::AlreadyActed(u.name.clone()));
        }
        if !self.in_play(u) {
            return Err(RuleViolation::Cannot {
                unit: u.name.clone(),
                action: "act: it has left the fight",
            });
        }
        let before_cards = compulsory
            && self.phase == Phase::Movement
            && self.options.compulsory_first == CompulsoryFirst::AllBeforeFirstCard
            && self.card.is_none();
        if !before_cards && self.card != Some(u.side) {
            return Err(RuleViolation::NotOnCard {
                unit: u.name.clone(),
                side: u.side,
            });
        }
        if self.phase == Phase::Movement
            && !compulsory
            && let Some(other) = self
                .units
                .iter()
                .find(|o| o.side == u.side && o.compulsory.is_some() && !o.acted && self.in_play(o))
        {
            return Err(RuleViolation::CompulsoryFirst(other.name.clone()));
        }
        if !before_cards {
            self.card = None;
        }
        self.units[i].acted = true;
        Ok(())
    }

    // ----- setup rolls -----

    /// Every unit rolls its ammunition supply, 1D10 turns of fire (TSATF-SET-09, TSATF-FIR-24): when Type
    /// Firing is used, or mass fire under [`Options::ammo_in_mass_fire`]. Refused before turn 1's first card
    /// is turned only.
    pub fn roll_ammunition<D: Dice + ?Sized>(&mut self, dice: &mut D) -> Rule<Vec<u8>> {
        if self.options.fire_system != FireSystem::TypeFiring && !self.options.ammo_in_mass_fire {
            return Err(RuleViolation::Cannot {
                unit: "this game".into(),
                action: "use an ammunition supply: it fires by mass fire without one",
            });
        }
        if self.turn != 1
            || self.phase != Phase::Movement
            || self.units.iter().any(|u| u.ammo.is_some())
        {
            return Err(RuleViolation::Cannot {
                unit: "a unit".into(),
                action: "roll its ammunition except once, before the game begins",
            });
        }
        self.transact(dice, |b, dice| {
            Ok(b.units
                .iter_mut()
                .map(|u| {
                    let n = AmmunitionRoll.roll(dice);
                    u.ammo = Some(n);
                    n
                })
                .collect())
        })
    }

    /// Every officer rolls his leader rating (TSATF-OPT-01), when ratings are in use; NCOs are not rated.
    pub fn roll_leader_ratings<D: Dice + ?Sized>(&mut self, dice: &mut D) -> Rule<()> {
        if !self.options.leader_quality {
            return Err(RuleViolation::Cannot {
                unit: "this game".into(),
                action: "rate its leaders: leader ratings are not in use",
            });
        }
        self.transact(dice, |b, dice| {
            for u in &mut b.units {
                for f in &mut u.figures {
                    if matches!(f.role, Role::Officer(_)) {
                        f.rating = Some(RatingRoll.roll(dice));
                    }
                }
            }
            Ok(())
        })
    }

    /// Gives a historical officer his rating instead of rolling (TSATF-OPT-01).
    pub fn set_rating(
        &mut self,
        unit: UnitId,
        figure: usize,
        rating: tables::LeaderRating,
    ) -> Rule<()> {
        let i = self.idx(unit)?;
        let name = self.name(i);
        let f = self.units[i]
            .figures
            .get_mut(figure)
            .ok_or(RuleViolation::NoSuchFigure {
                unit: name.clone(),
                index: figure,
            })?;
        if !matches!(f.role, Role::Officer(_)) {
            return Err(RuleViolation::FigureCannot {
                unit: name,
                index: figure,
                action: "be rated: only officers are",
            });
        }
        f.rating = Some(rating);
        Ok(())
    }

    /// The players name the side's highest officer among officers of equal top rank (TSATF-CMD-03); by default
    /// the first of them in unit and figure order holds the place. Refused for a figure that is not an active
    /// officer of that side of the top rank.
    pub fn name_senior_officer(&mut self, side: Side, officer: (UnitId, usize)) -> Rule<()> {
        let i = self.idx(officer.0)?;
        let top = self.highest_officer(side).and_then(|(u, k)| {
            match self.units[u.0 as usize].figures[k].role {
                Role::Officer(r) => Some(r),
                _ => None,
            }
        });
        let f = self.units[i].figures.get(officer.1);
        let fits = self.units[i].side == side
            && f.is_some_and(|f| {
                f.is_active() && matches!(f.role, Role::Officer(r) if Some(r) == top)
            });
        if !fits {
            return Err(RuleViolation::FigureCannot {
                unit: self.name(i),
                index: officer.1,
                action: "command the side: he is not one of its highest-ranked officers",
            });
        }
        *self.commander.get_mut(side) = Some(officer);
        Ok(())
    }

    /// An officer joins another unit of his side as its leader (TSATF-CMD-01), or, under
    /// [`Options::leader_radius`], lends his rating to a unit within that many inches (TSATF-OPT-02). Without the
    /// radius he must be with the unit (`distance` 0).
    pub fn attach(&mut self, officer: (UnitId, usize), to: UnitId, distance: f64) -> Rule<()> {
        movement::length("the officer's distance", distance)?;
        let (oi, ti) = (self.idx(officer.0)?, self.idx(to)?);
        let f = self.units[oi]
            .figures
            .get(officer.1)
            .ok_or(RuleViolation::NoSuchFigure {
                unit: self.name(oi),
                index: officer.1,
            })?;
        let reach = self.options.leader_radius.unwrap_or(0.0);
        if !matches!(f.role, Role::Officer(_))
            || !f.is_active()
            || self.units[oi].side != self.units[ti].side
            || distance > reach
        {
            return Err(RuleViolation::FigureCannot {
                unit: self.name(oi),
                index: officer.1,
                action: "lead that unit",
            });
        }
        self.units[ti].attached = Some(officer);
        Ok(())
    }

    // ----- phases and cards -----

    /// Starts the current movement or firing phase: builds the sequencing deck for the units in play and
    /// shuffles it (TSATF-SEQ-02). Refused in other phases, or once shuffled.
    pub fn begin_phase<D: Dice + ?Sized>(&mut self, dice: &mut D) -> Rule<usize> {
        if !matches!(self.phase, Phase::Movement | Phase::Firing) || self.deck.is_some() {
            return Err(RuleViolation::Cannot {
                unit: "the phase".into(),
                action: "be shuffled for: only movement and firing use cards, once each",
            });
        }
        self.transact(dice, |b, dice| {
            let count = |s: Side| {
                b.units
                    .iter()
                    .filter(|u| u.side == s && b.in_play(u))
                    .count() as u8
            };
            let mut deck = sequence::sequencing_deck(
                count(Side::Union),
                count(Side::Confederate),
                b.options.sequencing_deck,
            )
            .ok_or(RuleViolation::DeckDone)?;
            deck.shuffle(dice);
            let n = deck.remaining();
            b.deck = Some(deck);
            Ok(n)
        })
    }

    /// Turns the next sequencing card (TSATF-SEQ-03, TSATF-SEQ-04): the side of its colour must now activate
    /// one of its units that has not acted. Cards of a side with no unit left to act are skipped.
    pub fn turn_card<D: Dice + ?Sized>(&mut self, dice: &mut D) -> Rule<Side> {
        self.turn_card_showing(dice).map(|(side, _)| side)
    }

    /// [`Battle::turn_card`], also giving every card turned, in the order drawn: the skipped cards of a side with
    /// no unit left to act, then the card that activates.
    pub fn turn_card_showing<D: Dice + ?Sized>(&mut self, dice: &mut D) -> Rule<(Side, Vec<Card>)> {
        if let Some(s) = self.card {
            return Err(RuleViolation::CardPending(s));
        }
        if self.phase == Phase::Movement
            && self.options.compulsory_first == CompulsoryFirst::AllBeforeFirstCard
            && let Some(u) = self
                .units
                .iter()
                .find(|u| u.compulsory.is_some() && !u.acted && self.in_play(u))
        {
            return Err(RuleViolation::CompulsoryFirst(u.name.clone()));
        }
        self.transact(dice, |b, dice| {
            let mut turned = Vec::new();
            loop {
                let deck = b.deck.as_mut().ok_or(RuleViolation::Cannot {
                    unit: "the phase".into(),
                    action: "turn a card before its deck is shuffled",
                })?;
                let card = deck.draw(dice).map_err(|_| RuleViolation::DeckDone)?;
                turned.push(card);
                let side = sequence::side_of(card);
                if b.units
                    .iter()
                    .any(|u| u.side == side && !u.acted && b.in_play(u))
                {
                    b.card = Some(side);
                    return Ok((side, turned));
                }
            }
        })
    }

    /// Ends the phase and moves to the next (TSATF-SEQ-01). Refused while a unit in play has not acted in a
    /// card phase, a charge is open in close combat, or a Major, Critical or Pinned check is due in morale.
    pub fn advance(&mut self) -> Rule<Phase> {
        if self.game_over().is_some() {
            return Err(RuleViolation::GameOver);
        }
        match self.phase {
            Phase::Movement | Phase::Firing => {
                if let Some(u) = self.units.iter().find(|u| !u.acted && self.in_play(u)) {
                    return Err(RuleViolation::Cannot {
                        unit: u.name.clone(),
                        action: "be passed over: every unit takes its card before the phase ends",
                    });
                }
            }
            Phase::CloseCombat => {
                if let Some(c) = self.charges.iter().find(|c| c.step != ChargeStep::Done) {
                    return Err(RuleViolation::Cannot {
                        unit: self.name(c.attacker.0 as usize),
                        action: "leave its charge unresolved",
                    });
                }
            }
            Phase::Morale => {
                if let Some(c) = self
                    .checks_due()
                    .into_iter()
                    .find(|c| !matches!(c, CheckDue::Rally(_)))
                {
                    return Err(RuleViolation::Cannot {
                        unit: "the morale phase".into(),
                        action: match c {
                            CheckDue::Major(_) => "end before Major Morale is taken",
                            CheckDue::Critical(_) => "end before Critical Morale is taken",
                            _ => "end before pinned units test",
                        },
                    });
                }
            }
        }
        let from = self.phase;
        self.phase = from.next();
        self.deck = None;
        self.card = None;
        for u in &mut self.units {
            u.acted = false;
        }
        match from {
            Phase::Movement => {
                for u in &mut self.units {
                    u.frozen = false;
                }
            }
            Phase::Firing => {
                // simultaneous fire: the phase's hits land now (TSATF-SEQ-04)
                let hits = std::mem::take(&mut self.pending_hits);
                for (u, i, s) in hits {
                    self.strike(u.0 as usize, i, s);
                }
            }
            Phase::CloseCombat => {
                // stragglers rejoin, or are lost under the option (TSATF-MEL-02)
                let lost = self.options.stragglers_lost;
                for u in &mut self.units {
                    for f in &mut u.figures {
                        if f.straggling {
                            f.straggling = false;
                            if lost {
                                f.status = Status::OffTable;
                            }
                        }
                    }
                }
                self.mark_checks();
            }
            Phase::Morale => self.new_turn(),
        }
        Ok(self.phase)
    }

    /// Marks the morale checks due at the start of the morale phase (TSATF-MOR-06, TSATF-MOR-09).
    fn mark_checks(&mut self) {
        let every = self.options.critical_every_turn_below_half;
        for u in &mut self.units {
            if u.off_table || u.strength() == 0 {
                continue;
            }
            let half = u.at_half();
            let half_trigger = half && (every || !u.below_half_seen);
            if half {
                u.below_half_seen = true;
            }
            u.critical_due =
                u.morale != MoraleState::Routed && (u.hit_while_shaken || half_trigger);
            u.pinned_due = u.morale == MoraleState::Pinned;
        }
    }

    fn new_turn(&mut self) {
        self.turn += 1;
        self.charges.clear();
        self.split = None;
        let shaken_retreats = self.options.shaken_retreats;
        for u in &mut self.units {
            u.charged = false;
            u.fired = false;
            u.hauled = false;
            u.hit_while_shaken = false;
            u.critical_due = false;
            u.pinned_due = false;
            u.rally_tried = false;
            for f in &mut u.figures {
                f.fired = false;
            }
            u.compulsory = match u.morale {
                MoraleState::Routed => Some(Compulsory::Rout),
                MoraleState::Shaken if shaken_retreats => Some(Compulsory::ShakenRetreat),
                MoraleState::Pinned => Some(Compulsory::StayPinned),
                _ => None,
            };
            if u.off_table {
                u.compulsory = None;
            }
        }
    }

    // ----- movement -----

    /// A unit passes its card without acting (any card phase).
    pub fn hold(&mut self, unit: UnitId) -> Rule<()> {
        let i = self.idx(unit)?;
        if !matches!(self.phase, Phase::Movement | Phase::Firing) {
            return Err(RuleViolation::WrongPhase {
                action: "taking a card",
                needed: Phase::Movement,
                now: self.phase,
            });
        }
        if self.phase == Phase::Movement && self.units[i].compulsory.is_some() {
            return Err(RuleViolation::CompulsoryFirst(self.name(i)));
        }
        self.take_card(i, false)
    }

    fn leaderless_roll<D: Dice + ?Sized>(&self, i: usize, dice: &mut D) -> bool {
        let u = &self.units[i];
        let leader = u.own_leader() || self.attached_officer(u).is_some();
        !leader && LeaderlessDie { quality: u.quality }.roll(dice)
    }

    /// A unit moves on its card (TSATF-MOV-01 to TSATF-MOV-16): a leaderless unit first rolls its die and may
    /// be stopped (TSATF-CMD-02); a unit frozen by Major Morale may only change formation or facing
    /// (TSATF-MOV-14); a pinned, shaken or routed unit takes its compulsory move instead. The dice are rolled with
    /// every "drop the highest die" penalty, halved while carrying wounded (TSATF-MOV-15), and the formation
    /// change is paid out of them (TSATF-MOV-11).
    pub fn move_unit<D: Dice + ?Sized>(
        &mut self,
        unit: UnitId,
        order: &MoveOrder,
        dice: &mut D,
    ) -> Rule<MoveReport> {
        self.need_phase("moving", Phase::Movement)?;
        let i = self.idx(unit)?;
        let u = &self.units[i];
        if u.compulsory.is_some() {
            return Err(RuleViolation::CompulsoryFirst(u.name.clone()));
        }
        if matches!(u.morale, MoraleState::Pinned | MoraleState::Routed) {
            return Err(RuleViolation::MoraleForbids {
                unit: u.name.clone(),
                state: u.morale,
                action: "move",
            });
        }
        if u.frozen && order.mode.is_some() {
            return Err(RuleViolation::Frozen(u.name.clone()));
        }
        let row = u.move_row().ok_or(RuleViolation::Cannot {
            unit: u.name.clone(),
            action: "move by the movement table",
        })?;
        if let Some((f, d)) = order.formation {
            movement::length("the furthest figure's distance", d)?;
            self.check_formation(i, f, order.mount)?;
        } else if order.mount.is_some() && u.kind == UnitKind::Cavalry {
            // mounting out of skirmish order, or dismounting, keeps the formation: it must suit the new state
            self.check_formation(i, u.formation, order.mount)?;
        }
        if order.mount.is_some() && u.kind != UnitKind::Cavalry {
            return Err(RuleViolation::Cannot {
                unit: u.name.clone(),
                action: "mount or dismount",
            });
        }
        if order.mount == Some(u.mounted) {
            return Err(RuleViolation::Cannot {
                unit: u.name.clone(),
                action: "mount or dismount into the state it is in",
            });
        }
        if order.mount == Some(true)
            && self.options.horseholder_loss_blocks_remount
            && u.horseholders_lost > 0
        {
            return Err(RuleViolation::Cannot {
                unit: u.name.clone(),
                action: "remount: a horseholder was lost",
            });
        }
        if order.limber.is_some() && !u.kind.is_gun() {
            return Err(RuleViolation::Cannot {
                unit: u.name.clone(),
                action: "limber or unlimber",
            });
        }
        let limbered = u.formation == Formation::Limbered;
        if order.limber == Some(limbered) {
            return Err(RuleViolation::Cannot {
                unit: u.name.clone(),
                action: "limber or unlimber into the state it is in",
            });
        }
        let mut facts = order.facts;
        facts.mount_change |= order.mount.is_some() || order.from_train;
        facts.limber_change |= order.limber.is_some();
        let mode = order.mode.unwrap_or(MoveMode::CrossCountry);
        if mode == MoveMode::Charge {
            return Err(RuleViolation::Cannot {
                unit: u.name.clone(),
                action: "charge without declaring a target",
            });
        }
        let md = movement::move_dice(
            row,
            mode,
            facts,
            u.quality == Quality::Indians,
            &self.options,
        )?;
        let mut scouting = Vec::with_capacity(order.scout_for.len());
        for &(t, d) in &order.scout_for {
            let k = self.idx(t)?;
            if movement::length("the distance to a hidden unit", d)?
                <= self.options.spotting_distance
            {
                scouting.push(k);
            }
        }
        if !scouting.is_empty() && !u.scouts {
            return Err(RuleViolation::Cannot {
                unit: u.name.clone(),
                action: "scout: it is not trained for it",
            });
        }
        self.transact(dice, |b, dice| {
            b.take_card(i, false)?;
            // a unit that moves off gives up its place before a protected position (TSATF-MEL-25)
            b.units[i].assault_ready = None;
            if b.leaderless_roll(i, dice) {
                return Ok(MoveReport {
                    unit: b.name(i),
                    leaderless_halt: true,
                    dice: None,
                    rolled: 0,
                    allowance: 0.0,
                    spotted: Vec::new(),
                });
            }
            let rolled = md.roll(dice);
            let carrying = b.units[i]
                .figures
                .iter()
                .any(|f| f.carrying && f.is_active());
            let mut allowance = if carrying {
                movement::carrying_wounded(f64::from(rolled))
            } else {
                f64::from(rolled)
            };
            if let Some((f, d)) = order.formation {
                allowance = movement::formation_change(d, allowance, &b.options)?;
                b.units[i].formation = f;
            }
            if order.mode.is_none() {
                allowance = 0.0;
            }
            let opts = b.options.clone();
            match order.mount {
                Some(false) => b.units[i].dismount(&opts),
                Some(true) => {
                    b.units[i].remount(&opts);
                }
                None => {}
            }
            match order.limber {
                Some(true) => b.units[i].formation = Formation::Limbered,
                Some(false) => b.units[i].formation = Formation::Unlimbered,
                None => {
                    if b.units[i].kind.is_gun()
                        && b.units[i].formation == Formation::Unlimbered
                        && order.mode.is_some()
                    {
                        b.units[i].hauled = true;
                    }
                }
            }
            let mut spotted = Vec::new();
            if !scouting.is_empty() && SixRoll.roll(dice) {
                for &t in &scouting {
                    if b.units[t].hidden && b.units[t].side != b.units[i].side {
                        b.units[t].hidden = false;
                        spotted.push(b.name(t));
                    }
                }
            }
            Ok(MoveReport {
                unit: b.name(i),
                leaderless_halt: false,
                dice: Some(md),
                rolled,
                allowance,
                spotted,
            })
        })
    }

    fn check_formation(&self, i: usize, f: Formation, mount: Option<bool>) -> Rule<()> {
        let u = &self.units[i];
        let mounted = mount.unwrap_or(u.mounted);
        let foot = matches!(
            f,
            Formation::CloseOrderLine
                | Formation::MarchColumn
                | Formation::AssaultColumn
                | Formation::SkirmishLine
        );
        let ok = match u.kind {
            UnitKind::Infantry => foot,
            UnitKind::Cavalry if mounted => {
                matches!(f, Formation::CloseOrderLine | Formation::MarchColumn)
            }
            UnitKind::Cavalry => foot,
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(RuleViolation::Cannot {
                unit: u.name.clone(),
                action: "take that formation",
            })
        }
    }

    /// A unit spends its card taking down a fence or similar obstacle in contact (TSATF-MOV-12): it does not
    /// move; it may still fire.
    pub fn dismantle(&mut self, unit: UnitId) -> Rule<()> {
        self.need_phase("dismantling an obstacle", Phase::Movement)?;
        let i = self.idx(unit)?;
        let u = &self.units[i];
        if u.compulsory.is_some() {
            return Err(RuleViolation::CompulsoryFirst(u.name.clone()));
        }
        if u.frozen || matches!(u.morale, MoraleState::Pinned | MoraleState::Routed) {
            return Err(RuleViolation::MoraleForbids {
                unit: u.name.clone(),
                state: u.morale,
                action: "dismantle an obstacle",
            });
        }
        self.take_card(i, false)
    }

    /// A unit makes its compulsory move (TSATF-SEQ-05, TSATF-MOV-13, TSATF-MOR-08): a rout or a shaken retreat
    /// is 4D6 toward the edge; a pinned unit stays where it is. `reaches_edge`: the measured move takes it off
    /// the table, and it is out of the game. Under [`Options::leaderless_blocks_compulsory`] a leaderless unit
    /// rolls its die first. Returns the inches moved.
    pub fn compulsory_move<D: Dice + ?Sized>(
        &mut self,
        unit: UnitId,
        reaches_edge: bool,
        dice: &mut D,
    ) -> Rule<u32> {
        self.compulsory_inner(unit, |_| reaches_edge, dice)
    }

    /// A compulsory move measured as it is rolled (TSATF-SEQ-05, TSATF-MOV-13, TSATF-MOR-08): `room` is the
    /// distance in inches to the edge the unit makes for, and a move of at least that many takes it off the
    /// table. The same rules as [`Battle::compulsory_move`]; refused for a negative or non-finite room.
    pub fn compulsory_move_within<D: Dice + ?Sized>(
        &mut self,
        unit: UnitId,
        room: f64,
        dice: &mut D,
    ) -> Rule<u32> {
        movement::length("the room to the table edge", room)?;
        self.compulsory_inner(unit, |d| f64::from(d) >= room, dice)
    }

    fn compulsory_inner<D: Dice + ?Sized>(
        &mut self,
        unit: UnitId,
        reaches: impl Fn(u32) -> bool,
        dice: &mut D,
    ) -> Rule<u32> {
        self.need_phase("a compulsory move", Phase::Movement)?;
        let i = self.idx(unit)?;
        let c = self.units[i]
            .compulsory
            .ok_or(RuleViolation::NoCompulsoryMove(self.name(i)))?;
        self.transact(dice, |b, dice| {
            b.take_card(i, true)?;
            b.units[i].compulsory = None;
            if c == Compulsory::StayPinned {
                return Ok(0);
            }
            if b.options.leaderless_blocks_compulsory && b.leaderless_roll(i, dice) {
                return Ok(0);
            }
            let d = Flight.roll(dice);
            if reaches(d) {
                b.units[i].off_table = true;
                for f in &mut b.units[i].figures {
                    if f.is_active() {
                        f.status = Status::OffTable;
                    }
                }
                b.refresh_commander(b.units[i].side);
            }
            Ok(d)
        })
    }

    /// The cavalry unit that split its movement dice this turn, if any (TSATF-MOV-17).
    #[must_use]
    pub fn split_unit(&self) -> Option<UnitId> {
        self.split
    }

    /// A cavalry unit rolls its movement dice to spend one at a time (TSATF-MOV-17): only when the option is
    /// agreed. It may dismount or remount with [`Battle::split_mount`] and, by default, fire during the
    /// movement phase.
    pub fn split_move<D: Dice + ?Sized>(&mut self, unit: UnitId, dice: &mut D) -> Rule<SplitMove> {
        self.need_phase("split movement", Phase::Movement)?;
        let i = self.idx(unit)?;
        let u = &self.units[i];
        if self.options.split_cavalry_dice.is_none() || u.kind != UnitKind::Cavalry {
            return Err(RuleViolation::Cannot {
                unit: u.name.clone(),
                action: "split its movement dice",
            });
        }
        if u.compulsory.is_some() {
            return Err(RuleViolation::CompulsoryFirst(u.name.clone()));
        }
        if u.frozen || matches!(u.morale, MoraleState::Pinned | MoraleState::Routed) {
            return Err(RuleViolation::MoraleForbids {
                unit: u.name.clone(),
                state: u.morale,
                action: "move",
            });
        }
        let row = u.move_row().ok_or(RuleViolation::Cannot {
            unit: u.name.clone(),
            action: "move by the table",
        })?;
        let n = row.dice(MoveMode::CrossCountry).unwrap_or(0);
        self.transact(dice, |b, dice| {
            b.take_card(i, false)?;
            b.split = Some(unit);
            Ok(SplitMove::roll(n, dice))
        })
    }

    /// Within a split move, mounts or dismounts, spending the highest die left (TSATF-MOV-17, TSATF-MOV-08).
    pub fn split_mount(&mut self, unit: UnitId, mount: bool, split: &mut SplitMove) -> Rule<()> {
        let i = self.idx(unit)?;
        if self.split != Some(unit)
            || self.phase != Phase::Movement
            || self.units[i].mounted == mount
        {
            return Err(RuleViolation::Cannot {
                unit: self.name(i),
                action: "change its mount now",
            });
        }
        if mount
            && !matches!(
                self.units[i].formation,
                Formation::CloseOrderLine | Formation::MarchColumn
            )
        {
            return Err(RuleViolation::Cannot {
                unit: self.name(i),
                action: "remount out of skirmish order",
            });
        }
        if mount
            && self.options.horseholder_loss_blocks_remount
            && self.units[i].horseholders_lost > 0
        {
            return Err(RuleViolation::Cannot {
                unit: self.name(i),
                action: "remount: a horseholder was lost",
            });
        }
        split.spend_mount_change().ok_or(RuleViolation::Cannot {
            unit: self.name(i),
            action: "change its mount with no die left",
        })?;
        let opts = self.options.clone();
        if mount {
            self.units[i].remount(&opts);
        } else {
            self.units[i].dismount(&opts);
        }
        Ok(())
    }

    /// Marks `carriers` active privates as carrying wounded comrades (TSATF-MOV-15): campaign games only, one
    /// wounded man each. They move at half speed and may not fire.
    pub fn carry_wounded(&mut self, unit: UnitId, carriers: u16) -> Rule<()> {
        let i = self.idx(unit)?;
        let u = &self.units[i];
        if self.options.wound_policy != WoundPolicy::Campaign || carriers > u.wounded() {
            return Err(RuleViolation::Cannot {
                unit: u.name.clone(),
                action: "carry more wounded than it has",
            });
        }
        let free: Vec<usize> = (0..u.figures.len())
            .filter(|&k| u.figures[k].can_fight() && u.figures[k].role == Role::Private)
            .collect();
        if free.len() < usize::from(carriers) {
            return Err(RuleViolation::Cannot {
                unit: u.name.clone(),
                action: "find that many men to carry wounded",
            });
        }
        for f in &mut self.units[i].figures {
            f.carrying = false;
        }
        for &k in free.iter().take(usize::from(carriers)) {
            self.units[i].figures[k].carrying = true;
        }
        Ok(())
    }

    /// A gunboat moves on its card (TSATF-OPT-08): 3D6 forward, 2D6 reversing or against the current.
    pub fn gunboat_move<D: Dice + ?Sized>(
        &mut self,
        unit: UnitId,
        against_current: bool,
        dice: &mut D,
    ) -> Rule<u32> {
        self.need_phase("a gunboat's move", Phase::Movement)?;
        let i = self.idx(unit)?;
        if !matches!(self.units[i].kind, UnitKind::Gunboat { .. }) || self.units[i].disabled {
            return Err(RuleViolation::Cannot {
                unit: self.name(i),
                action: "steam",
            });
        }
        let m = if against_current {
            VehicleMove::GunboatAgainstCurrent
        } else {
            VehicleMove::GunboatForward
        };
        self.transact(dice, |b, dice| {
            b.take_card(i, false)?;
            Ok(m.roll(dice))
        })
    }

    /// A vessel in a suspicious stretch of river rolls for torpedoes (TSATF-OPT-09): a 6 strikes one and the
    /// vessel is disabled for the rest of the game.
    pub fn torpedo_check<D: Dice + ?Sized>(&mut self, unit: UnitId, dice: &mut D) -> Rule<bool> {
        let i = self.idx(unit)?;
        if !matches!(self.units[i].kind, UnitKind::Gunboat { .. }) {
            return Err(RuleViolation::Cannot {
                unit: self.name(i),
                action: "strike a torpedo",
            });
        }
        self.transact(dice, |b, dice| {
            let hit = SixRoll.roll(dice);
            if hit {
                b.units[i].disabled = true;
            }
            Ok(hit)
        })
    }

    /// A train moves on its card (TSATF-OPT-10, TSATF-CAS-07): it starts (2D6), runs (4D6) or stops (2D6); with
    /// no crew it cannot start and a moving train stops.
    pub fn train_move<D: Dice + ?Sized>(
        &mut self,
        unit: UnitId,
        keep_moving: bool,
        dice: &mut D,
    ) -> Rule<u32> {
        self.need_phase("a train's move", Phase::Movement)?;
        let i = self.idx(unit)?;
        if !matches!(self.units[i].kind, UnitKind::Train { .. }) {
            return Err(RuleViolation::Cannot {
                unit: self.name(i),
                action: "run on rails",
            });
        }
        let crew = self.units[i]
            .figures
            .iter()
            .any(|f| f.is_active() && f.role == Role::Crew);
        let (m, next) = movement::train_step(self.units[i].train, keep_moving, crew)?;
        self.transact(dice, |b, dice| {
            b.take_card(i, false)?;
            b.units[i].train = next;
            Ok(m.roll(dice))
        })
    }

    /// Reveals a hidden unit when enemy troops come within 4" of it (TSATF-OPT-04); `nearest_enemy` is the
    /// measured distance. Returns whether it was revealed.
    pub fn reveal_if_near(&mut self, unit: UnitId, nearest_enemy: f64) -> Rule<bool> {
        movement::length("the nearest enemy's distance", nearest_enemy)?;
        let i = self.idx(unit)?;
        let near = self.units[i].hidden && nearest_enemy <= tables::REVEAL_DISTANCE;
        if near {
            self.units[i].hidden = false;
        }
        Ok(near)
    }

    // ----- charges -----

    /// A unit declares and moves a charge on its card (TSATF-MEL-01 to TSATF-MEL-06, TSATF-MOV-05,
    /// TSATF-MEL-25): it must be steady, not frozen, and able to charge; against a protected position the first
    /// turn only brings it up; otherwise stragglers are rolled (the charge halting at half strength or less),
    /// then the charge dice, marking the unused movement.
    pub fn charge<D: Dice + ?Sized>(
        &mut self,
        unit: UnitId,
        order: &ChargeOrder,
        dice: &mut D,
    ) -> Rule<ChargeReport> {
        self.need_phase("a charge", Phase::Movement)?;
        movement::length("the distance to the target", order.distance)?;
        let (i, t) = (self.idx(unit)?, self.idx(order.target)?);
        let u = &self.units[i];
        if u.compulsory.is_some() {
            return Err(RuleViolation::CompulsoryFirst(u.name.clone()));
        }
        if u.morale != MoraleState::Steady {
            return Err(RuleViolation::MoraleForbids {
                unit: u.name.clone(),
                state: u.morale,
                action: "charge",
            });
        }
        if u.frozen {
            return Err(RuleViolation::Frozen(u.name.clone()));
        }
        let target = &self.units[t];
        if target.side == u.side || !self.in_play(target) {
            return Err(RuleViolation::NotEnemy(target.name.clone()));
        }
        if target.hidden {
            return Err(RuleViolation::Hidden(target.name.clone()));
        }
        let row = u.move_row().ok_or(RuleViolation::Cannot {
            unit: u.name.clone(),
            action: "charge",
        })?;
        let indians = u.quality == Quality::Indians;
        let facts = MoveFacts {
            rough_features: order.rough_features,
            ..MoveFacts::default()
        };
        let charge_dice =
            movement::move_dice(row, MoveMode::Charge, facts, indians, &self.options)?;
        let approach = order.protected && u.assault_ready != Some(order.target);
        let approach_dice =
            movement::move_dice(row, MoveMode::CrossCountry, facts, indians, &self.options)?;
        self.transact(dice, |b, dice| {
            b.take_card(i, false)?;
            b.units[i].hidden = false;
            if b.leaderless_roll(i, dice) {
                return Ok(ChargeReport::LeaderlessHalt);
            }
            let need = (order.distance - tables::CONTACT_DISTANCE).max(0.0);
            if approach {
                let rolled = approach_dice.roll(dice);
                let in_position = f64::from(rolled) >= need;
                if in_position {
                    b.units[i].assault_ready = Some(order.target);
                }
                return Ok(ChargeReport::Approached {
                    rolled,
                    in_position,
                });
            }
            b.units[i].assault_ready = None;
            b.units[i].charged = true;
            let u = &b.units[i];
            let charging = u.figures.iter().filter(|f| f.can_fight()).count() as u16;
            let may: Vec<usize> = (0..u.figures.len())
                .rev()
                .filter(|&k| u.figures[k].can_fight() && u.figures[k].category() != Category::Cadre)
                .collect();
            let sr = StragglerRoll {
                charging,
                may_straggle: may.len() as u16,
                starting: u.starting,
            };
            let (stragglers, halted) = sr.roll(dice);
            // enlisted men straggle before key figures
            let mut order_may = may.clone();
            order_may.sort_by_key(|&k| b.units[i].figures[k].category() != Category::Enlisted);
            for &k in order_may.iter().take(usize::from(stragglers)) {
                b.units[i].figures[k].straggling = true;
            }
            if halted {
                b.units[i].set_morale(MoraleState::Pinned);
                return Ok(ChargeReport::Halted { stragglers });
            }
            let pool = charge_dice.kept();
            let throw =
                acw_core::dice::Pool::new(u32::from(charge_dice.dice.max(1)), acw_core::Die::D6)
                    .map_err(|_| RuleViolation::NoRate {
                        row,
                        mode: MoveMode::Charge,
                    })?
                    .throw(dice);
            let mut faces: Vec<u16> = throw.faces().to_vec();
            faces.sort_unstable();
            let kept: Vec<u16> = faces.iter().copied().take(usize::from(pool)).collect();
            let rolled: u32 = kept.iter().map(|&f| u32::from(f)).sum();
            if f64::from(rolled) < need {
                return Ok(ChargeReport::Short { stragglers, rolled });
            }
            let id = ChargeId(b.next_charge);
            b.next_charge += 1;
            let unused = f64::from(rolled) - need;
            b.charges.push(Charge {
                id,
                attacker: unit,
                target: order.target,
                unused,
                highest_die: kept.last().copied().unwrap_or(0),
                protected: order.protected,
                flank_or_rear: order.flank_or_rear,
                step: ChargeStep::Contact,
                captive_melee: false,
            });
            Ok(ChargeReport::Contact {
                charge: id,
                stragglers,
                rolled,
                unused,
            })
        })
    }

    fn charge_index(&self, id: ChargeId, step: ChargeStep, what: &'static str) -> Rule<usize> {
        self.need_phase("close combat", Phase::CloseCombat)?;
        let k = self
            .charges
            .iter()
            .position(|c| c.id == id)
            .ok_or(RuleViolation::NoSuchCharge(id.0))?;
        if self.charges[k].step != step {
            return Err(RuleViolation::ChargeStep(what));
        }
        // charges are resolved in the order they were moved (TSATF-SEQ-07)
        if self.charges[..k].iter().any(|c| c.step != ChargeStep::Done) {
            return Err(RuleViolation::ChargeStep(
                "an earlier charge must be resolved first",
            ));
        }
        Ok(k)
    }

    /// The first close-combat step of a charge (TSATF-SEQ-06, TSATF-SEQ-07, TSATF-MEL-05 to TSATF-MEL-09,
    /// TSATF-MEL-28): if the target has gone, the chargers take its ground; a charge at half strength or less
    /// (stragglers and fire casualties) halts and is pinned; a routed target is caught without tests; otherwise
    /// the attackers test to close.
    pub fn close_in<D: Dice + ?Sized>(
        &mut self,
        charge: ChargeId,
        target_in_reach: bool,
        dice: &mut D,
    ) -> Rule<CloseReport> {
        let k = self.charge_index(
            charge,
            ChargeStep::Contact,
            "the tests to close have been taken",
        )?;
        let c = self.charges[k];
        let (a, t) = (c.attacker.0 as usize, c.target.0 as usize);
        let modifier = self.test_modifier(c.attacker)?;
        let leader = self.with_leader(c.attacker)?;
        self.transact(dice, |b, dice| {
            b.charges[k].step = ChargeStep::Done;
            if !target_in_reach || !b.in_play(&b.units[t]) {
                return Ok(match b.options.evaded_charge {
                    EvadedCharge::StayInPlace => CloseReport::StayedPut,
                    _ => CloseReport::Occupied,
                });
            }
            let charging = b.units[a].figures.iter().filter(|f| f.can_fight()).count() as u32;
            if 2 * charging <= u32::from(b.units[a].starting) {
                b.units[a].set_morale(MoraleState::Pinned);
                return Ok(CloseReport::Halted);
            }
            if b.units[t].morale == MoraleState::Routed {
                b.charges[k].step = ChargeStep::AwaitMelee;
                b.charges[k].captive_melee = true;
                return Ok(CloseReport::RoutedTarget);
            }
            let test = CloseTest::new(b.units[a].quality, leader, modifier, &b.options);
            if !test.roll(dice) {
                b.units[a].set_morale(MoraleState::Pinned);
                return Ok(CloseReport::FailedToClose);
            }
            b.charges[k].step = ChargeStep::AwaitStand;
            Ok(CloseReport::Closed)
        })
    }

    /// The defenders' stand-and-fight test (TSATF-MEL-10 to TSATF-MEL-13, TSATF-MEL-27): on a pass, melee; on a
    /// fail they flee 4D6 shaken, and the chargers catch them if their unused movement (less the highest charge
    /// die when they cross a protected position) reaches 1" beyond the flight.
    pub fn stand<D: Dice + ?Sized>(&mut self, charge: ChargeId, dice: &mut D) -> Rule<StandReport> {
        let k = self.charge_index(
            charge,
            ChargeStep::AwaitStand,
            "the defenders' test is not next",
        )?;
        let c = self.charges[k];
        let t = c.target.0 as usize;
        let modifier = self.test_modifier(c.target)?;
        let leader = self.with_leader(c.target)?;
        self.transact(dice, |b, dice| {
            let test = CloseTest::new(b.units[t].quality, leader, modifier, &b.options);
            if test.roll(dice) {
                b.charges[k].step = ChargeStep::AwaitMelee;
                return Ok(StandReport::Stood);
            }
            b.units[t].set_morale(MoraleState::Shaken);
            let unused = if c.protected {
                (c.unused - f64::from(c.highest_die)).max(0.0)
            } else {
                c.unused
            };
            let (caught, flight) = CatchRoll { unused }.roll(dice);
            if !caught {
                b.charges[k].step = ChargeStep::Done;
                return Ok(StandReport::Fled { flight });
            }
            match b.options.caught_fleeing {
                CaughtFleeing::Captured => {
                    b.capture_all(t);
                    b.charges[k].step = ChargeStep::Done;
                    Ok(StandReport::Caught {
                        flight,
                        captured: true,
                    })
                }
                _ => {
                    b.charges[k].step = ChargeStep::AwaitMelee;
                    b.charges[k].captive_melee = true;
                    Ok(StandReport::Caught {
                        flight,
                        captured: false,
                    })
                }
            }
        })
    }

    fn capture_all(&mut self, t: usize) -> u16 {
        let mut n = 0;
        for f in &mut self.units[t].figures {
            if f.is_active() {
                f.status = Status::Captured;
                n += 1;
            }
        }
        self.refresh_commander(self.units[t].side);
        n
    }

    fn melee_facts(&self, i: usize, enemy: usize, attacking: bool, c: &Charge) -> MeleeFacts {
        let u = &self.units[i];
        let e = &self.units[enemy];
        let row = if u.kind == UnitKind::Cavalry && u.mounted && u.quality != Quality::Indians {
            MeleeRow::Cavalry
        } else {
            MeleeRow::infantry(u.quality)
        };
        let captive = !attacking && c.captive_melee;
        MeleeFacts {
            row,
            charging: attacking,
            enemy_infantry: !(e.kind == UnitKind::Cavalry && e.mounted),
            defending: if attacking {
                Defending::No
            } else if captive
                || u.formation == Formation::SkirmishLine
                || u.quality == Quality::Indians
            {
                Defending::OpenOrder
            } else {
                Defending::CloseOrder
            },
            in_column: matches!(
                u.formation,
                Formation::AssaultColumn | Formation::MarchColumn
            ),
            cover: !attacking && c.protected && !captive,
            flank_or_rear: !attacking && (c.flank_or_rear || captive),
            on_obstacle: attacking && c.protected,
        }
    }

    fn fighters(&self, i: usize) -> (Vec<usize>, Vec<usize>) {
        let u = &self.units[i];
        let fit: Vec<usize> = (0..u.figures.len())
            .filter(|&k| u.figures[k].can_fight())
            .collect();
        let (cadre, others) = fit
            .into_iter()
            .partition(|&k| u.figures[k].category() == Category::Cadre);
        (cadre, others)
    }

    /// The melee of a charge (TSATF-MEL-14 to TSATF-MEL-24, TSATF-MEL-26, TSATF-MEL-28, TSATF-MEL-29): the
    /// fighting figures are paired in each owner's order and fight round after round to the end; losses are
    /// applied figure by figure; the losers become shaken and flee 4D6 (or are all captured when they were
    /// routed or caught fleeing); victorious attackers who pursue capture them if their unused movement reaches;
    /// the losers' colours are rolled for, and colours held from the winners may be recovered.
    pub fn melee<D: Dice + ?Sized>(
        &mut self,
        charge: ChargeId,
        order: &MeleeOrder,
        dice: &mut D,
    ) -> Rule<MeleeReport> {
        let k = self.charge_index(charge, ChargeStep::AwaitMelee, "the melee is not next")?;
        let c = self.charges[k];
        let (a, t) = (c.attacker.0 as usize, c.target.0 as usize);
        self.transact(dice, |b, dice| {
            b.charges[k].step = ChargeStep::Done;
            let (ac, ao) = b.fighters(a);
            let (dc, dd) = b.fighters(t);
            let small = |n: usize| u8::try_from(n).unwrap_or(u8::MAX);
            let fa = b.melee_facts(a, t, true, &c);
            let fd = b.melee_facts(t, a, false, &c);
            let melee = Melee::new(
                MeleeSide {
                    cadre: small(ac.len()),
                    others: small(ao.len()),
                    modifier: crate::melee::side_modifier(fa, &b.options),
                    cadre_first: order.attacker_cadre_first,
                },
                MeleeSide {
                    cadre: small(dc.len()),
                    others: small(dd.len()),
                    modifier: crate::melee::side_modifier(fd, &b.options),
                    cadre_first: order.defender_cadre_first,
                },
                &b.options,
            );
            let melee = match order.obstacle_room {
                Some(room) if c.protected => melee.with_front(room),
                _ => melee,
            };
            let tally = melee.fight(dice);
            b.apply_melee_losses(a, &ac, &ao, &tally.attackers);
            b.apply_melee_losses(t, &dc, &dd, &tally.defenders);
            let (w, l) = match tally.outcome.winner {
                Party::Attackers => (a, t),
                Party::Defenders => (t, a),
            };
            let mut captured = 0;
            let mut flight = None;
            if c.captive_melee && w == a {
                captured = b.capture_all(l);
            } else if b.units[l].strength() > 0 {
                b.units[l].set_morale(MoraleState::Shaken);
                let d = Flight.roll(dice);
                flight = Some(d);
                if order.non_fighters_contacted {
                    for f in &mut b.units[l].figures {
                        if f.is_active() && !f.can_fight() {
                            f.status = Status::Captured;
                            captured += 1;
                        }
                    }
                }
                if w == a && order.pursue && c.unused >= tables::CONTACT_DISTANCE + f64::from(d) {
                    captured += b.capture_all(l);
                }
            }
            let mut colours_taken = false;
            if b.units[l].colours && ColoursRoll.roll(dice) {
                b.units[l].colours = false;
                let lid = b.units[l].id;
                b.units[w].colours_held.push(lid);
                colours_taken = true;
            }
            let wid = b.units[w].id;
            let mut colours_recovered = false;
            if b.units[l].colours_held.contains(&wid) {
                let back = match b.options.colour_recovery {
                    ColourRecovery::AutomaticOnMeleeWin => true,
                    _ => ColoursRoll.roll(dice),
                } || b.units[l].strength() == 0;
                if back {
                    b.units[l].colours_held.retain(|&x| x != wid);
                    b.units[w].colours = true;
                    colours_recovered = true;
                }
            }
            b.refresh_commander(Side::Union);
            b.refresh_commander(Side::Confederate);
            Ok(MeleeReport {
                winner: b.name(w),
                loser: b.name(l),
                party: tally.outcome.winner,
                tally,
                flight,
                captured,
                colours_taken,
                colours_recovered,
                melee,
            })
        })
    }

    fn apply_melee_losses(
        &mut self,
        i: usize,
        cadre: &[usize],
        others: &[usize],
        l: &crate::melee::MeleeLosses,
    ) {
        let shaken = self.units[i].morale == MoraleState::Shaken;
        for (cat, list) in [(0usize, cadre), (1, others)] {
            let mut it = list.iter().copied();
            for (n, s) in [
                (l.killed[cat], Status::Killed),
                (l.wounded[cat], Status::Wounded),
            ] {
                for _ in 0..n {
                    if let Some(k) = it.next() {
                        self.units[i].figures[k].status = s;
                        if shaken && self.options.hits_include_melee {
                            self.units[i].hit_while_shaken = true;
                        }
                    }
                }
            }
        }
    }

    // ----- fire -----

    fn fire_check(&self, i: usize) -> Rule<()> {
        let u = &self.units[i];
        let refuse = |reason| {
            Err(RuleViolation::MayNotFire {
                unit: u.name.clone(),
                reason,
            })
        };
        match u.morale {
            MoraleState::Pinned => return refuse("it is pinned"),
            MoraleState::Shaken => return refuse("it is shaken"),
            MoraleState::Routed => return refuse("it is routed"),
            MoraleState::Steady => {}
        }
        if u.charged {
            return refuse("it charged this turn");
        }
        if u.fired {
            return refuse("it has already fired this turn");
        }
        let ammo_rule =
            self.options.fire_system == FireSystem::TypeFiring || self.options.ammo_in_mass_fire;
        if ammo_rule {
            match u.ammo {
                None => return refuse("its ammunition supply has not been rolled"),
                Some(0) => return refuse("it is out of ammunition"),
                _ => {}
            }
        }
        if u.kind.is_gun() {
            if u.formation == Formation::Limbered {
                return refuse("a limbered gun cannot fire");
            }
            if u.hauled && !self.options.hand_hauled_may_fire {
                return refuse("it was hauled by hand this turn");
            }
        }
        Ok(())
    }

    /// Figures a unit fires with (TSATF-FIR-02, TSATF-FIR-05, TSATF-ART-01, TSATF-ART-02, TSATF-ART-08,
    /// TSATF-CAS-06: a gun that has lost crew below four is silent until spares bring it back):
    /// rank-and-file able to fire (NCOs included unless they fire pistols; officers and snipers fire alone),
    /// cut to those in reach and to one rank; for guns 12 with four crew.
    fn fire_figures(&self, i: usize, in_reach: Option<u16>) -> Rule<u16> {
        let u = &self.units[i];
        if let UnitKind::Gunboat { guns } = u.kind {
            let manned = (u.crew() / tables::MIN_GUN_CREW).min(u16::from(guns));
            if manned == 0 {
                return Err(RuleViolation::MayNotFire {
                    unit: u.name.clone(),
                    reason: "no gun has four crew",
                });
            }
            return Ok(manned * tables::MIN_GUN_CREW * tables::CREW_FIRE_FACTOR);
        }
        if u.kind.is_gun() {
            return fire::gun_figures(u.crew(), u.kind == UnitKind::Gatling, &self.options)
                .map_err(|reason| RuleViolation::MayNotFire {
                    unit: u.name.clone(),
                    reason,
                });
        }
        let eligible = u
            .figures
            .iter()
            .filter(|f| f.can_fight())
            .filter(|f| match f.role {
                Role::Officer(_) | Role::Sniper => false,
                Role::Nco | Role::SergeantMajor => !self.options.nco_pistols,
                _ => true,
            })
            .count() as u16;
        let eligible = in_reach.map_or(eligible, |r| eligible.min(r));
        let ranks = match u.formation {
            Formation::CloseOrderLine => Ranks::TwoRankLine,
            Formation::MarchColumn | Formation::AssaultColumn => Ranks::Column {
                cavalry: u.kind == UnitKind::Cavalry && u.mounted,
            },
            _ => Ranks::Open,
        };
        Ok(fire::firers(eligible, ranks, &self.options))
    }

    /// Type Firing dice: one D20 a firing figure, three a crewman of the basic four (TSATF-FIR-23,
    /// TSATF-ART-09).
    fn type_dice(&self, i: usize, figures: u16) -> u16 {
        if self.units[i].kind.is_gun() || matches!(self.units[i].kind, UnitKind::Gunboat { .. }) {
            figures / tables::CREW_FIRE_FACTOR * tables::TYPE_FIRE_DICE_PER_CREWMAN
        } else {
            figures
        }
    }

    /// A unit fires on its card (TSATF-FIR-01 to TSATF-FIR-18, TSATF-FIR-23 to TSATF-FIR-25, TSATF-ART-01 to
    /// TSATF-ART-04, TSATF-ART-10): checks who may fire, finds the row and class, rolls mass fire (or type
    /// firing), draws a hit card for each hit and applies it. Units named in `with` fire pooled with it (when the
    /// options allow) and spend their cards too. In the movement phase only a cavalry unit that split its dice
    /// may fire.
    pub fn fire<D: Dice + ?Sized>(
        &mut self,
        unit: UnitId,
        order: &FireOrder,
        dice: &mut D,
    ) -> Rule<FireReport> {
        let i = self.idx(unit)?;
        let t = self.idx(order.target)?;
        let split_fire = self.phase == Phase::Movement
            && self.split == Some(unit)
            && self.options.split_cavalry_dice == Some(SplitFire::DuringMovement);
        if !split_fire {
            self.need_phase("fire", Phase::Firing)?;
        }
        movement::length("the range", order.range)?;
        self.fire_check(i)?;
        let target = &self.units[t];
        if target.side == self.units[i].side || !self.in_play(target) {
            return Err(RuleViolation::NotEnemy(target.name.clone()));
        }
        if target.hidden {
            return Err(RuleViolation::Hidden(target.name.clone()));
        }
        let u = &self.units[i];
        let row = match u.kind {
            UnitKind::Artillery | UnitKind::HeavyGun { .. } | UnitKind::Gunboat { .. } => {
                fire::gun_row(
                    order.range,
                    order.canister,
                    matches!(u.kind, UnitKind::HeavyGun { mortar: true }),
                    &self.options,
                )?
            }
            _ => u.fire_row.ok_or(RuleViolation::MayNotFire {
                unit: u.name.clone(),
                reason: "it has no weapon",
            })?,
        };
        if !fire::in_range(row, order.range)? {
            return Err(RuleViolation::OutOfRange {
                row,
                range: order.range,
            });
        }
        let mut class = match target.kind {
            UnitKind::Train { .. } => TargetClass::III,
            _ => fire::target_class(order.area, &self.options),
        };
        if matches!(u.kind, UnitKind::HeavyGun { mortar: true }) && self.options.mortar_plunging {
            class = fire::plunging(class);
        }
        let mut figures = self.fire_figures(i, order.in_reach)?;
        let mut partners = Vec::new();
        if !order.with.is_empty() {
            let pooled = self.options.remainder == Remainder::Pool
                || (u.kind.is_gun() && self.options.battery_fire == BatteryFire::Pooled);
            if !pooled {
                return Err(RuleViolation::Cannot {
                    unit: u.name.clone(),
                    action: "pool its fire with other units",
                });
            }
            for &p in &order.with {
                let pi = self.idx(p)?;
                let pu = &self.units[pi];
                if pi == i
                    || pu.side != u.side
                    || pu.fire_row != u.fire_row
                    || pu.acted
                    || pu.kind != u.kind
                {
                    return Err(RuleViolation::Cannot {
                        unit: pu.name.clone(),
                        action: "fire pooled with that unit",
                    });
                }
                self.fire_check(pi)?;
                figures += self.fire_figures(pi, None)?;
                partners.push(pi);
            }
        }
        let remainder = self.options.remainder;
        let type_firing = self.options.fire_system == FireSystem::TypeFiring;
        let td = self.type_dice(i, figures);
        self.transact(dice, |b, dice| {
            if !split_fire {
                b.take_card(i, false)?;
            }
            b.units[i].hidden = false;
            for &p in &partners {
                b.units[p].acted = true;
                b.units[p].fired = true;
            }
            let hits = if type_firing {
                TypeFire::of(row, class, td, &b.options).roll(dice)
            } else {
                MassFire {
                    row,
                    class,
                    figures,
                    remainder,
                    green_class3_pattern: b.options.green_class3_pattern,
                }
                .roll(dice)
            };
            let ammo_rule = type_firing || b.options.ammo_in_mass_fire;
            for k in std::iter::once(i).chain(partners.iter().copied()) {
                b.units[k].fired = true;
                if ammo_rule && let Some(a) = b.units[k].ammo.as_mut() {
                    *a = a.saturating_sub(1);
                }
            }
            let mut cards = Vec::with_capacity(usize::from(hits));
            for _ in 0..hits {
                let card = b.draw_hit_card(dice);
                let (effect, category) = tables::read_hit_card(card);
                let struck = b.hit(t, effect, category, &order.hit_order, true, dice);
                cards.push(HitRecord {
                    card,
                    effect,
                    category,
                    struck,
                });
            }
            Ok(FireReport {
                firer: b.name(i),
                target: b.name(t),
                row,
                class,
                figures: if type_firing { td } else { figures },
                hits,
                cards,
            })
        })
    }

    fn draw_hit_card<D: Dice + ?Sized>(&mut self, dice: &mut D) -> Card {
        // A hit card read goes to the hit deck's discard pile, so the deck, once drawn through, is whole again
        // when it is reshuffled (TSATF-FIR-15).
        let from_deck = |deck: &mut Deck, dice: &mut D| -> Option<Card> {
            if deck.remaining() == 0 {
                deck.reshuffle();
                deck.shuffle(dice);
            }
            let card = deck.draw(dice).ok()?;
            deck.discard(card);
            Some(card)
        };
        let drawn = match self.options.hit_deck {
            HitDeck::Persistent => from_deck(&mut self.hit_deck, dice),
            HitDeck::SequencingDeck => match self.deck.as_mut() {
                Some(d) if d.remaining() > 0 => d.draw(dice).ok(),
                _ => None,
            },
            _ => None,
        };
        drawn.unwrap_or_else(|| fire::FULL_DECK[dice.draw(&fire::FULL_DECK).min(51)])
    }

    /// Applies one hit to a unit (TSATF-FIR-16 to TSATF-FIR-18, TSATF-CAS-02, TSATF-CAS-03): the effect under the
    /// wound policy, on a figure of the named category (redirected to enlisted men, then key figures, then cadre
    /// when there is none, or lost), chosen in the owner's order or at random. Returns the figure struck.
    fn hit<D: Dice + ?Sized>(
        &mut self,
        t: usize,
        effect: HitEffect,
        category: Category,
        owner_order: &[usize],
        from_chart: bool,
        dice: &mut D,
    ) -> Option<(usize, Status)> {
        let status = match (effect, self.options.wound_policy) {
            (HitEffect::Miss, _) => None,
            (HitEffect::Killed, _) | (HitEffect::Wounded, WoundPolicy::WoundsAsKills) => {
                Some(Status::Killed)
            }
            (HitEffect::Wounded, WoundPolicy::Campaign) => Some(Status::Wounded),
            (HitEffect::Wounded, _) => None,
        };
        if from_chart
            && self.options.hits_include_misses
            && self.units[t].morale == MoraleState::Shaken
        {
            self.units[t].hit_while_shaken = true;
        }
        let status = status?;
        let pending: Vec<usize> = self
            .pending_hits
            .iter()
            .filter(|h| h.0.0 as usize == t)
            .map(|h| h.1)
            .collect();
        let u = &self.units[t];
        let open = |k: usize| {
            u.figures[k].is_active() && !u.figures[k].straggling && !pending.contains(&k)
        };
        let of = |c: Category| -> Vec<usize> {
            (0..u.figures.len())
                .filter(|&k| open(k) && u.figures[k].category() == c)
                .collect()
        };
        let mut pool = of(category);
        if pool.is_empty() {
            if self.options.missing_category == MissingCategory::Lost {
                return None;
            }
            pool = [Category::Enlisted, Category::Key, Category::Cadre]
                .into_iter()
                .map(of)
                .find(|v| !v.is_empty())?;
        }
        let k = match self.options.figure_choice {
            FigureChoice::Random => pool[dice.index(pool.len()).min(pool.len() - 1)],
            _ => owner_order
                .iter()
                .copied()
                .find(|k| pool.contains(k))
                .unwrap_or(pool[0]),
        };
        if self.phase == Phase::Firing
            && self.options.casualty_timing == CasualtyTiming::Simultaneous
        {
            self.pending_hits.push((self.units[t].id, k, status));
        } else {
            self.strike(t, k, status);
        }
        Some((k, status))
    }

    /// A figure becomes a casualty: bookkeeping for shaken units (TSATF-MOR-06), horseholders (TSATF-MOV-09)
    /// and the side's highest officer (TSATF-CMD-03, TSATF-CAS-05).
    fn strike(&mut self, t: usize, k: usize, status: Status) {
        let u = &mut self.units[t];
        let f = &mut u.figures[k];
        if !f.is_active() {
            return;
        }
        f.status = status;
        if f.holding_horses {
            u.horseholders_lost += 1;
        }
        if u.morale == MoraleState::Shaken {
            u.hit_while_shaken = true;
        }
        let side = u.side;
        self.refresh_commander(side);
    }

    fn highest_officer(&self, side: Side) -> Option<(UnitId, usize)> {
        self.units
            .iter()
            .filter(|u| u.side == side)
            .filter_map(|u| u.top_officer().map(|(r, i)| (r, u.id, i)))
            .max_by_key(|&(r, id, i)| (r, std::cmp::Reverse((id, i))))
            .map(|(_, id, i)| (id, i))
    }

    /// When the side's highest officer has fallen, Major Morale is due and the next officer takes over
    /// (TSATF-CMD-03).
    fn refresh_commander(&mut self, side: Side) {
        if let Some((u, i)) = *self.commander.get(side) {
            let alive = self.units[u.0 as usize].figures[i].is_active()
                && !self.pending_hits.iter().any(|h| h.0 == u && h.1 == i);
            if !alive {
                *self.major_due.get_mut(side) = true;
                *self.commander.get_mut(side) = self.highest_officer(side);
            }
        }
    }

    /// An officer (or, under the option, an NCO) fires his pistol or a sniper his rifle, after his unit's
    /// fire in the same activation, officers before snipers (TSATF-FIR-13, TSATF-FIR-19 to TSATF-FIR-21):
    /// the die is read directly on the chosen target figure, or a card's rank picks the category under
    /// [`IndividualFireCards::CardPicksCategory`].
    pub fn personal_fire<D: Dice + ?Sized>(
        &mut self,
        unit: UnitId,
        figure: usize,
        target: UnitId,
        target_figure: usize,
        range: f64,
        dice: &mut D,
    ) -> Rule<PersonalReport> {
        self.need_phase("individual fire", Phase::Firing)?;
        movement::length("the range", range)?;
        let (i, t) = (self.idx(unit)?, self.idx(target)?);
        let u = &self.units[i];
        let name = u.name.clone();
        let f = *u.figures.get(figure).ok_or(RuleViolation::NoSuchFigure {
            unit: name.clone(),
            index: figure,
        })?;
        let weapon = match f.role {
            Role::Officer(_) => Personal::Pistol,
            Role::Nco | Role::SergeantMajor if self.options.nco_pistols => Personal::Pistol,
            Role::Sniper => Personal::SniperRifle,
            _ => {
                return Err(RuleViolation::FigureCannot {
                    unit: name,
                    index: figure,
                    action: "fire alone",
                });
            }
        };
        if !u.acted {
            return Err(RuleViolation::FigureCannot {
                unit: name,
                index: figure,
                action: "fire before his unit has taken its card",
            });
        }
        if !f.can_fight() || f.fired {
            return Err(RuleViolation::FigureCannot {
                unit: name,
                index: figure,
                action: "fire now",
            });
        }
        if weapon == Personal::Pistol && u.figures.iter().any(|g| g.role == Role::Sniper && g.fired)
        {
            return Err(RuleViolation::FigureCannot {
                unit: name,
                index: figure,
                action: "fire after the snipers",
            });
        }
        match u.morale {
            MoraleState::Steady => {}
            s => {
                return Err(RuleViolation::MoraleForbids {
                    unit: name,
                    state: s,
                    action: "fire",
                });
            }
        }
        if u.charged {
            return Err(RuleViolation::MayNotFire {
                unit: name,
                reason: "it charged this turn",
            });
        }
        if range > weapon.range() {
            let row = if weapon == Personal::Pistol {
                FireRow::CavalryPistol
            } else {
                FireRow::Gatling
            };
            return Err(RuleViolation::OutOfRange { row, range });
        }
        let tu = &self.units[t];
        if tu.side == u.side || !self.in_play(tu) {
            return Err(RuleViolation::NotEnemy(tu.name.clone()));
        }
        if tu.hidden {
            return Err(RuleViolation::Hidden(tu.name.clone()));
        }
        if tu.figures.get(target_figure).is_none_or(|g| !g.is_active()) {
            return Err(RuleViolation::NoSuchFigure {
                unit: tu.name.clone(),
                index: target_figure,
            });
        }
        self.transact(dice, |b, dice| {
            b.units[i].figures[figure].fired = true;
            let effect = PersonalShot(weapon).roll(dice);
            let struck = match b.options.individual_fire_cards {
                IndividualFireCards::CardPicksCategory => {
                    let card = b.draw_hit_card(dice);
                    let (_, category) = tables::read_hit_card(card);
                    b.hit(t, effect, category, &[target_figure], false, dice)
                }
                _ => {
                    let category = b.units[t].figures[target_figure].category();
                    b.hit(t, effect, category, &[target_figure], false, dice)
                }
            };
            Ok(PersonalReport {
                weapon,
                effect,
                struck,
            })
        })
    }

    // ----- morale -----

    /// The side's Major Morale check, due when its highest officer has fallen (TSATF-MOR-04, TSATF-MOR-05,
    /// TSATF-MOV-14): 2D6 against the majority class's Major number (or per unit, or the lowest class); on a
    /// fail its units may not move in the next movement phase except to change formation, shaken and routed
    /// units excepted. Returns whether it passed (under per-unit scope, whether every unit passed).
    pub fn major_morale<D: Dice + ?Sized>(&mut self, side: Side, dice: &mut D) -> Rule<bool> {
        self.need_phase("Major Morale", Phase::Morale)?;
        if !*self.major_due.get(side) {
            return Err(RuleViolation::Cannot {
                unit: format!("the {side} side"),
                action: "take Major Morale: its highest officer has not fallen",
            });
        }
        let members: Vec<usize> = (0..self.units.len())
            .filter(|&k| self.units[k].side == side && self.in_play(&self.units[k]))
            .collect();
        let classes: Vec<Quality> = members.iter().map(|&k| self.units[k].quality).collect();
        let modifier = if self.options.major_leader_mod {
            self.senior_officer(side)
                .map_or(Ok(0), |(u, _)| self.test_modifier(u))?
        } else {
            0
        };
        self.transact(dice, |b, dice| {
            *b.major_due.get_mut(side) = false;
            let frozen = |b: &mut Battle, k: usize| {
                if !matches!(b.units[k].morale, MoraleState::Shaken | MoraleState::Routed) {
                    b.units[k].frozen = true;
                }
            };
            match morale::major_class(&classes, &b.options) {
                Some(q) => {
                    let pass = MoraleTest::major(q, modifier).roll(dice);
                    if !pass {
                        for &k in &members {
                            frozen(b, k);
                        }
                    }
                    Ok(pass)
                }
                None if b.options.major_scope == MajorScope::PerUnit => {
                    let mut all = true;
                    for &k in &members {
                        if !MoraleTest::major(b.units[k].quality, modifier).roll(dice) {
                            frozen(b, k);
                            all = false;
                        }
                    }
                    Ok(all)
                }
                None => Ok(true),
            }
        })
    }

    fn unit_check(
        &self,
        unit: UnitId,
        due: bool,
        what: &'static str,
    ) -> Rule<(usize, Quality, bool, i8)> {
        self.need_phase(what, Phase::Morale)?;
        let i = self.idx(unit)?;
        let u = &self.units[i];
        if !due {
            return Err(RuleViolation::Cannot {
                unit: u.name.clone(),
                action: what,
            });
        }
        if *self.major_due.get(u.side) {
            return Err(RuleViolation::Cannot {
                unit: u.name.clone(),
                action: "test before its side's Major Morale",
            });
        }
        Ok((
            i,
            u.quality,
            self.with_leader(unit)?,
            self.test_modifier(unit)?,
        ))
    }

    /// A unit's Critical Morale check (TSATF-MOR-06, TSATF-MOR-07): 2D6 against its Critical number with or
    /// without leader; a fail routs it.
    pub fn critical_morale<D: Dice + ?Sized>(&mut self, unit: UnitId, dice: &mut D) -> Rule<bool> {
        let due = self.unit(unit)?.critical_due;
        let (i, q, leader, m) =
            self.unit_check(unit, due, "take Critical Morale: it has no trigger")?;
        self.transact(dice, |b, dice| {
            b.units[i].critical_due = false;
            let pass = MoraleTest::critical(q, leader, m).roll(dice);
            if !pass {
                b.units[i].set_morale(MoraleState::Routed);
                b.units[i].routed_turn = Some(b.turn);
                b.units[i].pinned_due = false;
            }
            Ok(pass)
        })
    }

    /// A pinned unit's check (TSATF-MOR-09, TSATF-MOR-15): 2D6 against its Critical number; a pass un-pins it.
    pub fn pinned_morale<D: Dice + ?Sized>(&mut self, unit: UnitId, dice: &mut D) -> Rule<bool> {
        let u = self.unit(unit)?;
        let due = u.pinned_due && !u.critical_due;
        let (i, q, leader, m) = self.unit_check(unit, due, "take the pinned test now")?;
        self.transact(dice, |b, dice| {
            b.units[i].pinned_due = false;
            let pass = MoraleTest::critical(q, leader, m).roll(dice);
            if pass {
                b.units[i].set_morale(MoraleState::Steady);
            }
            Ok(pass)
        })
    }

    /// A shaken or routed unit tries to rally (TSATF-MOR-10, TSATF-MOR-12): 1D6 on the Close/Stand/Rally chart
    /// (a routed unit from the morale phase after it routed, or on 2D6 under the option); a pass makes it
    /// steady (or a routed unit shaken, under the option).
    pub fn rally<D: Dice + ?Sized>(&mut self, unit: UnitId, dice: &mut D) -> Rule<bool> {
        let u = self.unit(unit)?;
        let allowed = self.rally_allowed(u);
        let (i, q, leader, m) = self.unit_check(unit, allowed, "rally now")?;
        let routed = self.units[i].morale == MoraleState::Routed;
        self.transact(dice, |b, dice| {
            b.units[i].rally_tried = true;
            let pass = if routed && b.options.rally_routed == RallyRouted::Critical2D6 {
                MoraleTest::critical(q, leader, m).roll(dice)
            } else {
                CloseTest::new(q, leader, m, &b.options).roll(dice)
            };
            if pass {
                let to = if routed && b.options.rally_routed == RallyRouted::D6ToShaken {
                    MoraleState::Shaken
                } else {
                    MoraleState::Steady
                };
                b.units[i].set_morale(to);
                b.units[i].routed_turn = None;
            }
            Ok(pass)
        })
    }
}
