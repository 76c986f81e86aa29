//! The [`Battle`]: companies with their figures, guns and crews, and the methods that roll and apply the
//! rules in one step. Every method either applies its whole result or refuses with a [`RuleViolation`] and
//! changes nothing — dice included: a dice source that runs out or gives an impossible face is refused
//! after the roll, and the battle is left as it was.
//!
//! The battle takes measured facts (distances, cover, which figures lie in a shot's area) as inputs; where a
//! rule gives the other side a decision (the defender's stand or withdrawal, whether to fire final defensive
//! fire) it is a separate step.

use crate::advanced::Modern;
use crate::artillery::{
    BounceTest, Landing, ShotAccuracy, ShotRange, canister_dice, shot_armour_shift, shot_impact,
};
use crate::casualties::{HorseOrRider, HorseState, Struck};
use crate::error::{RuleViolation, SetupError};
use crate::fire::{
    Cover, FireDice, FireEffect, FireKind, FirepowerFacts, HitResult, Impact, RangeDie, RangeFacts,
    allocate, firer_dice, range_die,
};
use crate::ladder::{DieType, Success};
use crate::melee::{
    AssaultSide, DownedFate, FOOT, MOUNTED, Melee, MeleeDie, MeleeEnd, MeleeSide, UNHORSED,
    attacker_tl, kind_shift, odds_tl,
};
use crate::morale::{
    Confidence, ConfidenceTest, FiredOn, ReactionTest, ReplacementLeader, TestEvent, threat_level,
};
use crate::movement::{CombatMove, MoveResult};
use crate::options::AssaultTestCasualties;
use crate::options::{BlastThroughCount, Options};
use crate::setup::MenPerFigure;
use crate::tables::{
    Armour, ConfidenceLevel, Fatigue, FieldPiece, GUN_ARMOUR, Leadership, MeleeWeapon, Motivation,
    Mover, Quality, Weapon,
};
use acw_core::{Dice, Die, Resolve, Side};
use std::fmt;

/// A company's id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CompanyId(pub u32);

/// A gun's id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GunId(pub u32);

impl fmt::Display for CompanyId {
    /// "company 3".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "company {}", self.0)
    }
}

/// A dummy counter's id (HT-SG2-25).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DummyId(pub u32);

impl fmt::Display for DummyId {
    /// "dummy 1".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "dummy {}", self.0)
    }
}

/// What a small-arms fire aims at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Aim {
    /// A company.
    Company(CompanyId),
    /// An unlimbered gun's detached team (HT-ART-22).
    Team(GunId),
    /// A dummy counter (HT-SG2-25).
    Dummy(DummyId),
}

/// A dummy counter (HT-SG2-25): a face-down marker deployed beside a side's hidden units with no unit under
/// it. It never activates; an enemy's successful Observe or a clear sight of it in the open shows it empty,
/// and it is taken off the table.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Dummy {
    /// The side that deployed it.
    pub side: Side,
    /// Still on the table (false once revealed as a dummy and removed).
    pub on_table: bool,
}

impl fmt::Display for GunId {
    /// "gun 2".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "gun {}", self.0)
    }
}

/// A company's formation (HT-FRM-01).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Formation {
    /// Skirmish order: firepower one die lower, no close-formation test bonus, no formation shift when fired
    /// on, immune to enfilade (HT-FRM-02) (gun crews always count as skirmishers).
    #[default]
    Skirmish,
    /// Line (close formation).
    Line,
    /// Column (close formation).
    Column,
}

impl Formation {
    /// A formed company's formation from its rows of figures (HT-FRM-04): one or two rows make a line, three
    /// or more a column.
    pub const fn from_rows(rows: u32) -> Formation {
        if rows <= 2 {
            Formation::Line
        } else {
            Formation::Column
        }
    }

    /// Line or column (HT-FRM-03).
    #[must_use]
    pub const fn is_close(self) -> bool {
        !matches!(self, Formation::Skirmish)
    }
}

impl fmt::Display for Formation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Formation::Skirmish => "skirmish order",
            Formation::Line => "line",
            Formation::Column => "column",
        })
    }
}

/// What a figure is.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Role {
    /// The company commander.
    Leader,
    /// A soldier.
    Trooper,
    /// A dismounted cavalryman holding horses: he does not fire, and fights only in defence (HT-SET-04).
    HorseHolder,
    /// The regiment's colour bearer: he does not fire, but fights in close combat (HT-OPT-27).
    ColourBearer,
}

/// A figure's condition.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Condition {
    /// In action.
    Fit,
    /// Wounded: out of action, left where he fell (HT-CAS-01).
    Wounded,
    /// Dead.
    Dead,
    /// Taken by the enemy after a lost close assault (HT-SG2-41), or surrendered (HT-SG2-48).
    Captured,
    /// Gone: a blocked Routed company with no enemy near disperses (HT-SG2-48); an independent figure who
    /// rolls 1 removing his panic leaves play (HT-SG2-26).
    Dispersed,
}

/// One figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Figure {
    /// Leader or trooper.
    pub role: Role,
    /// Fit, wounded, dead or captured.
    pub condition: Condition,
    /// Fired and not yet reloaded (HT-FIR-20).
    pub reload: bool,
    /// A cavalryman whose horse was killed or wounded under him: on foot, unhurt (HT-CAS-03).
    pub unhorsed: bool,
    /// Fired in this activation: each weapon fires once an activation (HT-SG2-04).
    pub fired: bool,
}

/// What a new company is (validated by [`Battle::add_company`]).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CompanySpec {
    /// Its name, used in everything a person reads.
    pub name: String,
    /// Its side.
    pub side: Side,
    /// Its quality.
    pub quality: Quality,
    /// Its leadership.
    pub lv: Leadership,
    /// Its motivation.
    pub motivation: Motivation,
    /// Its fatigue (starting level and rally ceiling).
    pub fatigue: Fatigue,
    /// Its formation.
    pub formation: Formation,
    /// Its figures, the leader included (1 to 48).
    pub figures: usize,
    /// Its small arm.
    pub weapon: Weapon,
    /// Its armour.
    pub armour: Armour,
    /// Its best close-combat weapon.
    pub melee: MeleeWeapon,
    /// Cavalry: mounted (`Some(true)`), dismounted (`Some(false)`); infantry `None`.
    pub cavalry: Option<bool>,
    /// Small-arms loads under Ammunition Supply (HT-OPT-08); `None` for unlimited.
    pub loads: Option<u32>,
    /// A modern or future weapon in place of its small arm (HT-OPT-29).
    pub modern: Option<Modern>,
    /// Gatling guns crewed by the company, 0 to 2 (HT-FIR-15).
    pub gatlings: u8,
    /// Its regiment, for the colours (HT-OPT-27).
    pub regiment: Option<u32>,
    /// Its second figure carries the regiment's colours (HT-OPT-27).
    pub colour_bearer: bool,
    /// It deploys hidden, as a face-down counter (HT-SG2-25).
    pub hidden: bool,
}

impl CompanySpec {
    /// A Regular, LV2, Medium, fresh company of musketeers in skirmish order.
    #[must_use]
    pub fn new(name: &str, side: Side, figures: usize) -> CompanySpec {
        CompanySpec {
            name: name.to_string(),
            side,
            quality: Quality::Regular,
            lv: Leadership::TWO,
            motivation: Motivation::Medium,
            fatigue: Fatigue::Fresh,
            formation: Formation::Skirmish,
            figures,
            weapon: Weapon::default(),
            armour: Armour::None,
            melee: MeleeWeapon::None,
            cavalry: None,
            loads: None,
            modern: None,
            gatlings: 0,
            regiment: None,
            colour_bearer: false,
            hidden: false,
        }
    }
}

/// How a command stand's name begins once a company leader has succeeded its fallen colonel (HT-CMD-05).
const ACTING_COLONEL: &str = "Acting colonel from ";
/// What joins the successor's company to the colonel first appointed in a command stand's name.
const SUCCEEDING: &str = ", succeeding ";

/// A company (HT-SET-03, HT-SET-12): its figures and its state.
///
/// `clone_from` copies into a company already there without allocating: its lists keep their room and the
/// shared name stays shared (the game applies each order to a spare state copied this way, see
/// [`crate::game::State`]).
#[derive(Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Company {
    /// Shared between copies: the game copies the battle for each order it checks. A name changes only when a
    /// company leader succeeds a fallen colonel at his command stand (`Battle::colonel_falls`).
    name: std::sync::Arc<str>,
    side: Side,
    quality: Quality,
    lv: Leadership,
    motivation: Motivation,
    ceiling: ConfidenceLevel,
    cl: ConfidenceLevel,
    formation: Formation,
    in_position: bool,
    weapon: Weapon,
    armour: Armour,
    melee: MeleeWeapon,
    figures: Vec<Figure>,
    full_strength: usize,
    first_volley: bool,
    activated: bool,
    actions: u8,
    fired_on_by: Vec<CompanyId>,
    cavalry: Option<bool>,
    loads: Option<u32>,
    modern: Option<Modern>,
    panic: Panic,
    suppression: u8,
    transfers: u8,
    gatlings: u8,
    regiment: Option<u32>,
    disorganised: bool,
    travel: bool,
    moves: u8,
    prepared: bool,
    fired_on_before: bool,
    done: Vec<Action>,
    attached: Attachment,
    hidden: bool,
}

impl Clone for Company {
    fn clone(&self) -> Company {
        let mut c = Company {
            figures: Vec::new(),
            fired_on_by: Vec::new(),
            done: Vec::new(),
            name: std::sync::Arc::clone(&self.name),
            side: self.side,
            quality: self.quality,
            lv: self.lv,
            motivation: self.motivation,
            ceiling: self.ceiling,
            cl: self.cl,
            formation: self.formation,
            in_position: self.in_position,
            weapon: self.weapon,
            armour: self.armour,
            melee: self.melee,
            full_strength: self.full_strength,
            first_volley: self.first_volley,
            activated: self.activated,
            actions: self.actions,
            cavalry: self.cavalry,
            loads: self.loads,
            modern: self.modern,
            panic: self.panic,
            suppression: self.suppression,
            transfers: self.transfers,
            gatlings: self.gatlings,
            regiment: self.regiment,
            disorganised: self.disorganised,
            travel: self.travel,
            moves: self.moves,
            prepared: self.prepared,
            fired_on_before: self.fired_on_before,
            attached: self.attached,
            hidden: self.hidden,
        };
        c.figures.clone_from(&self.figures);
        c.fired_on_by.clone_from(&self.fired_on_by);
        c.done.clone_from(&self.done);
        c
    }

    fn clone_from(&mut self, source: &Company) {
        // Destructured so that a field added to `Company` cannot be left out here.
        let Company {
            name,
            side,
            quality,
            lv,
            motivation,
            ceiling,
            cl,
            formation,
            in_position,
            weapon,
            armour,
            melee,
            figures,
            full_strength,
            first_volley,
            activated,
            actions,
            fired_on_by,
            cavalry,
            loads,
            modern,
            panic,
            suppression,
            transfers,
            gatlings,
            regiment,
            disorganised,
            travel,
            moves,
            prepared,
            fired_on_before,
            done,
            attached,
            hidden,
        } = source;
        if !std::sync::Arc::ptr_eq(&self.name, name) {
            self.name = std::sync::Arc::clone(name);
        }
        self.side = *side;
        self.quality = *quality;
        self.lv = *lv;
        self.motivation = *motivation;
        self.ceiling = *ceiling;
        self.cl = *cl;
        self.formation = *formation;
        self.in_position = *in_position;
        self.weapon = *weapon;
        self.armour = *armour;
        self.melee = *melee;
        self.figures.clone_from(figures);
        self.full_strength = *full_strength;
        self.first_volley = *first_volley;
        self.activated = *activated;
        self.actions = *actions;
        self.fired_on_by.clone_from(fired_on_by);
        self.cavalry = *cavalry;
        self.loads = *loads;
        self.modern = *modern;
        self.panic = *panic;
        self.suppression = *suppression;
        self.transfers = *transfers;
        self.gatlings = *gatlings;
        self.regiment = *regiment;
        self.disorganised = *disorganised;
        self.travel = *travel;
        self.moves = *moves;
        self.prepared = *prepared;
        self.fired_on_before = *fired_on_before;
        self.done.clone_from(done);
        self.attached = *attached;
        self.hidden = *hidden;
    }
}

/// Whether a company stands alone, or is a detached element or a runner of another (HT-SG2-09, HT-CMD-02).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Attachment {
    /// A company in its own right.
    #[default]
    Own,
    /// A detached element of a company: it acts only when its parent's leader activates it.
    Element(CompanyId),
    /// A runner from a company: he may only move and carry a transferred action.
    Runner(CompanyId),
}

/// A company's panic state (HT-SG2-19, HT-MOR-08).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Panic {
    /// Not yet tested.
    #[default]
    Untested,
    /// Panicked: it can do nothing until the panic is removed.
    Panicked,
    /// Passed or removed: immune for the rest of the game.
    Immune,
}

impl Company {
    /// Whether it is mounted cavalry.
    #[must_use]
    pub const fn mounted(&self) -> bool {
        matches!(self.cavalry, Some(true))
    }
    /// Its loads left under Ammunition Supply.
    #[must_use]
    pub const fn loads(&self) -> Option<u32> {
        self.loads
    }
    /// Its panic state.
    pub const fn panic(&self) -> Panic {
        self.panic
    }
    /// Stargrunt II suppression markers, from modern weapons against skirmishers (HT-OPT-32).
    #[must_use]
    pub const fn suppression(&self) -> u8 {
        self.suppression
    }
    /// Whether it is disorganised (out of integrity) (HT-SG2-10).
    #[must_use]
    pub const fn disorganised(&self) -> bool {
        self.disorganised
    }
    /// Whether it is in travel mode (HT-MOV-04).
    #[must_use]
    pub const fn in_travel_mode(&self) -> bool {
        self.travel
    }
    /// Whether it is still a hidden counter (HT-SG2-25).
    #[must_use]
    pub const fn hidden(&self) -> bool {
        self.hidden
    }
    /// Whether it is a detached element or a runner, and of whom.
    pub const fn attachment(&self) -> Attachment {
        self.attached
    }
    /// Moves made in this activation (HT-SG2-47: reaction fire comes between two).
    #[must_use]
    pub const fn moves_made(&self) -> u8 {
        self.moves
    }
    /// Whether it holds a Prepared Fire marker (HT-OPT-20).
    #[must_use]
    pub const fn prepared(&self) -> bool {
        self.prepared
    }
    /// Its full-strength complement (HT-OPT-19).
    #[must_use]
    pub const fn full_strength(&self) -> usize {
        self.full_strength
    }
    /// Its name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Its regiment (HT-OPT-27, HT-SEQ-03), if it has one.
    #[must_use]
    pub const fn regiment(&self) -> Option<u32> {
        self.regiment
    }
    /// Its side.
    #[must_use]
    pub const fn side(&self) -> Side {
        self.side
    }
    /// Its quality.
    pub const fn quality(&self) -> Quality {
        self.quality
    }
    /// Its current leadership.
    pub const fn lv(&self) -> Leadership {
        self.lv
    }
    /// Its confidence level.
    pub const fn confidence(&self) -> ConfidenceLevel {
        self.cl
    }
    /// Its formation.
    pub const fn formation(&self) -> Formation {
        self.formation
    }
    /// Whether it is In Position.
    #[must_use]
    pub const fn in_position(&self) -> bool {
        self.in_position
    }
    /// Its figures, in allocation order (the leader first).
    #[must_use]
    pub fn figures(&self) -> &[Figure] {
        &self.figures
    }
    /// Figures still fit.
    #[must_use]
    pub fn fit(&self) -> usize {
        self.figures
            .iter()
            .filter(|f| f.condition == Condition::Fit)
            .count()
    }
    /// Whether a figure is fit: `fit() > 0`, stopping at the first fit figure.
    #[must_use]
    pub fn has_fit(&self) -> bool {
        self.figures.iter().any(|f| f.condition == Condition::Fit)
    }
    /// Figures wounded.
    #[must_use]
    pub fn wounded(&self) -> usize {
        self.count(Condition::Wounded)
    }
    /// Figures dead.
    #[must_use]
    pub fn dead(&self) -> usize {
        self.count(Condition::Dead)
    }
    fn count(&self, c: Condition) -> usize {
        self.figures.iter().filter(|f| f.condition == c).count()
    }
    /// Whether any figure carries a Reload marker.
    #[must_use]
    pub fn needs_reload(&self) -> bool {
        self.figures.iter().any(|f| f.reload)
    }
    /// Whether it still has its First Volley (HT-OPT-14).
    #[must_use]
    pub const fn has_first_volley(&self) -> bool {
        self.first_volley
    }
    /// Actions left in its activation.
    #[must_use]
    pub const fn actions_left(&self) -> u8 {
        self.actions
    }
    /// Whether it has activated this turn.
    #[must_use]
    pub const fn activated(&self) -> bool {
        self.activated
    }
    /// Figures that fight in close combat (HT-MEL-13): the fit figures, less horse holders when attacking.
    fn fighters(&self, attacking: bool) -> usize {
        self.figures
            .iter()
            .filter(|f| {
                f.condition == Condition::Fit && !(attacking && f.role == Role::HorseHolder)
            })
            .count()
    }

    /// Its figures' close-combat die (HT-MEL-08..10): quality, its best weapon, mounted, and a defender's
    /// first-round bonus.
    fn melee_die(&self, defender_bonus: bool) -> MeleeDie {
        MeleeDie {
            defender_bonus,
            mounted: self.mounted(),
            weapon: self.melee.max(match self.weapon.arm.melee_shift() {
                1 => MeleeWeapon::Pistol,
                2 => MeleeWeapon::Shotgun,
                _ => MeleeWeapon::None,
            }),
            ..MeleeDie::plain(self.quality.die())
        }
    }

    /// Of a mounted company's fighters, the riders who lost their horse earlier and fight on foot
    /// (HT-MEL-12); none for a company not mounted.
    fn riders_on_foot(&self, attacking: bool) -> u8 {
        if !self.mounted() {
            return 0;
        }
        let n = self
            .figures
            .iter()
            .filter(|f| {
                f.condition == Condition::Fit
                    && f.unhorsed
                    && !(attacking && f.role == Role::HorseHolder)
            })
            .count();
        u8::try_from(n).unwrap_or(u8::MAX)
    }

    fn has_leader(&self) -> bool {
        self.figures
            .iter()
            .any(|f| f.role == Role::Leader && f.condition == Condition::Fit)
    }
    fn casualties_total(&self) -> usize {
        self.figures
            .iter()
            .filter(|f| f.condition != Condition::Fit)
            .count()
    }
    /// A fit figure takes over when the leader falls.
    fn promote(&mut self) -> bool {
        if self.has_leader() {
            return false;
        }
        for f in &mut self.figures {
            if f.role == Role::Leader {
                f.role = Role::Trooper;
            }
        }
        if let Some(f) = self
            .figures
            .iter_mut()
            .find(|f| f.condition == Condition::Fit)
        {
            f.role = Role::Leader;
            return true;
        }
        false
    }
    /// Whether it is an independent figure (HT-SG2-26): a runner, or a detached element of one figure. It
    /// has no confidence level of its own: a failed test gives it suppression and panic markers instead.
    #[must_use]
    pub fn lone(&self) -> bool {
        self.attached != Attachment::Own && self.figures.len() == 1
    }

    /// Lowers the confidence level; Broken and Routed companies fall into skirmish order (HT-MOR-07,
    /// HT-FRM-09) and Shaken ones lose their First Volley. An independent figure has no confidence level
    /// (HT-SG2-26): a one-level failure gives it a suppression marker (at most 3), a two-level failure a
    /// panic marker.
    fn lose(&mut self, levels: u8) {
        if self.lone() {
            match levels {
                0 => {}
                1 => self.suppression = (self.suppression + 1).min(3),
                _ => self.panic = Panic::Panicked,
            }
            return;
        }
        self.cl = self.cl.dropped(levels);
        if self.cl >= ConfidenceLevel::Broken {
            self.formation = Formation::Skirmish;
        }
        if self.cl >= ConfidenceLevel::Shaken {
            self.first_volley = false;
        }
    }
}

/// The choice for riders unhorsed in a close-formation cavalry company (HT-FRM-06).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum UnhorsedChoice {
    /// Reorganise the whole company into skirmish order.
    Skirmish,
    /// Make them a detached element (one action).
    Detach,
    /// Remove them as if they were casualties.
    Remove,
}

impl fmt::Display for UnhorsedChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UnhorsedChoice::Skirmish => "reorganises the whole company into skirmish order",
            UnhorsedChoice::Detach => "makes the riders a detached element",
            UnhorsedChoice::Remove => "removes the riders as if they were casualties",
        })
    }
}

/// The state of a regiment's colours (HT-OPT-27, HT-OPT-28).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Colours {
    /// Carried by the bearer.
    Carried,
    /// Fallen where the bearer fell.
    Fallen,
    /// Taken by the enemy: every company of the regiment +1 on all its tests.
    Captured,
}

/// An action (HT-SEQ-02, HT-SG2-04): what it costs, and whether it may be taken twice in an activation.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Action {
    /// A normal move; may be doubled.
    Move,
    /// Fire (small arms, a gun, a sharpshooter): twice only with different figures (each weapon once).
    Fire,
    /// Reload.
    Reload,
    /// Load a gun.
    Load,
    /// Reorganise: formation, mounting, limbering, travel mode, colours, scrounging, treatment.
    Reorganise,
    /// Go In Position.
    GoInPosition,
    /// Drop In Position.
    DropInPosition,
    /// Close assault (both actions).
    CloseAssault,
    /// Rally.
    Rally,
    /// Transfer an action; may be doubled.
    Transfer,
    /// Activate Regiment (both actions).
    ActivateRegiment,
    /// Prepared Fire (both actions).
    PreparedFire,
    /// Remove a suppression marker; may be doubled.
    RemoveSuppression,
    /// Form a detached element or a runner; may be doubled.
    Detach,
    /// Observe a hidden unit; may be doubled.
    Observe,
}

impl Action {
    /// Whether it may be taken twice in one activation (HT-SG2-04): moves, transfers, suppression removal —
    /// and fire, with other figures.
    #[must_use]
    pub const fn may_repeat(self) -> bool {
        matches!(
            self,
            Action::Move
                | Action::Transfer
                | Action::RemoveSuppression
                | Action::Fire
                | Action::Detach
                | Action::Observe
        )
    }

    /// Actions it costs (HT-SEQ-02); a gun worked by one man or by captors pays two to Fire or Load (HT-ART-04).
    #[must_use]
    pub const fn cost(self) -> u8 {
        match self {
            Action::CloseAssault | Action::ActivateRegiment | Action::PreparedFire => 2,
            _ => 1,
        }
    }

    const fn describe(self) -> &'static str {
        match self {
            Action::Move => "move again",
            Action::Fire => "fire again",
            Action::Reload => "reload again",
            Action::Load => "load again",
            Action::Reorganise => "reorganise again",
            Action::GoInPosition => "go In Position again",
            Action::DropInPosition => "drop In Position again",
            Action::CloseAssault => "assault again",
            Action::Rally => "rally again",
            Action::Transfer => "transfer again",
            Action::ActivateRegiment => "activate a regiment again",
            Action::PreparedFire => "prepare fire again",
            Action::RemoveSuppression => "remove suppression again",
            Action::Detach => "detach figures again",
            Action::Observe => "observe again",
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Action::Move => "move",
            Action::Fire => "fire",
            Action::Reload => "reload",
            Action::Load => "load",
            Action::Reorganise => "reorganise",
            Action::GoInPosition => "go In Position",
            Action::DropInPosition => "drop In Position",
            Action::CloseAssault => "close assault",
            Action::Rally => "rally",
            Action::Transfer => "transfer an action",
            Action::ActivateRegiment => "activate the regiment",
            Action::PreparedFire => "take Prepared Fire",
            Action::RemoveSuppression => "remove suppression",
            Action::Detach => "detach figures",
            Action::Observe => "observe",
        })
    }
}

/// What a gun has loaded (HT-SEQ-08).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Ammunition {
    /// Round shot.
    Shot,
    /// Canister.
    Canister,
    /// Case: a round burst (advanced rule, HT-OPT-05).
    Case,
    /// Spherical case: an oblong burst (advanced rule, HT-OPT-05).
    SphericalCase,
}

impl fmt::Display for Ammunition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ammunition::Shot => "round shot",
            Ammunition::Canister => "canister",
            Ammunition::Case => "case",
            Ammunition::SphericalCase => "spherical case",
        })
    }
}

/// A gun and its crew company (HT-SET-05).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Gun {
    /// Shared between copies, as a company's name.
    name: std::sync::Arc<str>,
    piece: FieldPiece,
    rifled: bool,
    crew: CompanyId,
    loaded: Option<Ammunition>,
    disabled: bool,
    gunners: bool,
    abandoned: bool,
    limbered: bool,
    rounds: Option<u32>,
    horses: u8,
    hurt_horses: u8,
}

impl Gun {
    /// Its name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Its crew company.
    #[must_use]
    pub const fn crew(&self) -> CompanyId {
        self.crew
    }
    /// What it has loaded.
    #[must_use]
    pub const fn loaded(&self) -> Option<Ammunition> {
        self.loaded
    }
    /// Horse figures left in its team, and how many of them are dead or wounded but not yet cut loose
    /// (HT-ART-22).
    #[must_use]
    pub const fn horses(&self) -> (u8, u8) {
        (self.horses, self.hurt_horses)
    }
    /// Horse figures of its team still sound: neither dead nor wounded (HT-ART-22).
    #[must_use]
    pub const fn sound_horses(&self) -> u8 {
        self.horses.saturating_sub(self.hurt_horses)
    }
    /// Whether its crew has abandoned it (HT-ART-05).
    #[must_use]
    pub const fn abandoned(&self) -> bool {
        self.abandoned
    }
    /// Whether a kill disabled it (HT-ART-21).
    #[must_use]
    pub const fn disabled(&self) -> bool {
        self.disabled
    }
    /// The piece.
    pub const fn piece(&self) -> FieldPiece {
        self.piece
    }
}

/// The measured facts of a small-arms fire. There is no visibility limit among them (HT-ENV-02, see
/// [`Battle::observe`]): a target the caller can see is fired on at any distance the range dice reach.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct FireFacts {
    /// Centre-to-centre distance in inches.
    pub distance: f64,
    /// The target's cover against this fire.
    pub cover: Cover,
    /// An enemy skirmish company fired through (HT-FIR-23).
    pub through: Option<CompanyId>,
    /// The target is a lone figure: a leader or other single figure out of a company's integrity (HT-FIR-13,
    /// HT-CMD-09).
    pub lone_figure: bool,
    /// The target is enfiladed (HT-OPT-11).
    pub enfilade: bool,
    /// The target is within woods, not on their edge: it cannot be fired on (HT-SG2-12).
    pub within_woods: bool,
    /// A close-formation firer's figures cannot all see the target's centre through their front (HT-FIR-21).
    pub arc_blocked: bool,
    /// A friendly company lies between, and whether the firer is directly behind it and touching it
    /// (HT-FIR-22).
    pub friendly_between: Option<(CompanyId, bool)>,
}

/// One company's share of a fire: casualties and its confidence test.
#[derive(Clone, Debug, PartialEq)]
pub struct CompanyEffect {
    /// The company's name.
    pub name: String,
    /// Figures wounded.
    pub wounded: u32,
    /// Figures killed.
    pub killed: u32,
    /// Whether its leader fell.
    pub leader_fell: bool,
    /// The test's threat level and result, and the level after it, if it tested.
    pub test: Option<(i16, Confidence, ConfidenceLevel)>,
    /// The new leader's leadership, if one was rolled.
    pub new_lv: Option<Leadership>,
    /// Horses of its gun team killed or wounded (HT-ART-22).
    pub horses_down: u32,
}

impl fmt::Display for CompanyEffect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} killed, {} wounded",
            self.name, self.killed, self.wounded
        )?;
        if self.leader_fell {
            f.write_str("; its leader fell")?;
        }
        if let Some(lv) = self.new_lv {
            write!(f, " (new leader {lv})")?;
        }
        match self.horses_down {
            0 => {}
            1 => f.write_str("; one team horse down")?,
            n => write!(f, "; {n} team horses down")?,
        }
        match self.test {
            Some((tl, r, cl)) => write!(f, "; confidence test at TL {tl} {r}, now {cl}"),
            None => f.write_str("; no test"),
        }
    }
}

/// The fire roll a fire made (the dice against the range die), kept for its odds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FireRoll {
    /// One roll of the firer's dice against the range die.
    Dice(FireDice),
    /// Stand-based fire: one roll per stand, the best result and every potential casualty counting.
    Stands(crate::fire::StandFire),
}

impl FireRoll {
    /// The exact distribution of the fire roll's result.
    #[must_use]
    pub fn effect_odds(&self) -> acw_core::Dist<FireEffect> {
        match self {
            FireRoll::Dice(d) => d.odds(),
            FireRoll::Stands(s) => s.effect_odds(),
        }
    }
}

/// What a fire did.
#[derive(Clone, Debug, PartialEq)]
pub struct FireReport {
    /// The firer's name.
    pub firer: String,
    /// The range die, or `None` when out of reach.
    pub range: Option<DieType>,
    /// The fire roll made, or `None` when none was (out of reach, or a sharpshooter's shot).
    pub roll: Option<FireRoll>,
    /// The fire roll's result.
    pub effect: FireEffect,
    /// Every company affected.
    pub companies: Vec<CompanyEffect>,
}

impl fmt::Display for FireReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.range {
            None => write!(f, "{} fired but the target was out of reach", self.firer)?,
            Some(r) => write!(
                f,
                "{} fired against a {r} range die: {}",
                self.firer, self.effect
            )?,
        }
        for c in &self.companies {
            write!(f, "\n  {c}")?;
        }
        Ok(())
    }
}

/// A figure of a company, by index in [`Company::figures`].
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FigureRef {
    /// The company.
    pub company: CompanyId,
    /// The figure's index.
    pub index: usize,
}

/// The facts at one impact point of a round shot (HT-ART-07..13).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ShotImpactFacts {
    /// Distance from the gun to this impact point, in inches (it sets the first bounce).
    pub gun_distance: f64,
    /// Figures whose base centre lies in the ½" × 2" area, with their cover against the ball.
    pub figures: Vec<(FigureRef, Cover, bool)>,
    /// Gun models in the area (HT-ART-21).
    pub guns: Vec<GunId>,
    /// Horse figures of gun teams in the area, one entry per horse (HT-ART-22).
    pub horses: Vec<GunId>,
    /// The ground here lets the ball bounce: open or road, firm, not a hillside (HT-ART-10, HT-ENV-01).
    pub ground_allows_bounce: bool,
}

/// What one impact point of a round shot did, and where the ball goes next.
#[derive(Clone, Debug, PartialEq)]
pub struct ShotImpactReport {
    /// The impact die here.
    pub impact: DieType,
    /// Every company with a figure in the area.
    pub companies: Vec<CompanyEffect>,
    /// Guns disabled here.
    pub guns_disabled: Vec<String>,
    /// The next bounce: inches along the line of travel, and its deviation (D12 clock, D4 inches).
    pub bounce: Option<(u32, Landing)>,
}

impl fmt::Display for ShotImpactReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the ball strikes with a {} impact die", self.impact)?;
        for c in &self.companies {
            write!(f, "\n  {c}")?;
        }
        for g in &self.guns_disabled {
            write!(f, "\n  the {g} is disabled")?;
        }
        match self.bounce {
            Some((d, l)) => write!(f, "\n  it bounces {d}\" on and lands {l}"),
            None => f.write_str("\n  it comes to rest"),
        }
    }
}

/// What a side has lost, for scenario victory conditions (HT-VIC-01).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Tally {
    /// Companies Broken or Routed.
    pub broken: usize,
    /// Figures dead, wounded, captured or dispersed.
    pub figures_lost: usize,
    /// Guns disabled or abandoned.
    pub guns_lost: usize,
    /// Regimental colours captured from it.
    pub colours_lost: usize,
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} companies Broken or Routed, {} figures lost, {} guns lost, {} colours lost",
            self.broken, self.figures_lost, self.guns_lost, self.colours_lost
        )
    }
}

/// A normal move: measured ground and what the move does.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct MoveOrder {
    /// Inches of ground covered.
    pub distance: f64,
    /// The ground's class for this company (HT-MOV-05).
    pub going: crate::setup::Going,
    /// Along a road (for travel mode).
    pub road: bool,
    /// It leaves cover.
    pub leaves_cover: bool,
    /// It ends closer to the enemy.
    pub toward_enemy: bool,
    /// It passes through this friendly company.
    pub through: Option<CompanyId>,
    /// It passes dense woods, swamp, a stream or abatis (HT-MOV-06).
    pub disordering_terrain: bool,
}

/// The facts of a canister target.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct CanisterFacts {
    /// Distance from the gun to the target company, in inches.
    pub distance: f64,
    /// The target's cover.
    pub cover: Cover,
    /// An enemy skirmish company fired through (HT-ART-18).
    pub through: Option<CompanyId>,
    /// Enfilade (HT-OPT-11).
    pub enfilade: bool,
    /// Degrees between the gun's facing and the aimed figure; more than 15 is outside its arc (HT-ART-02).
    pub off_facing: f64,
    /// A friendly company lies in the way: canister never fires through friends (HT-ART-18).
    pub friendly_between: bool,
}

/// The defender's answer to a close assault (HT-SG2-36): stand (and test), or withdraw without a test.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DefenderChoice {
    /// Stand and take the stand test; fire final defensive fire if the attackers fall short and `final_fire`.
    Stand {
        /// Fire final defensive fire at attackers who fall short (HT-MEL-07).
        final_fire: bool,
    },
    /// Withdraw before contact.
    Withdraw,
}

/// What an attacking company that stopped short of contact in a close assault owes (HT-SG2-37, HT-MEL-07):
/// its side's choice, asked with [`Battle::short_of_contact`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ShortOfContact {
    /// It faltered under final defensive fire, or aborted: it withdraws to the nearest cover or to its start
    /// point, its side's choice ([`Battle::withdraw_short`]).
    Withdraws,
    /// Still short after its second combat move, having covered `moved` inches: it stays mid-dash
    /// ([`Battle::stay_mid_dash`]) or aborts as if it had faltered ([`Battle::abort_dash`]), its side's choice.
    StillShort {
        /// Inches its two combat moves covered.
        moved: f64,
    },
}

/// What a close assault step did.
#[derive(Clone, Debug, PartialEq)]
pub struct AssaultReport {
    /// Sentences describing each step, in order.
    pub steps: Vec<String>,
    /// Whether the assault is over.
    pub over: bool,
    /// The companies that lost the melee's tests and fall back (HT-SG2-40), in the order they failed: the
    /// defender, or attackers (several in a combined assault). Empty when no melee was fought or it ended
    /// with a side destroyed or both still holding; a defender that withdrew or failed its stand test is
    /// not listed here (the assault is `over` without a melee).
    pub fell_back: Vec<CompanyId>,
}

impl fmt::Display for AssaultReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.steps.join("\n"))
    }
}

/// What a fire brings to its targets, for [`Battle::apply_fire`].
#[derive(Clone, Copy, Debug, PartialEq)]
struct FireContext {
    impact: DieType,
    armour_shift: i16,
    kind: FiredOn,
    first_volley: bool,
    enfilade: bool,
    modern: Option<Modern>,
}

/// The facts of a case or spherical case burst: the figures inside it with the cover between them and the
/// burst, and gun models inside it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct BurstFacts {
    /// Figures whose base centre lies inside the burst, with their cover against it.
    pub figures: Vec<(FigureRef, Cover)>,
    /// Gun models inside it (HT-ART-21).
    pub guns: Vec<GunId>,
    /// Horse figures of gun teams inside it, one entry per horse (HT-ART-22).
    pub horses: Vec<GunId>,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct PendingShot {
    gun: GunId,
    bounces: u8,
    last_bounce: Option<u32>,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct PendingBlast {
    gun: GunId,
    steps_hit: u8,
    damaged: Vec<CompanyId>,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct PendingAssault {
    attackers: Vec<CompanyId>,
    defender: CompanyId,
    stood: Option<bool>,
    final_fire: bool,
    dropped: bool,
}

/// The state of a Hardtack game and the rules that change it.
///
/// `clone_from` copies into a battle already there without allocating where it can: its lists, and each
/// company's, keep their room (see [`Company`]).
#[derive(Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "BattleData"))]
pub struct Battle {
    options: Options,
    scale: MenPerFigure,
    companies: Vec<Company>,
    guns: Vec<Gun>,
    colours: Vec<(u32, Colours)>,
    gesture: Option<(CompanyId, Vec<CompanyId>)>,
    regiment: Option<(CompanyId, Vec<CompanyId>, Option<bool>)>,
    won_assault: Option<(CompanyId, bool)>,
    shot: Option<PendingShot>,
    burst: Option<(GunId, Ammunition)>,
    blast: Option<PendingBlast>,
    assault: Option<PendingAssault>,
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    dummies: Vec<Dummy>,
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    short: Option<(CompanyId, CompanyId, ShortOfContact)>,
    #[cfg_attr(feature = "serde", serde(skip))]
    tests_rolled: TestsRolled,
}

impl Clone for Battle {
    fn clone(&self) -> Battle {
        Battle {
            options: self.options,
            scale: self.scale,
            companies: self.companies.clone(),
            guns: self.guns.clone(),
            colours: self.colours.clone(),
            gesture: self.gesture.clone(),
            regiment: self.regiment.clone(),
            won_assault: self.won_assault,
            shot: self.shot.clone(),
            burst: self.burst,
            blast: self.blast.clone(),
            assault: self.assault.clone(),
            dummies: self.dummies.clone(),
            short: self.short,
            tests_rolled: self.tests_rolled.clone(),
        }
    }

    fn clone_from(&mut self, source: &Battle) {
        // Destructured so that a field added to `Battle` cannot be left out here.
        let Battle {
            options,
            scale,
            companies,
            guns,
            colours,
            gesture,
            regiment,
            won_assault,
            shot,
            burst,
            blast,
            assault,
            dummies,
            short,
            tests_rolled,
        } = source;
        self.options = *options;
        self.scale = *scale;
        self.companies.clone_from(companies);
        self.guns.clone_from(guns);
        self.colours.clone_from(colours);
        self.gesture.clone_from(gesture);
        self.regiment.clone_from(regiment);
        self.won_assault = *won_assault;
        self.shot.clone_from(shot);
        self.burst = *burst;
        self.blast.clone_from(blast);
        self.assault.clone_from(assault);
        self.dummies.clone_from(dummies);
        self.short = *short;
        self.tests_rolled.clone_from(tests_rolled);
    }
}

/// The confidence tests rolled since the caller last took them ([`Battle::take_tests`]): which company tested,
/// the test, and its result. A record for narration and luck, not part of the battle's state: it is not saved,
/// and two battles that differ only in it are equal.
///
/// It also carries whether the battle is a copy that its caller throws away whole on any refusal
/// ([`Battle::as_throwaway_copy`]): then a step needs no copy of its own to stay atomic. That too is how the
/// battle is being used, not what it is, and its `Debug` form shows the tests alone.
#[derive(Default)]
struct TestsRolled(
    Vec<(CompanyId, ConfidenceTest, Confidence)>,
    bool,
    Vec<RollMade>,
);

impl Clone for TestsRolled {
    fn clone(&self) -> TestsRolled {
        TestsRolled(self.0.clone(), self.1, self.2.clone())
    }

    fn clone_from(&mut self, source: &TestsRolled) {
        let TestsRolled(tests, throwaway, rolls) = source;
        self.0.clone_from(tests);
        self.1 = *throwaway;
        self.2.clone_from(rolls);
    }
}

/// A roll the battle made other than a confidence test, with what came of it, kept for its chance
/// ([`Battle::take_rolls`]): the procedure as rolled, so that its exact odds can be worked out after.
#[derive(Clone, Debug, PartialEq)]
pub enum RollMade {
    /// A fire's impact dice (HT-FIR-18, HT-FIR-19, HT-SG2-33): `hits` potential hits, each allocated over a
    /// pool of `pool` figures on foot of one armour and rolled with `impact` (`None` under Quick Combat
    /// Resolution: every hit wounds), for `side`. Kept only for such a pool; one with horses or riders in it
    /// rolls more than these dice.
    Casualties {
        /// The side the fire served.
        side: Side,
        /// Figures in the pool.
        pool: u8,
        /// Potential hits.
        hits: u8,
        /// Each hit's impact against the pool's armour.
        impact: Option<Impact>,
        /// Figures wounded.
        wounded: u8,
        /// Figures killed.
        killed: u8,
    },
    /// The roll of a defender's final defensive fire (HT-MEL-07), for `side`.
    FinalFire {
        /// The defender's side.
        side: Side,
        /// Its dice against the range die.
        dice: FireDice,
        /// The result.
        effect: FireEffect,
    },
    /// An attacker's combat move (HT-MEL-01, HT-SG2-37), for `side`: reaching contact is better.
    CombatMove {
        /// The attacker's side.
        side: Side,
        /// The move rolled.
        roll: CombatMove,
        /// Where it ended.
        result: MoveResult,
    },
    /// The reaction test of an attacker hit by final defensive fire (HT-MEL-07: +1 a casualty), for its
    /// `side`: passing goes on to the second combat move, failing withdraws.
    Reaction {
        /// The attacker's side.
        side: Side,
        /// The test rolled.
        test: ReactionTest,
        /// Whether it passed.
        passed: bool,
    },
    /// A melee between one attacker and the defender (HT-SG2-38, HT-MEL-08), for the attacker's `side`.
    Melee {
        /// The attacker's side.
        side: Side,
        /// The melee rolled.
        melee: Melee,
        /// How it came out.
        outcome: crate::melee::MeleeOutcome,
    },
}

impl fmt::Debug for TestsRolled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("TestsRolled").field(&self.0).finish()
    }
}

impl PartialEq for TestsRolled {
    fn eq(&self, _: &TestsRolled) -> bool {
        true
    }
}

/// A battle as saved, checked by [`Battle::try_from`] before it is loaded.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct BattleData {
    options: Options,
    scale: MenPerFigure,
    companies: Vec<Company>,
    guns: Vec<Gun>,
    colours: Vec<(u32, Colours)>,
    gesture: Option<(CompanyId, Vec<CompanyId>)>,
    regiment: Option<(CompanyId, Vec<CompanyId>, Option<bool>)>,
    won_assault: Option<(CompanyId, bool)>,
    shot: Option<PendingShot>,
    burst: Option<(GunId, Ammunition)>,
    blast: Option<PendingBlast>,
    assault: Option<PendingAssault>,
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    dummies: Vec<Dummy>,
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    short: Option<(CompanyId, CompanyId, ShortOfContact)>,
}

/// Why a saved battle was refused: it holds something the rules could never reach.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the saved battle cannot be loaded: {0}")]
pub struct BadBattle(pub String);

#[cfg(feature = "serde")]
impl TryFrom<BattleData> for Battle {
    type Error = BadBattle;

    /// The checks of construction, over the whole saved state: every company has 1 to 48 figures, a leader
    /// first and at most one colour bearer; its actions are at most two, and more than one company acts at
    /// once only on one side and through a regimental activation, a transfer or a detached element;
    /// every id it names (gun crews, elements, a pending
    /// assault, shot or blast, a regiment, colours) names a unit of the battle; Gatling guns at most two.
    fn try_from(d: BattleData) -> Result<Battle, BadBattle> {
        let n = d.companies.len();
        let known = |id: CompanyId| (id.0 as usize) < n;
        let gun_known = |id: GunId| (id.0 as usize) < d.guns.len();
        let bad = |why: String| Err(BadBattle(why));
        let mut acting = 0;
        for c in &d.companies {
            if c.figures.is_empty() || c.figures.len() > crate::fire::MAX_POOL {
                return bad(format!(
                    "{} has {} figures; a company needs 1 to 48",
                    c.name,
                    c.figures.len()
                ));
            }
            if c.figures
                .iter()
                .filter(|f| f.role == Role::ColourBearer)
                .count()
                > 1
            {
                return bad(format!("{} has more than one colour bearer", c.name));
            }
            if c.actions > 2 {
                return bad(format!(
                    "{} has {} actions left; a company has two",
                    c.name, c.actions
                ));
            }
            if c.actions > 0 {
                acting += 1;
            }
            if c.gatlings > 2 || c.full_strength == 0 || c.full_strength > crate::fire::MAX_POOL {
                return bad(format!("{} has an impossible complement", c.name));
            }
            match c.attached {
                Attachment::Own => {}
                Attachment::Element(p) | Attachment::Runner(p) if known(p) => {}
                _ => {
                    return bad(format!(
                        "{} is attached to a company that is not in the battle",
                        c.name
                    ));
                }
            }
            if c.fired_on_by.iter().any(|&id| !known(id)) {
                return bad(format!(
                    "{} was fired on by a company that is not in the battle",
                    c.name
                ));
            }
        }
        if acting > 1 {
            // Several companies act at once only through a regimental activation, a transfer of actions
            // or a detached element's activation, and only of the side whose turn it is to act.
            let mut busy = d.companies.iter().filter(|c| c.actions > 0);
            let side = busy.next().map(|c| c.side);
            let one_side = busy.all(|c| Some(c.side) == side);
            let explained = d.regiment.is_some()
                || d.companies
                    .iter()
                    .any(|c| Some(c.side) == side && c.transfers > 0)
                || d.companies
                    .iter()
                    .any(|c| c.actions > 0 && matches!(c.attached, Attachment::Element(_)));
            if !one_side || !explained {
                return bad(
                    "more than one company is acting at once, with no regimental activation, \
                     transfer or detached element to account for it"
                        .to_string(),
                );
            }
        }
        for g in &d.guns {
            if !known(g.crew) {
                return bad(format!("the crew of {} is not in the battle", g.name));
            }
            if g.hurt_horses > g.horses {
                return bad(format!("{} has more hurt horses than horses", g.name));
            }
        }
        let ids_ok = d
            .gesture
            .as_ref()
            .is_none_or(|(a, l)| known(*a) && l.iter().all(|&i| known(i)))
            && d.regiment
                .as_ref()
                .is_none_or(|(a, l, _)| known(*a) && l.iter().all(|&i| known(i)))
            && d.won_assault.is_none_or(|(a, _)| known(a))
            && d.shot.as_ref().is_none_or(|s| gun_known(s.gun))
            && d.burst.is_none_or(|(g, _)| gun_known(g))
            && d.blast
                .as_ref()
                .is_none_or(|b| gun_known(b.gun) && b.damaged.iter().all(|&i| known(i)))
            && d.assault.as_ref().is_none_or(|a| {
                known(a.defender)
                    && !a.attackers.is_empty()
                    && a.attackers.iter().all(|&i| known(i))
            })
            && d.short.is_none_or(|(a, b, kind)| {
                known(a)
                    && known(b)
                    && d.assault.is_none()
                    && match kind {
                        ShortOfContact::Withdraws => true,
                        ShortOfContact::StillShort { moved } => moved.is_finite() && moved >= 0.0,
                    }
            });
        if !ids_ok {
            return bad("a step under way names a unit that is not in the battle".to_string());
        }
        let mut regiments: Vec<u32> = d.colours.iter().map(|c| c.0).collect();
        regiments.sort_unstable();
        regiments.dedup();
        if regiments.len() != d.colours.len() {
            return bad("a regiment has two sets of colours".to_string());
        }
        Ok(Battle {
            options: d.options,
            scale: d.scale,
            companies: d.companies,
            guns: d.guns,
            colours: d.colours,
            gesture: d.gesture,
            regiment: d.regiment,
            won_assault: d.won_assault,
            shot: d.shot,
            burst: d.burst,
            blast: d.blast,
            assault: d.assault,
            tests_rolled: TestsRolled::default(),
            dummies: d.dummies,
            short: d.short,
        })
    }
}

/// A figure in a combined melee's line: its company, its index, its shifted die and its kind (HT-MEL-12).
type Fighting = (CompanyId, usize, crate::ladder::OpenShift, usize);

fn bump(list: &mut Vec<(CompanyId, u32)>, id: CompanyId) {
    bump_by(list, id, 1);
}

fn bump_by(list: &mut Vec<(CompanyId, u32)>, id: CompanyId, n: u32) {
    match list.iter_mut().find(|e| e.0 == id) {
        Some(e) => e.1 += n,
        None => list.push((id, n)),
    }
}

/// Casualties an area weapon (a shot's bounce, a case burst) caused, company by company in the order first
/// reached: (company, wounded, killed, a leader hit). A company reached but unhurt keeps its entry: it still
/// tests.
#[derive(Default)]
struct AreaHits(Vec<(CompanyId, u32, u32, bool)>);

impl AreaHits {
    /// The entry of `company`, added the first time the weapon reaches it.
    fn reach(&mut self, company: CompanyId) -> usize {
        if let Some(p) = self.0.iter().position(|h| h.0 == company) {
            return p;
        }
        self.0.push((company, 0, 0, false));
        self.0.len() - 1
    }

    /// Counts `result` on a figure of `company` (`leader` if it is the company's leader); the condition the
    /// figure is left in, or `None` when the hit had no effect.
    fn record(&mut self, company: CompanyId, result: HitResult, leader: bool) -> Option<Condition> {
        let e = self.reach(company);
        let cond = match result {
            HitResult::NoEffect => return None,
            HitResult::Wounded => {
                self.0[e].1 += 1;
                Condition::Wounded
            }
            HitResult::Killed => {
                self.0[e].2 += 1;
                Condition::Dead
            }
        };
        self.0[e].3 |= leader;
        Some(cond)
    }
}

/// Runs `step` on a copy and keeps it only if it succeeded and the dice did not fault.
///
/// A battle that is itself a throwaway copy ([`Battle::as_throwaway_copy`]) is changed in place: on a refusal
/// its caller discards it whole, so the step's own copy would buy nothing. Steps nested inside `step` copy as
/// usual, since `step` may go on after one of them is refused.
fn transact<T, D: Dice + ?Sized>(
    battle: &mut Battle,
    dice: &mut D,
    step: impl FnOnce(&mut Battle, &mut D) -> Result<T, RuleViolation>,
) -> Result<T, RuleViolation> {
    if battle.tests_rolled.1 {
        battle.tests_rolled.1 = false;
        let out = step(battle, dice);
        battle.tests_rolled.1 = true;
        let out = out?;
        if let Some(e) = dice.fault() {
            return Err(RuleViolation::Dice(e.clone()));
        }
        battle.colours_fall();
        return Ok(out);
    }
    let mut next = battle.clone();
    let out = step(&mut next, dice)?;
    if let Some(e) = dice.fault() {
        return Err(RuleViolation::Dice(e.clone()));
    }
    next.colours_fall();
    *battle = next;
    Ok(out)
}

impl Battle {
    /// An empty battle under `options`.
    #[must_use]
    pub fn new(options: Options) -> Battle {
        Battle {
            options,
            scale: MenPerFigure::default(),
            companies: Vec::new(),
            guns: Vec::new(),
            colours: Vec::new(),
            gesture: None,
            regiment: None,
            won_assault: None,
            shot: None,
            burst: None,
            blast: None,
            assault: None,
            tests_rolled: TestsRolled::default(),
            dummies: Vec::new(),
            short: None,
        }
    }

    /// Takes the confidence tests rolled since the last call, oldest first: the company that tested, the test
    /// (for its odds) and its result. A battle keeps them only until they are taken.
    pub fn take_tests(&mut self) -> Vec<(CompanyId, ConfidenceTest, Confidence)> {
        std::mem::take(&mut self.tests_rolled.0)
    }

    /// Takes the other rolls made since the last call, oldest first ([`RollMade`]): a fire's impact dice, a
    /// final defensive fire's roll, the reaction test after it, combat moves, a melee. A battle keeps them only until they are taken.
    pub fn take_rolls(&mut self) -> Vec<RollMade> {
        std::mem::take(&mut self.tests_rolled.2)
    }

    /// Marks the battle as a copy its caller throws away whole on any refusal (`true`), or as one to keep
    /// (`false`, as every battle starts). While marked, the battle's steps change it in place rather than each
    /// on a copy of its own, and a refused step may leave it half changed: only a caller that then discards it
    /// may mark it. The mark is not saved and two battles that differ only in it are equal.
    pub(crate) fn as_throwaway_copy(&mut self, throwaway: bool) {
        self.tests_rolled.1 = throwaway;
    }

    /// The options in force.
    pub const fn options(&self) -> &Options {
        &self.options
    }

    /// Adds a company (HT-SET-03, HT-SET-12, HT-SET-13): its first figure is the leader; it starts at its
    /// fatigue's level (HT-SG2-02), with its First Volley, unactivated. Refuses 0 or more than 48 figures.
    pub fn add_company(&mut self, spec: CompanySpec) -> Result<CompanyId, RuleViolation> {
        if spec.figures == 0 || spec.figures > crate::fire::MAX_POOL {
            return Err(SetupError::CompanySize {
                name: spec.name,
                count: spec.figures,
            }
            .into());
        }
        let mut figures = vec![
            Figure {
                role: Role::Trooper,
                condition: Condition::Fit,
                reload: false,
                unhorsed: false,
                fired: false,
            };
            spec.figures
        ];
        figures[0].role = Role::Leader;
        if spec.gatlings > 2 {
            return Err(RuleViolation::Refused {
                name: spec.name,
                what: "crew that many Gatling guns",
                why: "a company adds at most two Gatling guns to its fire",
            });
        }
        if spec.colour_bearer {
            let Some(regiment) = spec.regiment else {
                return Err(RuleViolation::Refused {
                    name: spec.name,
                    what: "carry colours",
                    why: "colours belong to a regiment: give the company one",
                });
            };
            if spec.figures < 2 || self.colours.iter().any(|c| c.0 == regiment) {
                return Err(RuleViolation::Refused {
                    name: spec.name,
                    what: "carry colours",
                    why: "a regiment has one colour bearer, in a company of two or more figures",
                });
            }
            figures[1].role = Role::ColourBearer;
            self.colours.push((regiment, Colours::Carried));
        }
        let id = CompanyId(u32::try_from(self.companies.len()).unwrap_or(u32::MAX));
        self.companies.push(Company {
            name: spec.name.into(),
            side: spec.side,
            quality: spec.quality,
            lv: spec.lv,
            motivation: spec.motivation,
            ceiling: spec.fatigue.ceiling(),
            cl: spec.fatigue.ceiling(),
            formation: spec.formation,
            in_position: false,
            weapon: spec.weapon,
            armour: spec.armour,
            melee: spec.melee,
            full_strength: spec.figures,
            figures,
            first_volley: true,
            activated: false,
            actions: 0,
            fired_on_by: Vec::new(),
            cavalry: spec.cavalry,
            loads: spec.loads,
            modern: spec.modern,
            panic: Panic::Untested,
            suppression: 0,
            transfers: 0,
            gatlings: spec.gatlings,
            regiment: spec.regiment,
            disorganised: false,
            travel: false,
            moves: 0,
            prepared: false,
            fired_on_before: false,
            done: Vec::new(),
            attached: Attachment::Own,
            hidden: spec.hidden,
        });
        Ok(id)
    }

    /// Adds a gun served by a crew company (HT-SET-05); guns start unloaded (HT-SET-13). The crew activates as
    /// a company (HT-SEQ-10) and fights as skirmishers (HT-ART-24).
    pub fn add_gun(
        &mut self,
        name: &str,
        piece: FieldPiece,
        rifled: bool,
        crew: CompanyId,
    ) -> Result<GunId, RuleViolation> {
        self.company(crew)?;
        let id = GunId(u32::try_from(self.guns.len()).unwrap_or(u32::MAX));
        self.guns.push(Gun {
            name: name.into(),
            piece,
            rifled,
            crew,
            loaded: None,
            disabled: false,
            gunners: true,
            abandoned: false,
            limbered: false,
            rounds: None,
            horses: 2,
            hurt_horses: 0,
        });
        Ok(id)
    }

    /// A company.
    pub fn company(&self, id: CompanyId) -> Result<&Company, RuleViolation> {
        self.companies
            .get(id.0 as usize)
            .ok_or(RuleViolation::UnknownCompany(id))
    }

    /// [`Battle::company`] as an option, for the game's own lookups that only ask whether it is there: no
    /// error is made, nor dropped.
    #[must_use]
    pub fn company_at(&self, id: CompanyId) -> Option<&Company> {
        self.companies.get(id.0 as usize)
    }

    fn company_mut(&mut self, id: CompanyId) -> Result<&mut Company, RuleViolation> {
        self.companies
            .get_mut(id.0 as usize)
            .ok_or(RuleViolation::UnknownCompany(id))
    }

    /// Every company's id, in the order they were added.
    pub fn company_ids(&self) -> impl Iterator<Item = CompanyId> + '_ {
        (0..self.companies.len()).map(|i| CompanyId(u32::try_from(i).unwrap_or(u32::MAX)))
    }

    /// An attacking company that stopped short of contact in a single-company assault and owes its side's
    /// choice (HT-SG2-37, HT-MEL-07): the company, the defender it assaulted, and what it owes. Nothing else
    /// happens in the battle until the choice is made.
    #[must_use]
    pub fn short_of_contact(&self) -> Option<(CompanyId, CompanyId, ShortOfContact)> {
        self.short
    }

    /// An attacker still short after its second combat move stays mid-dash (HT-SG2-37): it is out of the
    /// assault and takes no test. Refused unless [`Battle::short_of_contact`] asks that choice.
    pub fn stay_mid_dash(&mut self) -> Result<String, RuleViolation> {
        let Some((id, _, ShortOfContact::StillShort { .. })) = self.short else {
            return Err(RuleViolation::OutOfOrder(
                "no attacker is short of contact after its second combat move",
            ));
        };
        self.short = None;
        Ok(format!("{} stays mid-dash", self.company(id)?.name))
    }

    /// An attacker still short after its second combat move aborts as if it had faltered under final
    /// defensive fire (HT-SG2-37, HT-MEL-07): it takes the 1/0/NTR test in place of suppression, and then
    /// withdraws ([`ShortOfContact::Withdraws`]). Refused unless [`Battle::short_of_contact`] asks that choice;
    /// a refusal rolls nothing.
    pub fn abort_dash<D: Dice + ?Sized>(&mut self, dice: &mut D) -> Result<String, RuleViolation> {
        let Some((id, def, ShortOfContact::StillShort { .. })) = self.short else {
            return Err(RuleViolation::OutOfOrder(
                "no attacker is short of contact after its second combat move",
            ));
        };
        transact(self, dice, |b, dice| {
            let event = TestEvent {
                fired_on: Some(FiredOn::Suppression),
                ..TestEvent::default()
            };
            let r = b.test(id, event, dice)?;
            b.short = Some((id, def, ShortOfContact::Withdraws));
            let c = b.company(id)?;
            Ok(match r {
                Some((tl, res, cl)) => format!(
                    "{} aborts the assault: it {res} its test at TL {tl}, is now {cl} and withdraws",
                    c.name
                ),
                None => format!("{} aborts the assault and withdraws", c.name),
            })
        })
    }

    /// An attacker that faltered or aborted has withdrawn (to cover or to its start point, its side's choice,
    /// HT-SG2-37): the battle waits no longer. Refused unless [`Battle::short_of_contact`] asks for it.
    pub fn withdraw_short(&mut self) -> Result<(), RuleViolation> {
        let Some((_, _, ShortOfContact::Withdraws)) = self.short else {
            return Err(RuleViolation::OutOfOrder(
                "no attacker withdraws short of contact",
            ));
        };
        self.short = None;
        Ok(())
    }

    /// Whether a close assault waits for its defender's answer, and which company defends.
    #[must_use]
    pub fn assault_defender(&self) -> Option<CompanyId> {
        self.assault
            .as_ref()
            .filter(|a| a.stood.is_none())
            .map(|a| a.defender)
    }

    /// A gun.
    pub fn gun(&self, id: GunId) -> Result<&Gun, RuleViolation> {
        self.guns
            .get(id.0 as usize)
            .ok_or(RuleViolation::UnknownGun(id))
    }

    /// Every gun, by id.
    pub fn gun_ids(&self) -> impl Iterator<Item = GunId> + '_ {
        (0..self.guns.len()).map(|i| GunId(u32::try_from(i).unwrap_or(u32::MAX)))
    }

    /// Whether a canister blast waits to carry through to the next company on its line (HT-ART-19).
    #[must_use]
    pub const fn blast_pending(&self) -> bool {
        self.blast.is_some()
    }

    /// The ball in flight leaves the table: the shot is over (HT-ART-12). Refused with no ball in flight.
    pub fn shot_off_table(&mut self) -> Result<(), RuleViolation> {
        if self.shot.take().is_none() {
            return Err(RuleViolation::OutOfOrder("no round shot is in flight"));
        }
        Ok(())
    }

    /// Whether no step is under way (no round shot in flight, no canister blast, close assault or choice of
    /// an attacker short of contact waiting): a new step may begin.
    #[must_use]
    pub fn is_idle(&self) -> bool {
        self.idle().is_ok()
    }

    fn idle(&self) -> Result<(), RuleViolation> {
        if self.shot.is_some() || self.burst.is_some() {
            return Err(RuleViolation::OutOfOrder(
                "a round shot is still in flight: resolve its impact first",
            ));
        }
        if self.blast.is_some() {
            return Err(RuleViolation::OutOfOrder(
                "a canister blast may still carry through: continue it or end it first",
            ));
        }
        if self.assault.is_some() {
            return Err(RuleViolation::OutOfOrder(
                "a close assault is under way: finish it first",
            ));
        }
        if self.short.is_some() {
            return Err(RuleViolation::OutOfOrder(
                "an attacker short of contact owes its choice: settle it first",
            ));
        }
        Ok(())
    }

    /// Activates a company for two actions (HT-SG2-03, HT-SG2-04). Refuses a company that has already
    /// activated this turn, or while another company still has actions left.
    pub fn activate(&mut self, id: CompanyId) -> Result<(), RuleViolation> {
        self.idle()?;
        if let Some(busy) = self.companies.iter().find(|c| c.actions > 0) {
            return Err(RuleViolation::OtherActivating {
                name: busy.name.to_string(),
            });
        }
        let c = self.company_mut(id)?;
        if matches!(c.attached, Attachment::Element(_)) {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "activate on its own",
                why: "a detached element acts only when its parent's leader activates it",
            });
        }
        if c.activated {
            return Err(RuleViolation::AlreadyActivated {
                name: c.name.to_string(),
            });
        }
        c.activated = true;
        c.actions = 2;
        c.moves = 0;
        c.prepared = false;
        c.hidden = false;
        c.done.clear();
        for f in &mut c.figures {
            f.fired = false;
        }
        self.gesture = None;
        self.regiment = None;
        Ok(())
    }

    /// Whether a side may pass instead of activating (HT-SG2-03): only while it has fewer unactivated units
    /// than the other side.
    #[must_use]
    pub fn may_pass(&self, side: Side) -> bool {
        let waiting = |s: Side| {
            self.companies
                .iter()
                .filter(|c| c.side == s && !c.activated && c.has_fit())
                .count()
        };
        waiting(side) < waiting(side.enemy())
    }

    /// The side that chooses who activates first this turn (HT-SG2-03): the one with fewer units on the
    /// table; `None` when they are equal (roll or alternate, as the players agree).
    #[must_use]
    pub fn chooses_first(&self) -> Option<Side> {
        let count = |s: Side| {
            self.companies
                .iter()
                .filter(|c| c.side == s && c.has_fit())
                .count()
        };
        match count(Side::Union).cmp(&count(Side::Confederate)) {
            std::cmp::Ordering::Less => Some(Side::Union),
            std::cmp::Ordering::Greater => Some(Side::Confederate),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// Ends the current activation early, giving up any actions left.
    pub fn end_activation(&mut self) -> Result<(), RuleViolation> {
        self.idle()?;
        for c in &mut self.companies {
            c.actions = 0;
        }
        Ok(())
    }

    /// One company gives up the actions it has left, the others acting with it keep theirs (a company of a
    /// regimental activation, HT-SEQ-04, or one given a transferred action, HT-CMD-01, ending its own part).
    pub fn forgo(&mut self, id: CompanyId) -> Result<(), RuleViolation> {
        self.idle()?;
        self.company_mut(id)?.actions = 0;
        Ok(())
    }

    /// Ends the turn: every company may activate again (HT-SG2-03).
    pub fn end_turn(&mut self) -> Result<(), RuleViolation> {
        self.idle()?;
        for c in &mut self.companies {
            c.activated = false;
            c.actions = 0;
            c.transfers = 0;
        }
        self.gesture = None;
        self.regiment = None;
        Ok(())
    }

    /// Spends `n` actions on an action (HT-SEQ-02, HT-SG2-04): refused for a panicked or disorganised
    /// company, with too few actions left, or for an action it may take only once an activation and has
    /// taken.
    fn spend(&mut self, id: CompanyId, n: u8, action: Action) -> Result<(), RuleViolation> {
        let c = self.company_mut(id)?;
        if matches!(c.attached, Attachment::Runner(_))
            && !matches!(
                action,
                Action::Move | Action::Transfer | Action::RemoveSuppression
            )
        {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "do that",
                why: "a runner may only move, carry a transferred action and remove his own markers",
            });
        }
        if !action.may_repeat() && c.done.contains(&action) {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: action.describe(),
                why: "that action may be taken only once an activation",
            });
        }
        if c.panic == Panic::Panicked {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "act",
                why: "a panicked company can do nothing until its panic is removed",
            });
        }
        if c.disorganised {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "act",
                why: "a disorganised company must first Reorganise",
            });
        }
        if c.actions < n {
            return Err(RuleViolation::NoActionLeft {
                name: c.name.to_string(),
            });
        }
        c.actions -= n;
        c.done.push(action);
        Ok(())
    }

    /// Reload (HT-SEQ-07, HT-FIR-20): one action clears every Reload marker in the company; refused with no
    /// loads left under Ammunition Supply (HT-OPT-08).
    pub fn reload(&mut self, id: CompanyId) -> Result<(), RuleViolation> {
        self.idle()?;
        let c = self.company(id)?;
        if c.loads == Some(0) {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "reload",
                why: "it is out of ammunition",
            });
        }
        if !c.needs_reload() {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "reload",
                why: "no figure carries a Reload marker",
            });
        }
        self.spend(id, 1, Action::Reload)?;
        for f in &mut self.company_mut(id)?.figures {
            f.reload = false;
        }
        Ok(())
    }

    /// Reorganise (HT-SEQ-09, HT-SG2-06, HT-FRM-03, HT-FRM-10): one action that restores a disorganised
    /// company's integrity and sets its formation; line or column needs a Confident, Steady or Shaken company
    /// that is not a gun crew (HT-ART-24: crews are skirmishers). An In Position company must first drop In
    /// Position or use [`Battle::reorganise_from_position`] (HT-FRM-12).
    pub fn reorganise(&mut self, id: CompanyId, formation: Formation) -> Result<(), RuleViolation> {
        self.idle()?;
        self.check_reorganise(id, formation)?;
        let c = self.company(id)?;
        if c.in_position {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "reorganise",
                why: "it is In Position: drop it first, or reorganise under a reaction test",
            });
        }
        self.reorganise_unchecked(id, formation)
    }

    fn check_reorganise(&self, id: CompanyId, formation: Formation) -> Result<(), RuleViolation> {
        let c = self.company(id)?;
        let why = if formation.is_close() && c.cl >= ConfidenceLevel::Broken {
            Some("Broken and Routed companies stay in skirmish order")
        } else if formation.is_close() && self.guns.iter().any(|g| g.crew == id && !g.abandoned) {
            Some("gun crews fight as skirmishers")
        } else if c.actions == 0 {
            return Err(RuleViolation::NoActionLeft {
                name: c.name.to_string(),
            });
        } else {
            None
        };
        match why {
            Some(why) => Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "form line or column",
                why,
            }),
            None => Ok(()),
        }
    }

    fn reorganise_unchecked(
        &mut self,
        id: CompanyId,
        formation: Formation,
    ) -> Result<(), RuleViolation> {
        self.company_mut(id)?.disorganised = false;
        self.spend(id, 1, Action::Reorganise)?;
        let c = self.company_mut(id)?;
        c.formation = formation;
        c.in_position = false;
        c.travel = false;
        Ok(())
    }

    /// Reorganise an In Position company under a reaction test (HT-FRM-12): TL 2, −1 in close formation;
    /// a pass drops In Position and the Reorganise happens; a failure wastes the action and In Position stays.
    pub fn reorganise_from_position<D: Dice + ?Sized>(
        &mut self,
        id: CompanyId,
        formation: Formation,
        dice: &mut D,
    ) -> Result<bool, RuleViolation> {
        self.idle()?;
        self.check_reorganise(id, formation)?;
        let test = self.reaction(id, crate::morale::reaction::MOVE_FROM_IN_POSITION)?;
        transact(self, dice, |b, dice| {
            if test.roll(dice) {
                b.reorganise_unchecked(id, formation)?;
                Ok(true)
            } else {
                b.company_mut(id)?.disorganised = false;
                b.spend(id, 1, Action::Reorganise)?;
                Ok(false)
            }
        })
    }

    /// Drop In Position (HT-SG2-14): one action, no test.
    pub fn drop_in_position(&mut self, id: CompanyId) -> Result<(), RuleViolation> {
        self.idle()?;
        self.spend(id, 1, Action::DropInPosition)?;
        self.company_mut(id)?.in_position = false;
        Ok(())
    }

    /// A reaction test for a company at a base threat level, with its close-formation −1 (HT-MOR-06) and
    /// captured colours +1 (HT-OPT-28).
    fn reaction(&self, id: CompanyId, base: i16) -> Result<ReactionTest, RuleViolation> {
        let c = self.company(id)?;
        Ok(ReactionTest {
            quality: c.quality.die(),
            lv: c.lv,
            tl: base - i16::from(c.formation.is_close()) + self.colours_modifier(id),
        })
    }

    /// +1 on every test of a company whose regiment's colours were captured (HT-OPT-28).
    fn colours_modifier(&self, id: CompanyId) -> i16 {
        let Some(Some(r)) = self.companies.get(id.0 as usize).map(|c| c.regiment) else {
            return 0;
        };
        i16::from(
            self.colours
                .iter()
                .any(|&(reg, st)| reg == r && st == Colours::Captured),
        )
    }

    /// Colours fall where their bearer fell (HT-OPT-27).
    fn colours_fall(&mut self) {
        for (reg, state) in &mut self.colours {
            if *state != Colours::Carried {
                continue;
            }
            let carried = self.companies.iter().any(|c| {
                c.regiment == Some(*reg)
                    && c.figures
                        .iter()
                        .any(|f| f.role == Role::ColourBearer && f.condition == Condition::Fit)
            });
            if !carried {
                *state = Colours::Fallen;
            }
        }
    }

    /// The state of a regiment's colours.
    #[must_use]
    pub fn colours(&self, regiment: u32) -> Option<Colours> {
        self.colours.iter().find(|c| c.0 == regiment).map(|c| c.1)
    }

    /// A company with a figure in contact with fallen colours takes them up with a Reorganise (HT-OPT-27) —
    /// recovering its own regiment's, or capturing the enemy's (HT-OPT-28).
    pub fn take_colours(&mut self, id: CompanyId, regiment: u32) -> Result<Colours, RuleViolation> {
        self.idle()?;
        let c = self.company(id)?;
        let owner_side = self
            .companies
            .iter()
            .find(|o| o.regiment == Some(regiment))
            .map(|o| o.side);
        if self.colours(regiment) != Some(Colours::Fallen) || !c.has_fit() {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "take up the colours",
                why: "only fallen colours can be taken up, by a company with a fit figure",
            });
        }
        let own = owner_side == Some(c.side);
        if own && c.regiment != Some(regiment) {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "take up the colours",
                why: "a regiment's own companies recover its colours",
            });
        }
        self.spend(id, 1, Action::Reorganise)?;
        let state = if own {
            let c = self.company_mut(id)?;
            if let Some(f) = c
                .figures
                .iter_mut()
                .find(|f| f.condition == Condition::Fit && f.role == Role::Trooper)
            {
                f.role = Role::ColourBearer;
            }
            Colours::Carried
        } else {
            Colours::Captured
        };
        for c in &mut self.colours {
            if c.0 == regiment {
                c.1 = state;
            }
        }
        Ok(state)
    }

    /// The company falls out of integrity (HT-SG2-10, HT-FRM-10, HT-FRM-09): a measured fact. It is
    /// disorganised and disordered (skirmish order) and can do nothing but Reorganise (or fight if assaulted).
    pub fn out_of_integrity(&mut self, id: CompanyId) -> Result<(), RuleViolation> {
        let c = self.company_mut(id)?;
        c.disorganised = true;
        c.formation = Formation::Skirmish;
        Ok(())
    }

    /// A normal move (HT-SG2-21, HT-SG2-22, HT-MOV-01..10): one action. The ground costs ×1, ×2 or ×3 per inch
    /// (impassable refused) against the allowance — infantry 6", mounted 12", one die type less in line
    /// (HT-MOV-02), or the travel-mode rate (HT-MOV-04, HT-INT-16); Broken and Routed companies never close on
    /// the enemy, and Shaken ones may not move closer at all (HT-MOV-09); a Shaken company leaving cover and
    /// an In Position company moving each pass a reaction test at TL 2 first (−1 in close formation), a
    /// failure losing the action; close formations may not pass through each other, and a company in line or
    /// column that passes through, or is passed by, another is disordered (HT-MOV-07), as is one moving
    /// through dense woods, swamp, streams or abatis (HT-MOV-06); a Broken or Routed company routs through
    /// friendly close formations, disordering them (HT-MOV-08). Returns whether it moved.
    pub fn move_company<D: Dice + ?Sized>(
        &mut self,
        id: CompanyId,
        order: MoveOrder,
        dice: &mut D,
    ) -> Result<bool, RuleViolation> {
        let tests = self.check_move(id, &order)?;
        let mine_close = self.company(id)?.formation.is_close();
        transact(self, dice, |b, dice| {
            b.spend(id, 1, Action::Move)?;
            for t in &tests {
                if !t.roll(dice) {
                    return Ok(false);
                }
            }
            let c = b.company_mut(id)?;
            c.in_position = false;
            c.moves += 1;
            if order.disordering_terrain || (order.through.is_some() && mine_close) {
                c.formation = Formation::Skirmish;
                c.travel = false;
            }
            if let Some(other) = order.through {
                let o = b.company_mut(other)?;
                if o.formation.is_close() {
                    o.formation = Formation::Skirmish;
                    o.travel = false;
                }
            }
            Ok(true)
        })
    }

    /// Why `c` may not pass through `o` (HT-MOV-07, HT-MOV-08): an enemy is never moved through, and a close
    /// formation never through another unless it is Broken or Routed; `None` when it may.
    fn passing_refused(c: &Company, o: &Company) -> Option<&'static str> {
        if o.side != c.side {
            Some("enemy units may never be moved through")
        } else if c.formation.is_close() && o.formation.is_close() && c.cl < ConfidenceLevel::Broken
        {
            Some("a close formation may not pass through another")
        } else {
            None
        }
    }

    /// Whether `id` may pass through `other` on a way the engine places it rather than a move — a withdrawal,
    /// a fall back, an attacker placed mid-dash (HT-MOV-07, HT-MOV-08): as a move may. Nothing changes.
    ///
    /// # Errors
    /// An unknown company, an enemy, or a close formation through another unless the mover is Broken or Routed.
    pub fn check_pass_through(&self, id: CompanyId, other: CompanyId) -> Result<(), RuleViolation> {
        let c = self.company(id)?;
        match Self::passing_refused(c, self.company(other)?) {
            Some(why) => Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "pass through that company",
                why,
            }),
            None => Ok(()),
        }
    }

    /// `id` passes through the friendly `other` on a way the engine places it (a withdrawal, a fall back, an
    /// attacker placed mid-dash; HT-MOV-07, HT-MOV-08), checked as [`Battle::check_pass_through`]: every
    /// company in close formation in the passing is disordered into skirmish order. Returns whether `id`
    /// and whether `other` were disordered. No die is rolled.
    ///
    /// # Errors
    /// As [`Battle::check_pass_through`]; nothing changes.
    pub fn pass_through(
        &mut self,
        id: CompanyId,
        other: CompanyId,
    ) -> Result<(bool, bool), RuleViolation> {
        self.check_pass_through(id, other)?;
        let mut disorder = |who: CompanyId| -> Result<bool, RuleViolation> {
            let c = self.company_mut(who)?;
            let close = c.formation.is_close();
            if close {
                c.formation = Formation::Skirmish;
                c.travel = false;
            }
            Ok(close)
        };
        Ok((disorder(id)?, disorder(other)?))
    }

    /// Whether `id` may make `order` now, as [`Battle::move_company`] checks it before any die is rolled (the
    /// ground's cost against the allowance, Shaken, Broken and Routed companies not closing on the enemy, the
    /// companies passed through, an action left), and the reaction tests the move would roll. Nothing changes.
    ///
    /// # Errors
    /// The move [`Battle::move_company`] would refuse, with its reason.
    pub fn check_move(
        &self,
        id: CompanyId,
        order: &MoveOrder,
    ) -> Result<Vec<ReactionTest>, RuleViolation> {
        self.idle()?;
        if !order.distance.is_finite() || order.distance < 0.0 {
            return Err(SetupError::BadLength {
                what: "move distance",
                value: order.distance,
            }
            .into());
        }
        let c = self.company(id)?;
        let refuse = |why| {
            Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "make that move",
                why,
            })
        };
        if order.toward_enemy && c.cl >= ConfidenceLevel::Shaken {
            return refuse("a Shaken, Broken or Routed company may not move closer to the enemy");
        }
        let Some(cost) = order.going.cost() else {
            return refuse("the ground is impassable");
        };
        // A gun crew moves its gun (HT-MOV-13, HT-MOV-14): limbered at the team's pace, unlimbered pushed at
        // 4" (2" by one man); captors push a captured gun the same way.
        let gun = self.guns.iter().find(|g| g.crew == id && !g.abandoned);
        let mover = match gun {
            Some(g) if g.limbered => Mover::Limbered,
            Some(_) if c.fit() <= 1 => Mover::UnlimberedOneCrew,
            Some(_) => Mover::Unlimbered,
            None if c.mounted() => Mover::MountedCavalry,
            None => Mover::Infantry,
        };
        let shape = match &self.regiment {
            Some((_, members, Some(line))) if members.contains(&id) && c.formation.is_close() => {
                *line
            }
            _ => c.formation == Formation::Line,
        };
        let mut base = mover.normal_move(shape, false);
        if let Some(g) = gun
            && g.limbered
        {
            // The team's die drops one type per horse cut loose; with none left the gun cannot move.
            if g.horses == 0 {
                return refuse("its team is gone: unlimber the gun to move it");
            }
            base = f64::from(
                DieType::D10
                    .shift_closed(-i16::from(2 - g.horses.min(2)))
                    .faces(),
            );
        }
        let allowance = if c.travel {
            let factor = match (order.road, self.options.travel_rate) {
                (true, crate::options::TravelRate::PerTurn) => 2.0,
                (true, crate::options::TravelRate::PerAction) => 4.0,
                (false, crate::options::TravelRate::PerTurn) => 1.0,
                (false, crate::options::TravelRate::PerAction) => 2.0,
            };
            if !order.road && order.going != crate::setup::Going::Clear {
                return refuse("off the road, travel mode needs clear ground");
            }
            base * factor
        } else {
            base
        };
        if order.distance * f64::from(cost) > allowance + 1e-9 {
            return refuse("the move is longer than the company's allowance over that ground");
        }
        if let Some(other) = order.through
            && let Some(why) = Self::passing_refused(c, self.company(other)?)
        {
            return refuse(why);
        }
        let tests = self.move_tests(id, order)?;
        if c.actions == 0 {
            return Err(RuleViolation::NoActionLeft {
                name: c.name.to_string(),
            });
        }
        Ok(tests)
    }

    /// The reaction tests [`Battle::move_company`] rolls for this move of `id`, in the order it rolls them (the
    /// move stops at the first that fails): one to leave an In Position marker, one for a Shaken company
    /// leaving cover. Empty when the move needs no test.
    ///
    /// # Errors
    /// An unknown company.
    pub fn move_tests(
        &self,
        id: CompanyId,
        order: &MoveOrder,
    ) -> Result<Vec<ReactionTest>, RuleViolation> {
        let c = self.company(id)?;
        let mut tests = Vec::new();
        if c.in_position {
            tests.push(self.reaction(id, crate::morale::reaction::MOVE_FROM_IN_POSITION)?);
        }
        if c.cl == ConfidenceLevel::Shaken && order.leaves_cover {
            tests.push(self.reaction(id, crate::morale::reaction::SHAKEN_LEAVES_COVER)?);
        }
        Ok(tests)
    }

    /// Enter or leave travel mode with a Reorganise (HT-SG2-23, HT-MOV-03, HT-MOV-04): a column only.
    pub fn travel_mode(&mut self, id: CompanyId, on: bool) -> Result<(), RuleViolation> {
        self.idle()?;
        let c = self.company(id)?;
        if on && c.formation != Formation::Column {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "enter travel mode",
                why: "only a column may travel",
            });
        }
        if c.in_position {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "change travel mode",
                why: "it is In Position",
            });
        }
        self.spend(id, 1, Action::Reorganise)?;
        self.company_mut(id)?.travel = on;
        Ok(())
    }

    /// Go In Position (HT-SG2-14; combined with field defences but never behind a fortification, HT-SG2-15): one
    /// action and a reaction test at TL 0 in cover or 2 in the open, −1 in
    /// close formation (HT-MOR-06). Returns whether it passed; a failure spends the action.
    pub fn go_in_position<D: Dice + ?Sized>(
        &mut self,
        id: CompanyId,
        cover: Cover,
        dice: &mut D,
    ) -> Result<bool, RuleViolation> {
        self.idle()?;
        if cover == Cover::Fortification {
            let c = self.company(id)?;
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "go In Position",
                why: "a fortification already counts as In Position",
            });
        }
        let colours = self.colours_modifier(id);
        transact(self, dice, |b, dice| {
            b.spend(id, 1, Action::GoInPosition)?;
            let c = b.company_mut(id)?;
            let base = if cover == Cover::Open {
                crate::morale::reaction::IN_POSITION_OPEN
            } else {
                crate::morale::reaction::IN_POSITION_COVER
            };
            let test = ReactionTest {
                quality: c.quality.die(),
                lv: c.lv,
                tl: base - i16::from(c.formation.is_close()) + colours,
            };
            let pass = test.roll(dice);
            if pass {
                c.in_position = true;
            }
            Ok(pass)
        })
    }

    /// Rally (HT-SG2-07, HT-CMD-06): the rallying company spends an action; the rallier must be within 6"
    /// (Hardtack has no communication roll); the rallied company's quality die must beat its LV plus the
    /// rallier's. Returns the new level.
    pub fn rally<D: Dice + ?Sized>(
        &mut self,
        rallier: CompanyId,
        target: CompanyId,
        distance: f64,
        dice: &mut D,
    ) -> Result<ConfidenceLevel, RuleViolation> {
        self.rally_passed(rallier, target, distance, dice)
            .map(|(level, _)| level)
    }

    /// [`Battle::rally`], saying also whether the test passed (a pass at the fatigue ceiling leaves the level
    /// where it was).
    ///
    /// # Errors
    /// As [`Battle::rally`].
    pub fn rally_passed<D: Dice + ?Sized>(
        &mut self,
        rallier: CompanyId,
        target: CompanyId,
        distance: f64,
        dice: &mut D,
    ) -> Result<(ConfidenceLevel, bool), RuleViolation> {
        self.idle()?;
        if !distance.is_finite() || distance < 0.0 {
            return Err(SetupError::BadLength {
                what: "rally distance",
                value: distance,
            }
            .into());
        }
        let r = self.company(rallier)?;
        let t = self.company(target)?;
        if distance > 6.0 {
            return Err(RuleViolation::Refused {
                name: r.name.to_string(),
                what: "rally",
                why: "the rallying commander must be within 6 inches",
            });
        }
        if r.side != t.side {
            return Err(RuleViolation::Refused {
                name: r.name.to_string(),
                what: "rally",
                why: "a commander rallies companies of his own side",
            });
        }
        let test = self.rally_test(rallier, target)?;
        transact(self, dice, |b, dice| {
            b.spend(rallier, 1, Action::Rally)?;
            let pass = test.roll(dice);
            let t = b.company_mut(target)?;
            if pass {
                t.cl = t.cl.rallied(t.ceiling);
            }
            Ok((t.cl, pass))
        })
    }

    /// The test a rally of `target` by `rallier` rolls (its quality die, shifted by a Grand Gesture, against
    /// its leadership plus the rallier's).
    ///
    /// # Errors
    /// An unknown company.
    pub fn rally_test(
        &self,
        rallier: CompanyId,
        target: CompanyId,
    ) -> Result<crate::morale::Rally, RuleViolation> {
        let r = self.company(rallier)?;
        let t = self.company(target)?;
        Ok(crate::morale::Rally {
            quality: self.gesture_quality(target, t.quality.die()),
            lv: t.lv,
            rallier: r.lv,
        })
    }

    /// Load a gun (HT-SEQ-08): one action of its crew; replaces any load.
    pub fn load(&mut self, gun: GunId, ammunition: Ammunition) -> Result<(), RuleViolation> {
        self.idle()?;
        let g = self.gun(gun)?;
        if g.disabled || g.abandoned {
            return Err(RuleViolation::GunRefused {
                name: g.name.to_string(),
                what: "load",
                why: "it is disabled or abandoned",
            });
        }
        if matches!(ammunition, Ammunition::Case | Ammunition::SphericalCase)
            && !self.options.case_shot
        {
            return Err(RuleViolation::GunRefused {
                name: g.name.to_string(),
                what: "load case",
                why: "case and spherical case need the advanced rule",
            });
        }
        let crew = g.crew;
        let cost = self.gun_cost(gun)?;
        self.spend(crew, cost, Action::Load)?;
        self.guns[gun.0 as usize].loaded = Some(ammunition);
        Ok(())
    }

    /// Whether a gun may fire now (HT-ART-02, HT-FRM-14, HT-OPT-10): unlimbered, the aim within 15° of its
    /// facing, rounds left if the scenario counts them.
    fn gun_ready(
        &self,
        gun: GunId,
        off_facing: f64,
        what: &'static str,
    ) -> Result<(), RuleViolation> {
        let g = self.gun(gun)?;
        let why = if g.limbered {
            Some("a limbered gun cannot fire")
        } else if !off_facing.is_finite() || off_facing.abs() > 15.0 {
            Some("the target lies outside its 30-degree arc")
        } else if g.rounds == Some(0) {
            Some("it has no rounds left")
        } else {
            None
        };
        match why {
            Some(why) => Err(RuleViolation::GunRefused {
                name: g.name.to_string(),
                what,
                why,
            }),
            None => Ok(()),
        }
    }

    /// Limber a gun with a Reorganise of its crew, the team within 6" (HT-FRM-14); or unlimber it. A limbered
    /// gun cannot fire; its load is kept.
    pub fn limber(
        &mut self,
        gun: GunId,
        limbered: bool,
        team_distance: f64,
    ) -> Result<(), RuleViolation> {
        self.idle()?;
        let g = self.gun(gun)?;
        if g.limbered == limbered
            || (limbered
                && !(team_distance.is_finite()
                    && (0.0..=crate::command::COMMAND_RANGE).contains(&team_distance)))
        {
            return Err(RuleViolation::GunRefused {
                name: g.name.to_string(),
                what: if limbered { "limber" } else { "unlimber" },
                why: "it is already so, or its team is not within 6 inches",
            });
        }
        let crew = g.crew;
        self.spend(crew, 1, Action::Reorganise)?;
        self.guns[gun.0 as usize].limbered = limbered;
        Ok(())
    }

    /// Limits a gun's rounds (HT-OPT-10): each Fire spends one.
    pub fn set_rounds(&mut self, gun: GunId, rounds: Option<u32>) -> Result<(), RuleViolation> {
        self.gun(gun)?;
        self.guns[gun.0 as usize].rounds = rounds;
        Ok(())
    }

    fn spend_round(&mut self, gun: GunId) {
        if let Some(r) = self.guns[gun.0 as usize].rounds.as_mut() {
            *r = r.saturating_sub(1);
        }
    }

    /// Actions a gun's Fire or Load costs (HT-ART-04, HT-ART-05): 1 with two or more artillery crew, 2 with
    /// one crewman or with infantry or cavalry captors; a lone captor from another arm cannot work it.
    fn gun_cost(&self, gun: GunId) -> Result<u8, RuleViolation> {
        let g = self.gun(gun)?;
        let fit = self.company(g.crew)?.fit();
        match (g.gunners, fit) {
            (_, 0) | (false, 1) => Err(RuleViolation::GunRefused {
                name: g.name.to_string(),
                what: "be worked",
                why: "it has too few men",
            }),
            (true, 1) | (false, _) => Ok(2),
            (true, _) => Ok(1),
        }
    }

    /// The crew abandons its gun (HT-ART-05): it may then be captured.
    pub fn abandon_gun(&mut self, gun: GunId) -> Result<(), RuleViolation> {
        self.idle()?;
        self.gun(gun)?;
        self.guns[gun.0 as usize].abandoned = true;
        Ok(())
    }

    /// A Broken gun crew's reaction test to take its gun with it (HT-ART-23): TL 0; a failure abandons the
    /// gun. A Routed crew abandons its gun without a test (HT-MOR-07). Returns whether the gun is kept.
    pub fn broken_crew_retreats<D: Dice + ?Sized>(
        &mut self,
        gun: GunId,
        dice: &mut D,
    ) -> Result<bool, RuleViolation> {
        self.idle()?;
        let g = self.gun(gun)?;
        let c = self.company(g.crew)?;
        if c.cl < ConfidenceLevel::Broken {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "retreat with its gun",
                why: "only a Broken or Routed crew retreats",
            });
        }
        let routed = c.cl == ConfidenceLevel::Routed;
        let test = self.reaction(g.crew, 0)?;
        transact(self, dice, |b, dice| {
            let kept = !routed && test.roll(dice);
            b.guns[gun.0 as usize].abandoned = !kept;
            Ok(kept)
        })
    }

    /// Enemy troops in contact capture an abandoned gun (HT-ART-05): it is theirs to work — normally by an
    /// artillery crew of two or more, as a partially crewed gun by a lone gunner or by infantry or cavalry.
    pub fn capture_gun(
        &mut self,
        gun: GunId,
        by: CompanyId,
        gunners: bool,
    ) -> Result<(), RuleViolation> {
        self.idle()?;
        let g = self.gun(gun)?;
        let owner = self.company(g.crew)?.side;
        let c = self.company(by)?;
        if !g.abandoned || c.side == owner {
            return Err(RuleViolation::GunRefused {
                name: g.name.to_string(),
                what: "be captured",
                why: "only an abandoned enemy gun can be captured",
            });
        }
        let g = &mut self.guns[gun.0 as usize];
        g.crew = by;
        g.gunners = gunners;
        g.abandoned = false;
        g.loaded = None;
        Ok(())
    }

    /// Dismount or mount a cavalry company with a Reorganise (HT-FRM-13, HT-SET-04), changing formation in
    /// the same action: dismounting makes one figure in four (rounded up) a horse holder, who does not fire;
    /// mounting returns them to the ranks.
    pub fn dismount(
        &mut self,
        id: CompanyId,
        mounted: bool,
        formation: Formation,
    ) -> Result<(), RuleViolation> {
        self.idle()?;
        let c = self.company(id)?;
        if c.cavalry.is_none() || c.cavalry == Some(mounted) {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: if mounted { "mount" } else { "dismount" },
                why: "it is not cavalry in the other state",
            });
        }
        if formation.is_close() && c.cl >= ConfidenceLevel::Broken {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "form line or column",
                why: "Broken and Routed companies stay in skirmish order",
            });
        }
        self.spend(id, 1, Action::Reorganise)?;
        let c = self.company_mut(id)?;
        c.cavalry = Some(mounted);
        c.formation = formation;
        c.in_position = false;
        if mounted {
            for f in &mut c.figures {
                if f.role == Role::HorseHolder {
                    f.role = Role::Trooper;
                }
            }
        } else {
            let holders = crate::setup::horse_holders(c.fit());
            let mut left = holders;
            for f in c.figures.iter_mut().rev() {
                if left == 0 {
                    break;
                }
                if f.condition == Condition::Fit && f.role == Role::Trooper {
                    f.role = Role::HorseHolder;
                    left -= 1;
                }
            }
        }
        Ok(())
    }

    /// Sets the figure scale (HT-SET-01), used by modern weapons' firepower (HT-OPT-29).
    pub fn set_scale(&mut self, scale: MenPerFigure) {
        self.scale = scale;
    }

    /// Transfer an action (HT-CMD-01, HT-SG2-05, HT-INT-08, HT-INT-17; to a gun crew, HT-SET-06): the commander spends one action and the
    /// receiver, within 6", at once takes a fresh activation, even if it has already activated: two actions,
    /// or under `transfer_grants = SingleAction` the one action given (so nothing that costs two); at
    /// most two transfers per commander per turn, and no communication roll.
    pub fn transfer(
        &mut self,
        commander: CompanyId,
        to: CompanyId,
        distance: f64,
    ) -> Result<(), RuleViolation> {
        self.idle()?;
        if !distance.is_finite() || distance < 0.0 {
            return Err(SetupError::BadLength {
                what: "transfer distance",
                value: distance,
            }
            .into());
        }
        let c = self.company(commander)?;
        let r = self.company(to)?;
        let why = if distance > crate::command::COMMAND_RANGE {
            Some("the receiving unit must be within 6 inches")
        } else if c.transfers >= 2 {
            Some("a commander transfers at most two actions a turn")
        } else if c.side != r.side || commander == to {
            Some("actions go to another unit of one's own side")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "transfer an action",
                why,
            });
        }
        self.spend(commander, 1, Action::Transfer)?;
        self.company_mut(commander)?.transfers += 1;
        let granted = match self.options.transfer_grants {
            crate::options::TransferGrants::FullActivation => 2,
            crate::options::TransferGrants::SingleAction => 1,
        };
        let r = self.company_mut(to)?;
        r.activated = true;
        r.actions = granted;
        r.done.clear();
        r.moves = 0;
        for f in &mut r.figures {
            f.fired = false;
        }
        Ok(())
    }

    /// Splits `figures` fit troopers off a company (HT-SG2-09, HT-CMD-08, HT-CMD-02): one action of its leader.
    /// As a detached element they act only when the parent's leader spends an action within 6" to activate
    /// them ([`Battle::activate_element`]); as a runner (one figure) he may only move and carry a transferred
    /// action (not an Activate Regiment). Returns the new unit.
    pub fn detach(
        &mut self,
        parent: CompanyId,
        figures: usize,
        runner: bool,
    ) -> Result<CompanyId, RuleViolation> {
        self.idle()?;
        let p = self.company(parent)?;
        let troopers: Vec<usize> = p
            .figures
            .iter()
            .enumerate()
            .filter(|(_, f)| f.condition == Condition::Fit && f.role == Role::Trooper)
            .map(|(i, _)| i)
            .rev()
            .take(figures)
            .collect();
        if figures == 0
            || troopers.len() < figures
            || (runner && figures != 1)
            || p.attached != Attachment::Own
        {
            return Err(RuleViolation::Refused {
                name: p.name.to_string(),
                what: "detach figures",
                why: "it needs that many fit troopers (a runner is one figure), and must be a company in its own right",
            });
        }
        let name = format!(
            "{} {}",
            p.name,
            if runner { "runner" } else { "detachment" }
        );
        self.spend(parent, 1, Action::Detach)?;
        let p = self.company_mut(parent)?;
        let mut moved: Vec<Figure> = Vec::new();
        for &i in &troopers {
            moved.push(p.figures[i]);
        }
        let mut keep = Vec::new();
        for (i, f) in p.figures.iter().enumerate() {
            if !troopers.contains(&i) {
                keep.push(*f);
            }
        }
        p.figures = keep;
        let mut child = p.clone();
        child.name = name.into();
        child.figures = moved;
        child.full_strength = child.figures.len();
        child.attached = if runner {
            Attachment::Runner(parent)
        } else {
            Attachment::Element(parent)
        };
        child.activated = true;
        child.actions = 0;
        child.done.clear();
        let id = CompanyId(u32::try_from(self.companies.len()).unwrap_or(u32::MAX));
        self.companies.push(child);
        Ok(id)
    }

    /// The parent's leader activates its detached element (HT-SG2-09, HT-CMD-08): one action, within 6"
    /// (beyond, a runner must carry the order); the element takes two actions.
    pub fn activate_element(
        &mut self,
        parent: CompanyId,
        element: CompanyId,
        distance: f64,
    ) -> Result<(), RuleViolation> {
        self.idle()?;
        let e = self.company(element)?;
        if e.attached != Attachment::Element(parent)
            || !(distance.is_finite() && (0.0..=crate::command::COMMAND_RANGE).contains(&distance))
        {
            return Err(RuleViolation::Refused {
                name: e.name.to_string(),
                what: "be activated",
                why: "only its parent's leader activates a detached element, within 6 inches",
            });
        }
        self.spend(parent, 1, Action::Transfer)?;
        let e = self.company_mut(element)?;
        e.activated = true;
        e.actions = 2;
        e.done.clear();
        e.moves = 0;
        Ok(())
    }

    /// A detached element or runner back within its parent's integrity rejoins it (HT-SG2-09, HT-CMD-02): a
    /// measured fact; no action is needed.
    pub fn rejoin(&mut self, child: CompanyId) -> Result<(), RuleViolation> {
        self.idle()?;
        let c = self.company(child)?;
        let (Attachment::Element(parent) | Attachment::Runner(parent)) = c.attached else {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "rejoin",
                why: "it is a company in its own right",
            });
        };
        let figures = std::mem::take(&mut self.company_mut(child)?.figures);
        self.company_mut(parent)?.figures.extend(figures);
        self.company_mut(child)?.attached = Attachment::Own;
        Ok(())
    }

    /// What a close-formation cavalry company does with riders unhorsed under fire (HT-FRM-06): reorganise
    /// into skirmish order, make them a detached element (one action), or remove them as if casualties
    /// (no action). Remounting needs spare horses, which are not tracked.
    pub fn unhorsed_riders(
        &mut self,
        id: CompanyId,
        choice: UnhorsedChoice,
    ) -> Result<(), RuleViolation> {
        self.idle()?;
        let c = self.company(id)?;
        let riders: Vec<usize> = c
            .figures
            .iter()
            .enumerate()
            .filter(|(_, f)| f.unhorsed && f.condition == Condition::Fit)
            .map(|(i, _)| i)
            .collect();
        if riders.is_empty() || !c.mounted() {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "deal with unhorsed riders",
                why: "it is not a mounted company with unhorsed riders",
            });
        }
        match choice {
            UnhorsedChoice::Skirmish => self.reorganise(id, Formation::Skirmish),
            UnhorsedChoice::Remove => {
                let c = self.company_mut(id)?;
                for i in riders {
                    c.figures[i].condition = Condition::Dispersed;
                }
                Ok(())
            }
            UnhorsedChoice::Detach => {
                // The riders become the element: mark them troopers at the end of the list, then detach.
                let c = self.company_mut(id)?;
                let (mut on_foot, mut rest): (Vec<Figure>, Vec<Figure>) =
                    c.figures.iter().partition(|f| {
                        f.unhorsed && f.condition == Condition::Fit && f.role == Role::Trooper
                    });
                let n = on_foot.len();
                rest.append(&mut on_foot);
                let before = std::mem::replace(&mut c.figures, rest);
                match self.detach(id, n, false) {
                    Ok(el) => {
                        self.company_mut(el)?.cavalry = Some(false);
                        Ok(())
                    }
                    Err(e) => {
                        self.company_mut(id)?.figures = before;
                        Err(e)
                    }
                }
            }
        }
    }

    /// The shape of the regimental formation activated now (HT-FRM-08, HT-MOV-10): `rows` of figures, the
    /// widest `per_row`; a line if wider than deep and four rows or fewer. Its companies that are still in
    /// close order move by this shape, not their own, for the rest of the activation.
    pub fn regiment_shape(&mut self, rows: u32, per_row: u32) -> Result<Formation, RuleViolation> {
        let Some(reg) = self.regiment.as_mut() else {
            return Err(RuleViolation::OutOfOrder(
                "no regimental formation is activated",
            ));
        };
        let line = crate::command::formation_is_line(rows, per_row);
        reg.2 = Some(line);
        Ok(if line {
            Formation::Line
        } else {
            Formation::Column
        })
    }

    /// The companies of the regimental formation activated now (HT-SEQ-05): they stay in it until their
    /// activation ends, even if disordered on the way.
    #[must_use]
    pub fn regiment_members(&self) -> &[CompanyId] {
        self.regiment.as_ref().map_or(&[], |r| r.1.as_slice())
    }

    /// Observe (HT-SG2-25): a leader's action against a hidden enemy unit at a measured distance; any success
    /// reveals it (flipping the counter shows a unit, so the battle places it at once; a counter that is a
    /// dummy is observed with [`Battle::observe_dummy`]).
    /// A hidden unit is also revealed when it activates, or by a major result of fire at it. Returns the
    /// result.
    ///
    /// Visibility (HT-ENV-02): Hardtack adds no rule, so Stargrunt II's daylight holds — sight is unlimited
    /// unless terrain or smoke blocks it. The battle sets no visibility limit on observing or firing: range
    /// only raises the target's die (closed at D12 here), and what blocks sight is the caller's measurement
    /// (a target within woods, a company in the way). A scenario that limits visibility does so by not
    /// offering the observation or the fire.
    pub fn observe<D: Dice + ?Sized>(
        &mut self,
        observer: CompanyId,
        target: CompanyId,
        distance: f64,
        cover: Cover,
        dice: &mut D,
    ) -> Result<Success, RuleViolation> {
        self.idle()?;
        let o = self.company(observer)?;
        let t = self.company(target)?;
        if !t.hidden || o.side == t.side {
            return Err(RuleViolation::Refused {
                name: o.name.to_string(),
                what: "observe",
                why: "only a hidden enemy unit is observed",
            });
        }
        let look = crate::fire::Observation {
            quality: o.quality.die(),
            target: crate::fire::Observation::target_die(distance, cover, t.in_position)?,
        };
        transact(self, dice, |b, dice| {
            b.spend(observer, 1, Action::Observe)?;
            let r = look.roll(dice);
            if r != Success::Fail {
                b.company_mut(target)?.hidden = false;
            }
            Ok(r)
        })
    }

    /// Deploys a dummy counter for `side` (HT-SG2-25): a side whose units deploy hidden, as face-down
    /// counters, may add dummies among them. Refuses a side with no hidden company, or a step under way.
    pub fn add_dummy(&mut self, side: Side) -> Result<DummyId, RuleViolation> {
        self.idle()?;
        if !self.companies.iter().any(|c| c.side == side && c.hidden) {
            return Err(RuleViolation::Refused {
                name: format!("the {side} side"),
                what: "deploy a dummy counter",
                why: "dummies are deployed among a side's hidden units, and it has none",
            });
        }
        let id = DummyId(u32::try_from(self.dummies.len()).map_err(|_| {
            RuleViolation::OutOfOrder("the battle holds as many dummy counters as it can")
        })?);
        self.dummies.push(Dummy {
            side,
            on_table: true,
        });
        Ok(id)
    }

    /// A dummy counter, on the table or removed.
    pub fn dummy(&self, id: DummyId) -> Result<&Dummy, RuleViolation> {
        self.dummies
            .get(id.0 as usize)
            .ok_or(RuleViolation::UnknownDummy(id))
    }

    /// The dummy counters still on the table, with their ids.
    pub fn dummies(&self) -> impl Iterator<Item = (DummyId, &Dummy)> + '_ {
        self.dummies
            .iter()
            .enumerate()
            .filter(|(_, d)| d.on_table)
            .map(|(i, d)| (DummyId(u32::try_from(i).unwrap_or(u32::MAX)), d))
    }

    /// The dummy `id` if it is on the table and an enemy of `side`; else why not.
    fn enemy_dummy(&self, id: DummyId, side: Side, name: &str) -> Result<(), RuleViolation> {
        let d = self.dummy(id)?;
        if !d.on_table || d.side == side {
            return Err(RuleViolation::Refused {
                name: name.to_string(),
                what: "look at a dummy counter",
                why: "only an enemy counter still on the table can be looked at",
            });
        }
        Ok(())
    }

    /// Observe (HT-SG2-25) a counter that is a dummy: the leader's action and the roll are those of
    /// [`Battle::observe`] (a dummy is never In Position). Any success shows the counter empty — a minor
    /// result flips it, a major one removes dummies — and it is taken off the table. Returns the result.
    pub fn observe_dummy<D: Dice + ?Sized>(
        &mut self,
        observer: CompanyId,
        dummy: DummyId,
        distance: f64,
        cover: Cover,
        dice: &mut D,
    ) -> Result<Success, RuleViolation> {
        self.idle()?;
        let o = self.company(observer)?;
        self.enemy_dummy(dummy, o.side, &o.name)?;
        let look = crate::fire::Observation {
            quality: o.quality.die(),
            target: crate::fire::Observation::target_die(distance, cover, false)?,
        };
        transact(self, dice, |b, dice| {
            b.spend(observer, 1, Action::Observe)?;
            let r = look.roll(dice);
            if r != Success::Fail {
                b.dummies[dummy.0 as usize].on_table = false;
            }
            Ok(r)
        })
    }

    /// An enemy company gains a clear line of sight to a dummy counter in the open (HT-SG2-25): as a hidden
    /// unit would be revealed, the counter is shown empty and taken off the table. The line of sight and
    /// the open ground are the caller's measurement.
    pub fn sight_dummy(&mut self, by: CompanyId, dummy: DummyId) -> Result<(), RuleViolation> {
        self.idle()?;
        let c = self.company(by)?;
        self.enemy_dummy(dummy, c.side, &c.name)?;
        self.dummies[dummy.0 as usize].on_table = false;
        Ok(())
    }

    /// An enemy company gains a clear line of sight to a hidden unit in the open (HT-SG2-25): the unit is
    /// revealed, its figures placed where its counter stood. The line of sight and the open ground are the
    /// caller's measurement. Refuses a unit not hidden, or one of the company's own side.
    pub fn sight_hidden(&mut self, by: CompanyId, target: CompanyId) -> Result<(), RuleViolation> {
        self.idle()?;
        let c = self.company(by)?;
        let t = self.company(target)?;
        if !t.hidden || c.side == t.side {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "sight a hidden unit",
                why: "only a hidden enemy unit is revealed by sight",
            });
        }
        self.company_mut(target)?.hidden = false;
        Ok(())
    }

    /// Activate Regiment (HT-SEQ-03, HT-SEQ-04, HT-FRM-07, HT-SEQ-01; a colonel given a transfer by his
    /// brigadier may activate a second formation, HT-SEQ-06): the colonel spends both actions and every
    /// chosen company — two or more, in line or column, none Broken or Routed, not yet activated, each within
    /// 6" and all foot or all mounted — takes its own two actions.
    pub fn activate_regiment(
        &mut self,
        colonel: CompanyId,
        companies: &[(CompanyId, f64)],
    ) -> Result<(), RuleViolation> {
        self.idle()?;
        let col = self.company(colonel)?;
        let mut members = Vec::new();
        for &(id, distance) in companies {
            let c = self.company(id)?;
            if c.activated || c.side != col.side || id == colonel {
                return Err(RuleViolation::Refused {
                    name: c.name.to_string(),
                    what: "join the regiment's activation",
                    why: "it has already activated, or is not one of the colonel's companies",
                });
            }
            members.push(crate::command::Member {
                close: c.formation.is_close(),
                cl: c.cl,
                distance,
                branch: match c.cavalry {
                    None => crate::command::Branch::Infantry,
                    Some(false) => crate::command::Branch::Dismounted,
                    Some(true) => crate::command::Branch::Mounted,
                },
            });
        }
        if let Err(bar) = crate::command::regimental_formation(&members) {
            return Err(RuleViolation::Refused {
                name: col.name.to_string(),
                what: "activate the regiment",
                why: match bar {
                    crate::command::FormationBar::TooFew => {
                        "a regimental formation needs two or more companies"
                    }
                    crate::command::FormationBar::NotClose => {
                        "every company must be in line or column"
                    }
                    crate::command::FormationBar::Broken => "no company may be Broken or Routed",
                    crate::command::FormationBar::TooFar => {
                        "every company must be within 6 inches of the colonel"
                    }
                    crate::command::FormationBar::Mixed => "mounted cavalry cannot form with foot",
                },
            });
        }
        self.spend(
            colonel,
            Action::ActivateRegiment.cost(),
            Action::ActivateRegiment,
        )?;
        for &(id, _) in companies {
            // each company's own activation, as a company activated alone begins one
            let c = self.company_mut(id)?;
            c.activated = true;
            c.actions = 2;
            c.moves = 0;
            c.prepared = false;
            c.hidden = false;
            c.done.clear();
            for f in &mut c.figures {
                f.fired = false;
            }
        }
        self.regiment = Some((colonel, companies.iter().map(|c| c.0).collect(), None));
        Ok(())
    }

    /// Regroup two depleted companies of one side (HT-SG2-08, HT-OPT-19): `joining`'s fit figures join
    /// `joined`, which must not have activated; the better LV, the quality of the larger, the average level
    /// rounded toward the better, and a full-strength complement of the larger of the originals' and the new
    /// count. The joining company leaves the battle (its casualties stay on its record).
    pub fn regroup(&mut self, joined: CompanyId, joining: CompanyId) -> Result<(), RuleViolation> {
        self.idle()?;
        let a = self.company(joined)?.clone();
        let b = self.company(joining)?.clone();
        if a.side != b.side || joined == joining || a.activated {
            return Err(RuleViolation::Refused {
                name: a.name.to_string(),
                what: "regroup",
                why: "two companies of one side regroup, and the joined one must not have activated",
            });
        }
        let (quality, lv, cl) = crate::advanced::regroup(
            (a.quality, a.lv, a.cl, a.fit()),
            (b.quality, b.lv, b.cl, b.fit()),
        );
        let moved: Vec<Figure> = b
            .figures
            .iter()
            .filter(|f| f.condition == Condition::Fit)
            .map(|f| Figure {
                role: Role::Trooper,
                ..*f
            })
            .collect();
        let fit_after = a.fit() + moved.len();
        let c = self.company_mut(joined)?;
        c.quality = quality;
        c.lv = lv;
        c.cl = cl;
        c.full_strength =
            crate::advanced::merged_full_strength(&[a.full_strength, b.full_strength], fit_after);
        c.figures.extend(moved);
        c.activated = true;
        c.actions = 0;
        let gone = self.company_mut(joining)?;
        for f in &mut gone.figures {
            if f.condition == Condition::Fit {
                f.condition = Condition::Captured;
            }
        }
        gone.activated = true;
        gone.actions = 0;
        Ok(())
    }

    /// Scrounge ammunition with a Reorganise (HT-OPT-09): +2 loads.
    pub fn scrounge(&mut self, id: CompanyId) -> Result<u32, RuleViolation> {
        self.idle()?;
        let c = self.company(id)?;
        if c.loads.is_none() {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "scrounge ammunition",
                why: "ammunition supply is not tracked for it",
            });
        }
        self.spend(id, 1, Action::Reorganise)?;
        let c = self.company_mut(id)?;
        let l = c.loads.unwrap_or(0) + crate::advanced::SCROUNGE_LOADS;
        c.loads = Some(l);
        Ok(l)
    }

    /// Remove panic (HT-SG2-19): both of the leader's actions and a reaction test at TL 0; a failure on a roll
    /// of 1 also costs a level. An independent figure (HT-SG2-26) spends one action, and a roll of 1 takes
    /// him out of play (his figure is gone, as [`Condition::Dispersed`]).
    pub fn remove_panic<D: Dice + ?Sized>(
        &mut self,
        id: CompanyId,
        dice: &mut D,
    ) -> Result<bool, RuleViolation> {
        self.idle()?;
        let c = self.company(id)?;
        if c.panic != Panic::Panicked {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "remove panic",
                why: "it is not panicked",
            });
        }
        let lone = c.lone();
        let cost = if lone { 1 } else { 2 };
        if c.actions < cost {
            return Err(RuleViolation::NoActionLeft {
                name: c.name.to_string(),
            });
        }
        let test = self.reaction(id, crate::morale::reaction::PANIC)?;
        transact(self, dice, |b, dice| {
            let c = b.company_mut(id)?;
            c.actions -= cost;
            let roll = dice.face(test.quality.die());
            let pass = test.passes(roll);
            if pass {
                c.panic = Panic::Immune;
            } else if roll == 1 && lone {
                for f in &mut c.figures {
                    f.condition = Condition::Dispersed;
                }
            } else if roll == 1 {
                c.lose(1);
            }
            Ok(pass)
        })
    }

    /// Treat the wounded with a Reorganise under Quick Combat Resolution (HT-OPT-24, HT-SG2-49): one D6 per
    /// wounded figure, 1–2 dead, 3–5 still wounded, 6 back in the ranks. Returns (dead, wounded, recovered).
    pub fn treat_wounded<D: Dice + ?Sized>(
        &mut self,
        id: CompanyId,
        dice: &mut D,
    ) -> Result<(u8, u8, u8), RuleViolation> {
        self.idle()?;
        if !self.options.quick_combat_resolution {
            let c = self.company(id)?;
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "treat its wounded",
                why: "wounded are treated in battle only under Quick Combat Resolution",
            });
        }
        transact(self, dice, |b, dice| {
            b.spend(id, 1, Action::Reorganise)?;
            let c = b.company_mut(id)?;
            let mut out = (0, 0, 0);
            for f in &mut c.figures {
                if f.condition != Condition::Wounded {
                    continue;
                }
                match crate::casualties::Treatment::judge(dice.face(Die::D6)) {
                    crate::casualties::Treated::Dead => {
                        f.condition = Condition::Dead;
                        out.0 += 1;
                    }
                    crate::casualties::Treated::Wounded => out.1 += 1,
                    crate::casualties::Treated::Recovered => {
                        f.condition = Condition::Fit;
                        out.2 += 1;
                    }
                }
            }
            Ok(out)
        })
    }

    fn check_firer(&self, firer: CompanyId, target: CompanyId) -> Result<(), RuleViolation> {
        let f = self.company(firer)?;
        let t = self.company(target)?;
        if f.side == t.side {
            return Err(RuleViolation::SameSide {
                firer: f.name.to_string(),
                target: t.name.to_string(),
            });
        }
        let why = if f.cl == ConfidenceLevel::Routed {
            Some("a Routed company never fires")
        } else if f.cl == ConfidenceLevel::Broken && !f.fired_on_by.contains(&target) {
            Some("a Broken company fires only at a unit that fired on it")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(RuleViolation::CannotFire {
                name: f.name.to_string(),
                why,
            });
        }
        if f.actions == 0 {
            return Err(RuleViolation::NoActionLeft {
                name: f.name.to_string(),
            });
        }
        Ok(())
    }

    /// Small-arms fire (HT-FIR-01, the complete procedure): the firing figures (fit, no Reload marker, not
    /// horse holders; close-range weapons only in the first band, HT-FIR-02, HT-FIR-14); the range die
    /// (HT-FIR-03..07, mounted firers HT-FIR-12); the firer's dice (HT-FIR-08..10, First Volley HT-OPT-12);
    /// the roll and potential casualties (HT-FIR-16, HT-FIR-17); allocation over the target and any enemy
    /// skirmishers fired through that are not In Position (HT-FIR-19, HT-FIR-23), and the horse figures of a
    /// limbered gun's team when the target is its crew (HT-ART-22: a horse rolls its D4 armour and, if hit,
    /// its state; one killed between its unit's moves stops the unit); impact against armour
    /// (HT-FIR-18), or every potential casualty wounded under Quick Combat Resolution (HT-OPT-22); one
    /// confidence test per company (HT-MOR-02, HT-MOR-05; the skirmishers only if hit); a Green target's
    /// first panic test (HT-SG2-19); a new leader's LV (HT-SG2-20); then Reload markers (HT-FIR-20), loads
    /// spent (HT-OPT-08) and the First Volley gone (HT-OPT-14). Modern and future weapons (HT-OPT-29, HT-OPT-30, HT-OPT-31,
    /// HT-OPT-32)
    /// use their own firepower and impact, never reload nor lose firepower in skirmish order, add to the
    /// target's test, and put a suppression marker on skirmishers. Under stand-based fire (HT-OPT-33) every
    /// stand of ten firing figures rolls its own fire with its own firepower die, and the hits of all of them
    /// fall on the target as one fire ([`crate::fire::StandFire`]). One action.
    ///
    /// Roll order: range die, quality, firepower, remainder; per hit allocation, armour, impact; then each
    /// company's test (target first), its panic test and its new-leader roll.
    pub fn fire<D: Dice + ?Sized>(
        &mut self,
        firer: CompanyId,
        target: CompanyId,
        facts: FireFacts,
        dice: &mut D,
    ) -> Result<FireReport, RuleViolation> {
        self.idle()?;
        self.fire_inner(firer, Aim::Company(target), facts, false, dice)
    }

    /// Keeps a fire's impact dice for their chance ([`RollMade::Casualties`]) when `hits` fell on a pool of
    /// figures on foot of one armour with no horse in it, the pool's fates as `killed` and `wounds` by slot.
    fn record_casualties(
        &mut self,
        hits: u8,
        ctx: &FireContext,
        pool: &[(CompanyId, usize)],
        no_horses: bool,
        killed: &[bool],
        wounds: &[u8],
    ) -> Result<(), RuleViolation> {
        let Some(&(first, _)) = pool.first() else {
            return Ok(());
        };
        let armour = self.company(first)?.armour;
        let mut one_kind = no_horses && hits > 0;
        for &(cid, _) in pool {
            let c = self.company(cid)?;
            one_kind &= c.armour == armour && !c.mounted();
        }
        let Ok(n) = u8::try_from(pool.len()) else {
            return Ok(());
        };
        if !one_kind {
            return Ok(());
        }
        let side = self.company(first)?.side.enemy();
        let dead = (0..pool.len())
            .filter(|&s| killed[s] || wounds[s] >= 2)
            .count();
        let hurt = (0..pool.len())
            .filter(|&s| !killed[s] && wounds[s] == 1)
            .count();
        let impact = (!self.options.quick_combat_resolution).then_some(Impact {
            impact: ctx.impact,
            armour: armour.die(),
            armour_shift: ctx.armour_shift,
            kill: self.options.kill_threshold,
        });
        self.tests_rolled.2.push(RollMade::Casualties {
            side,
            pool: n,
            hits,
            impact,
            wounded: u8::try_from(hurt).unwrap_or(u8::MAX),
            killed: u8::try_from(dead).unwrap_or(u8::MAX),
        });
        Ok(())
    }

    /// Small-arms fire at an unlimbered gun's detached team (HT-ART-22), as [`Battle::fire`] at a company
    /// (the firing figures, the range die — the team is never In Position or in close formation, and
    /// `facts.lone_figure` is the caller's —, the firer's dice and the roll), with the team's sound horse
    /// figures as the allocation pool: each hit horse rolls D4 armour against the impact and, if struck,
    /// its state (dead or wounded, it stays in the team until a Reorganise cuts it loose). The crew does not
    /// test. Refuses a limbered gun (fire at its crew reaches its team), a team with no sound horse, fire
    /// through skirmishers, a team beyond the reach of the firer's small arms, and every refusal of
    /// [`Battle::fire`]; a refusal changes nothing.
    pub fn fire_at_team<D: Dice + ?Sized>(
        &mut self,
        firer: CompanyId,
        gun: GunId,
        facts: FireFacts,
        dice: &mut D,
    ) -> Result<FireReport, RuleViolation> {
        self.idle()?;
        self.fire_inner(firer, Aim::Team(gun), facts, false, dice)
    }

    /// Speculative fire at a counter that is a dummy (HT-SG2-25), as [`Battle::fire`] at a hidden company
    /// (the firer's action, Reload markers and the roll): a major result shows the counter empty and it is
    /// taken off the table; no one tests. Refuses a dummy of the firer's side or already removed, a Broken or
    /// Routed firer, fire through skirmishers, a counter beyond the reach of the firer's small arms, and
    /// every refusal of [`Battle::fire`]; a refusal changes nothing.
    pub fn fire_at_dummy<D: Dice + ?Sized>(
        &mut self,
        firer: CompanyId,
        dummy: DummyId,
        facts: FireFacts,
        dice: &mut D,
    ) -> Result<FireReport, RuleViolation> {
        self.idle()?;
        self.fire_inner(firer, Aim::Dummy(dummy), facts, false, dice)
    }

    /// Prepared Fire (HT-OPT-20): both actions; the company holds a marker until its next activation.
    pub fn prepare(&mut self, id: CompanyId) -> Result<(), RuleViolation> {
        self.idle()?;
        let c = self.company(id)?;
        if !self.options.prepared_fire {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "take Prepared Fire",
                why: "Prepared Fire is an advanced rule that is not in use",
            });
        }
        self.spend(id, Action::PreparedFire.cost(), Action::PreparedFire)?;
        self.company_mut(id)?.prepared = true;
        Ok(())
    }

    /// Spends a Prepared Fire marker (HT-OPT-21, HT-ACC-12): when an enemy unit acts in sight, the prepared
    /// company fires at it at once — even though it has activated — with the range die one type up; the
    /// marker is gone.
    pub fn prepared_fire<D: Dice + ?Sized>(
        &mut self,
        firer: CompanyId,
        target: CompanyId,
        facts: FireFacts,
        dice: &mut D,
    ) -> Result<FireReport, RuleViolation> {
        self.idle()?;
        let c = self.company(firer)?;
        if !c.prepared {
            return Err(RuleViolation::CannotFire {
                name: c.name.to_string(),
                why: "it holds no Prepared Fire marker",
            });
        }
        let mut next = self.clone();
        let fc = next.company_mut(firer)?;
        fc.prepared = false;
        let kept = fc.actions;
        fc.actions = 1;
        let report = next.fire_inner(firer, Aim::Company(target), facts, true, dice)?;
        next.company_mut(firer)?.actions = kept;
        *self = next;
        Ok(report)
    }

    /// Reaction fire (HT-SG2-47): an unactivated company fires at an enemy that is moving with both its
    /// actions, between the two moves; it spends its whole activation.
    pub fn reaction_fire<D: Dice + ?Sized>(
        &mut self,
        firer: CompanyId,
        target: CompanyId,
        facts: FireFacts,
        dice: &mut D,
    ) -> Result<FireReport, RuleViolation> {
        self.idle()?;
        let c = self.company(firer)?;
        let t = self.company(target)?;
        if c.activated || t.moves != 1 || t.actions != 1 {
            return Err(RuleViolation::CannotFire {
                name: c.name.to_string(),
                why: "reaction fire takes an unactivated company, against a unit between its two moves",
            });
        }
        let mut next = self.clone();
        let fc = next.company_mut(firer)?;
        fc.activated = true;
        fc.actions = 1;
        let report = next.fire_inner(firer, Aim::Company(target), facts, false, dice)?;
        next.company_mut(firer)?.actions = 0;
        *self = next;
        Ok(report)
    }

    fn fire_inner<D: Dice + ?Sized>(
        &mut self,
        firer: CompanyId,
        aim: Aim,
        facts: FireFacts,
        prepared: bool,
        dice: &mut D,
    ) -> Result<FireReport, RuleViolation> {
        let options = self.options;
        let scale = self.scale;
        let f = self.company(firer)?;
        let mut rf = RangeFacts::at(facts.distance, f.quality.band_inches());
        rf.smoothbore = f.weapon.smoothbore && f.modern.is_none();
        rf.cover = facts.cover;
        rf.lone_figure = facts.lone_figure;
        rf.mounted_firers = f.mounted();
        rf.prepared = prepared;
        // The target: a company, an unlimbered gun's detached team (HT-ART-22: its horse figures are the
        // pool; its crew's side; never In Position, in close formation or travelling), or a dummy counter
        // (HT-SG2-25: speculative fire).
        let (target, pool_size) = match aim {
            Aim::Company(target) => {
                self.check_firer(firer, target)?;
                let t = self.company(target)?;
                rf.in_position = t.in_position;
                rf.lone_figure |= t.lone();
                rf.close_formation_target = t.formation.is_close();
                rf.travel_mode = t.travel;
                (Some(target), t.fit())
            }
            Aim::Team(g) => {
                let gun = self.gun(g)?;
                if gun.limbered || gun.sound_horses() == 0 || facts.through.is_some() {
                    return Err(RuleViolation::CannotFire {
                        name: f.name.to_string(),
                        why: "only an unlimbered gun's detached team with a sound horse can be aimed at, \
                              and never through skirmishers",
                    });
                }
                let crew = gun.crew;
                let horses = usize::from(gun.sound_horses());
                self.check_firer(firer, crew)?;
                (None, horses)
            }
            Aim::Dummy(id) => {
                self.enemy_dummy(id, f.side, &f.name)?;
                if f.cl >= ConfidenceLevel::Broken || f.actions == 0 || facts.through.is_some() {
                    return Err(RuleViolation::CannotFire {
                        name: f.name.to_string(),
                        why: "a Broken or Routed company, or one with no action left, does not fire at \
                              an empty counter, and fire at a counter never goes through skirmishers",
                    });
                }
                (None, 1)
            }
        };
        let band = rf.band_number()?;
        let blocked = if facts.within_woods {
            Some("a unit within woods cannot be fired on")
        } else if facts.arc_blocked && f.formation.is_close() {
            Some("not every figure of a line or column can fire at the target through its front")
        } else if let Some((between, touching_behind)) = facts.friendly_between {
            let other = self.company(between)?;
            (other.side == f.side && other.formation.is_close() && !touching_behind)
                .then_some("a friendly line or column blocks the fire")
        } else {
            None
        };
        if let Some(why) = blocked {
            return Err(RuleViolation::CannotFire {
                name: f.name.to_string(),
                why,
            });
        }
        let close_only = f.modern.is_none() && f.weapon.arm.close_range_only();
        let shooters: Vec<usize> = f
            .figures
            .iter()
            .enumerate()
            .filter(|(_, x)| {
                x.condition == Condition::Fit
                    && !x.reload
                    && !x.fired
                    && !matches!(x.role, Role::HorseHolder | Role::ColourBearer)
            })
            .filter(|_| !(close_only && band > 1))
            .map(|(i, _)| i)
            .collect();
        if shooters.is_empty() {
            return Err(RuleViolation::CannotFire {
                name: f.name.to_string(),
                why: "no figure is able to fire (all down, all to reload, or out of weapon range)",
            });
        }
        let spend_loads = crate::advanced::loads_per_fire(f.weapon.repeater);
        if let Some(l) = f.loads
            && l < spend_loads
        {
            return Err(RuleViolation::CannotFire {
                name: f.name.to_string(),
                why: "it is out of ammunition",
            });
        }
        let through = match (facts.through, target) {
            (Some(s), Some(target)) => {
                let sk = self.company(s)?;
                if sk.side != self.company(target)?.side || sk.formation.is_close() {
                    return Err(RuleViolation::CannotFire {
                        name: f.name.to_string(),
                        why: "only enemy skirmishers can be fired through",
                    });
                }
                Some(s)
            }
            _ => None,
        };
        let range = range_die(&rf, FireKind::SmallArms, false, &options)?;
        if target.is_none() && range == RangeDie::OutOfReach {
            return Err(RuleViolation::CannotFire {
                name: f.name.to_string(),
                why: "the target is beyond the reach of its small arms",
            });
        }
        let modern = f.modern;
        let first_volley = options.first_volley
            && modern.is_none()
            && f.first_volley
            && f.cl <= ConfidenceLevel::Steady;
        let per_figure = modern.map_or(f.weapon.half_fp(), |m| m.half_fp(scale));
        let half_fp = u32::try_from(shooters.len()).unwrap_or(u32::MAX) * per_figure;
        let needs_reload = modern.is_none() && f.weapon.needs_reload();
        let impact = modern.map_or(f.weapon.arm.impact(), |m| m.impact);
        let quality = f.quality.die();
        let skirmish = !f.formation.is_close() && modern.is_none();
        let gatlings = usize::from(f.gatlings.min(2));
        transact(self, dice, |b, dice| {
            b.spend(firer, 1, Action::Fire)?;
            {
                let fc = b.company_mut(firer)?;
                for &i in &shooters {
                    fc.figures[i].fired = true;
                    fc.figures[i].reload |= needs_reload;
                }
                fc.first_volley = false;
                if let Some(l) = fc.loads.as_mut() {
                    *l -= spend_loads;
                }
            }
            let firer_name = b.company(firer)?.name.to_string();
            let (die, spill) = match range {
                RangeDie::OutOfReach => {
                    return Ok(FireReport {
                        firer: firer_name,
                        range: None,
                        roll: None,
                        effect: FireEffect {
                            success: Success::Fail,
                            potential: 0,
                        },
                        companies: Vec::new(),
                    });
                }
                RangeDie::Die { die, spill } => (die, spill),
            };
            let range_base = die;
            let pair = firer_dice(
                &FirepowerFacts {
                    quality,
                    half_fp,
                    skirmish,
                    first_volley,
                    spill,
                },
                &options,
            )?;
            let die = if pair.range_down {
                die.shift_closed(-1)
            } else {
                die
            };
            // Gatling guns add a D8 each (HT-FIR-15, HT-SG2-34); hits use the small arm's impact.
            let mut all = vec![pair.quality, pair.firepower];
            all.extend(std::iter::repeat_n(DieType::D8, gatlings));
            let fd = FireDice {
                firer: crate::fire::FirerDice::new(&all)?,
                range: die,
            };
            // Stand-based fire (HT-OPT-33): every stand of ten firing figures rolls its own fire with its
            // own firepower die (the Gatlings with the first stand); the hits fall together.
            let stands = if options.stand_based_fire {
                let mut stands = Vec::new();
                for (k, stand) in shooters.chunks(crate::fire::STAND_FIGURES).enumerate() {
                    let pair = firer_dice(
                        &FirepowerFacts {
                            quality,
                            half_fp: u32::try_from(stand.len()).unwrap_or(u32::MAX) * per_figure,
                            skirmish,
                            first_volley,
                            spill,
                        },
                        &options,
                    )?;
                    let mut all = vec![pair.quality, pair.firepower];
                    if k == 0 {
                        all.extend(std::iter::repeat_n(DieType::D8, gatlings));
                    }
                    stands.push(FireDice {
                        firer: crate::fire::FirerDice::new(&all)?,
                        range: if pair.range_down {
                            range_base.shift_closed(-1)
                        } else {
                            range_base
                        },
                    });
                }
                Some(stands)
            } else {
                None
            };
            let ctx = FireContext {
                impact,
                armour_shift: facts
                    .cover
                    .armour_shift(options.fortification_armour, false),
                kind: FiredOn::SmallArms,
                first_volley,
                enfilade: facts.enfilade,
                modern,
            };
            let mut roll = FireRoll::Dice(fd);
            let effect = match stands {
                Some(stands) => {
                    let armour = match target {
                        Some(t) => b.company(t)?.armour.die(),
                        None => DieType::D4,
                    };
                    let impact = Impact {
                        impact: ctx.impact,
                        armour,
                        armour_shift: ctx.armour_shift,
                        kill: options.kill_threshold,
                    };
                    let pool = pool_size.clamp(1, crate::fire::MAX_POOL);
                    let fire = crate::fire::StandFire::new(&stands, impact, pool)?;
                    roll = FireRoll::Stands(fire);
                    fire.roll_effect(dice)
                }
                None => fd.roll_effect(dice),
            };
            let (effect, companies) = match aim {
                Aim::Company(target) => {
                    let out = b.apply_effect(effect, &ctx, target, through, dice)?;
                    let t = b.company_mut(target)?;
                    if !t.fired_on_by.contains(&firer) {
                        t.fired_on_by.push(firer);
                    }
                    out
                }
                Aim::Team(g) => (effect, vec![b.team_fire(effect, &ctx, g, dice)?]),
                Aim::Dummy(id) => {
                    // Speculative fire at a counter that is a dummy (HT-SG2-25): a major result shows it
                    // empty and it is taken off the table; no one tests.
                    if effect.success == Success::Major {
                        b.dummies[id.0 as usize].on_table = false;
                    }
                    (effect, Vec::new())
                }
            };
            Ok(FireReport {
                firer: firer_name,
                range: Some(die),
                roll: Some(roll),
                effect,
                companies,
            })
        })
    }

    /// A sharpshooter fires (HT-FIR-24, HT-SG2-27): a company of one fit figure with no Reload marker; band
    /// twice his quality's; the range die as for small arms (cover, In Position, a lone target +1); his
    /// quality die and a D8. None beating it: the target tests as fired on; one: a random fit figure is hit;
    /// two: the figure `chosen` (a random one if none is named or it is down). The hit rolls D8 impact against
    /// armour; the target tests; he then carries a Reload marker. Returns the report and whether a natural 1
    /// revealed him.
    pub fn sharpshoot<D: Dice + ?Sized>(
        &mut self,
        shooter: CompanyId,
        target: CompanyId,
        facts: FireFacts,
        chosen: Option<usize>,
        dice: &mut D,
    ) -> Result<(FireReport, bool), RuleViolation> {
        self.idle()?;
        self.check_firer(shooter, target)?;
        let s = self.company(shooter)?;
        let t = self.company(target)?;
        if s.fit() != 1 || s.needs_reload() {
            return Err(RuleViolation::CannotFire {
                name: s.name.to_string(),
                why: "a sharpshooter is a single figure, and must reload after each shot",
            });
        }
        let mut rf = RangeFacts::at(facts.distance, 2.0 * s.quality.band_inches());
        rf.cover = facts.cover;
        rf.in_position = t.in_position;
        rf.lone_figure = facts.lone_figure || t.lone();
        rf.travel_mode = t.travel;
        let range = range_die(&rf, FireKind::SmallArms, false, &self.options)?;
        let quality = s.quality.die();
        let options = self.options;
        let name = s.name.to_string();
        let shift = facts
            .cover
            .armour_shift(options.fortification_armour, false);
        transact(self, dice, |b, dice| {
            b.spend(shooter, 1, Action::Fire)?;
            for f in &mut b.company_mut(shooter)?.figures {
                if f.condition == Condition::Fit {
                    f.reload = true;
                }
            }
            let RangeDie::Die { die, .. } = range else {
                let effect = FireEffect {
                    success: Success::Fail,
                    potential: 0,
                };
                let report = FireReport {
                    firer: name,
                    range: None,
                    roll: None,
                    effect,
                    companies: Vec::new(),
                };
                return Ok((report, false));
            };
            let shot = crate::fire::Sharpshot {
                quality,
                range: die,
            }
            .roll(dice);
            let fit: Vec<usize> = b
                .company(target)?
                .figures
                .iter()
                .enumerate()
                .filter(|(_, f)| f.condition == Condition::Fit)
                .map(|(i, _)| i)
                .collect();
            let victim = match shot.successes {
                0 => None,
                2 if chosen.is_some_and(|c| fit.contains(&c)) => chosen,
                _ if fit.is_empty() => None,
                _ => Some(fit[allocate(fit.len(), dice)]),
            };
            let effect = FireEffect {
                success: Success::from_count(u32::from(shot.successes)),
                potential: u8::from(victim.is_some()),
            };
            let (mut w, mut k, mut leader) = (0, 0, false);
            if let Some(v) = victim {
                let c = b.company(target)?;
                let hit = Impact {
                    impact: crate::tables::SHARPSHOOTER_DIE,
                    armour: c.armour.die(),
                    armour_shift: shift,
                    kill: options.kill_threshold,
                }
                .roll(dice);
                let c = b.company_mut(target)?;
                match hit {
                    HitResult::Killed => {
                        k = 1;
                        c.figures[v].condition = Condition::Dead;
                    }
                    HitResult::Wounded => {
                        w = 1;
                        c.figures[v].condition = Condition::Wounded;
                    }
                    HitResult::NoEffect => {}
                }
                leader = hit != HitResult::NoEffect && c.figures[v].role == Role::Leader;
            }
            let event = TestEvent {
                fired_on: Some(FiredOn::SmallArms),
                casualties: w + k,
                leader_casualty: leader,
                ..TestEvent::default()
            };
            let test = b.test(target, event, dice)?;
            let new_lv = if leader {
                b.new_leader(target, dice)?
            } else {
                None
            };
            let companies = vec![CompanyEffect {
                horses_down: 0,
                name: b.company(target)?.name.to_string(),
                wounded: w,
                killed: k,
                leader_fell: leader,
                test,
                new_lv,
            }];
            let report = FireReport {
                firer: name,
                range: Some(die),
                roll: None,
                effect,
                companies,
            };
            Ok((report, shot.revealed))
        })
    }

    /// Rolls a fire against a target (and skirmishers fired through), applies casualties and the tests.
    /// Casualties leave gaps but never break a close formation (HT-FRM-11).
    fn apply_fire<D: Dice + ?Sized>(
        &mut self,
        fd: &FireDice,
        ctx: &FireContext,
        target: CompanyId,
        through: Option<CompanyId>,
        dice: &mut D,
    ) -> Result<(FireEffect, Vec<CompanyEffect>), RuleViolation> {
        let effect = fd.roll_effect(dice);
        self.apply_effect(effect, ctx, target, through, dice)
    }

    /// Small-arms fire at an unlimbered gun's detached team (HT-ART-22): its sound horse figures are the
    /// allocation pool; each hit horse rolls its D4 armour against the impact (every hit wounds under Quick
    /// Combat Resolution) and, if struck, its state; a dead or wounded horse stays in the team until a
    /// Reorganise cuts it loose. No men are hit, so no one tests.
    fn team_fire<D: Dice + ?Sized>(
        &mut self,
        effect: FireEffect,
        ctx: &FireContext,
        g: GunId,
        dice: &mut D,
    ) -> Result<CompanyEffect, RuleViolation> {
        let horses = usize::from(self.gun(g)?.sound_horses());
        let mut down = vec![false; horses];
        if horses > 0 {
            for _ in 0..effect.potential {
                let h = allocate(horses, dice);
                if down[h] {
                    continue;
                }
                let state = if self.options.quick_combat_resolution {
                    HorseState::Wounded
                } else {
                    self.team_horse(ctx.impact, ctx.armour_shift, dice)
                };
                down[h] = state != HorseState::Okay;
            }
        }
        let n = down.iter().filter(|&&d| d).count();
        let gun = &mut self.guns[g.0 as usize];
        gun.hurt_horses = (gun.hurt_horses + u8::try_from(n).unwrap_or(u8::MAX)).min(gun.horses);
        Ok(CompanyEffect {
            name: format!("the team of {}", gun.name),
            wounded: 0,
            killed: 0,
            leader_fell: false,
            test: None,
            new_lv: None,
            horses_down: u32::try_from(n).unwrap_or(u32::MAX),
        })
    }

    /// Applies a rolled fire result: casualties over the target (and skirmishers fired through), then the
    /// tests.
    fn apply_effect<D: Dice + ?Sized>(
        &mut self,
        effect: FireEffect,
        ctx: &FireContext,
        target: CompanyId,
        through: Option<CompanyId>,
        dice: &mut D,
    ) -> Result<(FireEffect, Vec<CompanyEffect>), RuleViolation> {
        if self.company(target)?.hidden {
            // Speculative fire at a hidden counter (HT-SG2-25): no casualties; a major result reveals it, and
            // it takes the fired-on test.
            let mut out = Vec::new();
            if effect.success == Success::Major {
                self.company_mut(target)?.hidden = false;
                let event = TestEvent {
                    fired_on: Some(FiredOn::Suppression),
                    ..TestEvent::default()
                };
                let test = self.test(target, event, dice)?;
                out.push(CompanyEffect {
                    horses_down: 0,
                    name: self.company(target)?.name.to_string(),
                    wounded: 0,
                    killed: 0,
                    leader_fell: false,
                    test,
                    new_lv: None,
                });
            }
            return Ok((effect, out));
        }
        // The pool: the target's fit figures, then the skirmishers' if not In Position.
        let mut pool: Vec<(CompanyId, usize)> = Vec::new();
        let mut members = vec![target];
        if let Some(s) = through {
            members.push(s);
        }
        for (k, &id) in members.iter().enumerate() {
            let c = self.company(id)?;
            if k > 0 && c.in_position {
                continue;
            }
            for (i, fig) in c.figures.iter().enumerate() {
                if fig.condition == Condition::Fit {
                    pool.push((id, i));
                }
            }
        }
        // A limbered gun's team is one unit with its crew (HT-ART-22): each sound horse figure joins the pool
        // after the men, for small arms and canister alike.
        let mut horses: Vec<(CompanyId, GunId)> = Vec::new();
        for (k, &id) in members.iter().enumerate() {
            if k > 0 && self.company(id)?.in_position {
                continue;
            }
            for (gi, g) in self.guns.iter().enumerate() {
                if g.crew == id && g.limbered && !g.abandoned {
                    let gid = GunId(u32::try_from(gi).unwrap_or(u32::MAX));
                    horses.extend(std::iter::repeat_n(
                        (id, gid),
                        usize::from(g.sound_horses()),
                    ));
                }
            }
        }
        let mut horse_down: Vec<Option<HorseState>> = vec![None; horses.len()];
        let mut wounds = vec![0u8; pool.len()];
        let mut killed = vec![false; pool.len()];
        let mut unhorsed = vec![false; pool.len()];
        if !pool.is_empty() {
            for _ in 0..effect.potential {
                let slot = allocate(pool.len() + horses.len(), dice);
                if let Some(h) = slot.checked_sub(pool.len()) {
                    if horse_down[h].is_none() {
                        let state = if self.options.quick_combat_resolution {
                            HorseState::Wounded
                        } else {
                            self.team_horse(ctx.impact, ctx.armour_shift, dice)
                        };
                        horse_down[h] = (state != HorseState::Okay).then_some(state);
                    }
                    continue;
                }
                let (cid, fi) = pool[slot];
                let hit = if self.options.quick_combat_resolution {
                    HitResult::Wounded
                } else {
                    Impact {
                        impact: ctx.impact,
                        armour: self.company(cid)?.armour.die(),
                        armour_shift: ctx.armour_shift,
                        kill: self.options.kill_threshold,
                    }
                    .roll(dice)
                };
                let c = self.company(cid)?;
                let rides = c.mounted() && !c.figures[fi].unhorsed && !unhorsed[slot];
                let hit = if rides {
                    self.horse_or_rider(hit, ctx.impact, dice)
                } else {
                    (hit, false)
                };
                unhorsed[slot] |= hit.1;
                match hit.0 {
                    HitResult::Killed => killed[slot] = true,
                    HitResult::Wounded => wounds[slot] += 1,
                    HitResult::NoEffect => {}
                }
            }
            self.record_casualties(
                effect.potential,
                ctx,
                &pool,
                horses.is_empty(),
                &killed,
                &wounds,
            )?;
        }
        let mut out = Vec::new();
        for (k, &id) in members.iter().enumerate() {
            let mut w = 0u32;
            let mut kd = 0u32;
            let mut leader_fell = false;
            {
                let c = self.company_mut(id)?;
                for (slot, &(cid, i)) in pool.iter().enumerate() {
                    if cid != id {
                        continue;
                    }
                    if unhorsed[slot] {
                        c.figures[i].unhorsed = true;
                    }
                    let fate = if killed[slot] || wounds[slot] >= 2 {
                        Condition::Dead
                    } else if wounds[slot] == 1 {
                        Condition::Wounded
                    } else {
                        continue;
                    };
                    if fate == Condition::Dead {
                        kd += 1;
                    } else {
                        w += 1;
                    }
                    if c.figures[i].role == Role::Leader {
                        leader_fell = true;
                    }
                    c.figures[i].condition = fate;
                }
            }
            // Hit horses stay in the team until a Reorganise cuts them loose; a horse killed while its team
            // is moving (reaction or prepared fire between moves) stops the unit (HT-ART-22, HT-MOV-12).
            let mut horses_down = 0u32;
            let mut horse_killed = false;
            for (h, &(cid, g)) in horses.iter().enumerate() {
                if cid != id {
                    continue;
                }
                if let Some(state) = horse_down[h] {
                    let gun = &mut self.guns[g.0 as usize];
                    gun.hurt_horses = (gun.hurt_horses + 1).min(gun.horses);
                    horses_down += 1;
                    horse_killed |= state == HorseState::Dead;
                }
            }
            {
                let c = self.company_mut(id)?;
                if horse_killed && c.moves > 0 && c.actions > 0 {
                    c.actions = 0;
                }
            }
            let casualties = w + kd;
            let canister = ctx.kind == FiredOn::Canister;
            let fired = effect.success != Success::Fail || canister;
            // Fired-through skirmishers test only if hit (HT-FIR-23, HT-ART-18).
            let tests = if k == 0 { fired } else { casualties > 0 };
            if ctx.modern.is_some()
                && k == 0
                && effect.success != Success::Fail
                && !self.company(id)?.formation.is_close()
            {
                let c = self.company_mut(id)?;
                c.suppression = (c.suppression + 1).min(3);
            }
            let event = TestEvent {
                fired_on: if fired { Some(ctx.kind) } else { None },
                casualties,
                leader_casualty: leader_fell,
                first_volley: ctx.first_volley,
                enfilade: ctx.enfilade && k == 0,
                modifier: ctx.modern.map_or(0, |m| m.morale()),
                ..TestEvent::default()
            };
            let test = if tests {
                self.test(id, event, dice)?
            } else {
                None
            };
            if k == 0 && fired {
                self.panic_test(id, dice)?;
            }
            let new_lv = if leader_fell {
                self.new_leader(id, dice)?
            } else {
                None
            };
            out.push(CompanyEffect {
                horses_down,
                name: self.company(id)?.name.to_string(),
                wounded: w,
                killed: kd,
                leader_fell,
                test,
                new_lv,
            });
        }
        Ok((effect, out))
    }

    /// A casualty on a mounted figure (HT-CAS-03, HT-CAS-04, HT-CAS-05, HT-ART-22 for the horse's state):
    /// before it is marked, a D10 — 1–6 the horse, 7–10 the rider. A hit horse rolls its state (D6 1–2 dead,
    /// 3–5 wounded, 6 unhurt; or the impact die again against D4 by option); dead or wounded, the rider is
    /// on foot and unhurt — a leader stays leader. Under `WoundsOnly` a kill kills the rider without the D10.
    /// Returns the result for the rider and whether he lost his horse.
    fn horse_or_rider<D: Dice + ?Sized>(
        &self,
        hit: HitResult,
        impact: DieType,
        dice: &mut D,
    ) -> (HitResult, bool) {
        crate::casualties::rider_hit(hit, impact, &self.options, dice)
    }

    /// A Green company's panic test the first time it is fired on (HT-SG2-19, HT-MOR-08): a reaction test at
    /// TL 0, −1 in close formation; a failure leaves it panicked, a pass makes it immune.
    fn panic_test<D: Dice + ?Sized>(
        &mut self,
        id: CompanyId,
        dice: &mut D,
    ) -> Result<(), RuleViolation> {
        let test = self.reaction(id, crate::morale::reaction::PANIC)?;
        let c = self.company_mut(id)?;
        if c.quality != Quality::Green || c.panic != Panic::Untested || !c.has_fit() {
            return Ok(());
        }
        c.panic = if test.roll(dice) {
            Panic::Immune
        } else {
            Panic::Panicked
        };
        Ok(())
    }

    /// Takes a confidence test for a company, filling in its formation, survivors and losses (HT-MOR-05),
    /// and applies the result (HT-MOR-07). The 50% rule applies at every attack once half the complement is
    /// lost (HT-INT-20); Stargrunt II's untreated-casualty row adds +1 per wounded figure at Low by option
    /// (HT-INT-19, HT-MOR-12).
    fn test<D: Dice + ?Sized>(
        &mut self,
        id: CompanyId,
        mut event: TestEvent,
        dice: &mut D,
    ) -> Result<Option<(i16, Confidence, ConfidenceLevel)>, RuleViolation> {
        let options = self.options;
        event.modifier += self.colours_modifier(id);
        let c = self.company_mut(id)?;
        if options.sgii_untreated_casualty_mod && c.motivation == Motivation::Low {
            event.modifier += i16::try_from(c.wounded()).unwrap_or(i16::MAX);
        }
        event.first_time = event.fired_on.is_some() && !c.fired_on_before;
        if event.fired_on.is_some() {
            c.fired_on_before = true;
        }
        event.survivors = u32::try_from(c.fit()).unwrap_or(u32::MAX);
        event.close_formation = c.formation.is_close();
        event.half_lost = 2 * c.casualties_total() >= c.full_strength;
        let Some(tl) = threat_level(&event, c.motivation, &options) else {
            return Ok(None);
        };
        let test = ConfidenceTest {
            quality: c.quality.die(),
            lv: c.lv,
            tl,
            two_level: options.confidence_two_level,
        };
        let r = test.roll(dice);
        c.lose(r.levels());
        self.tests_rolled.0.push((id, test, r));
        let c = self.company_mut(id)?;
        let cl = c.cl;
        if cl == ConfidenceLevel::Routed {
            // A Routed crew abandons its guns (HT-MOR-07, HT-ART-23).
            for g in &mut self.guns {
                if g.crew == id {
                    g.abandoned = true;
                }
            }
        }
        Ok(Some((tl, r, cl)))
    }

    /// A new leader when the leader falls (HT-SG2-20): the next fit figure, his LV from a D6.
    fn new_leader<D: Dice + ?Sized>(
        &mut self,
        id: CompanyId,
        dice: &mut D,
    ) -> Result<Option<Leadership>, RuleViolation> {
        let c = self.company_mut(id)?;
        if !c.promote() {
            return Ok(None);
        }
        c.lv = ReplacementLeader { old: c.lv }.roll(dice);
        Ok(Some(c.lv))
    }

    /// Canister (HT-ART-14, the complete procedure): one action of a crew with a canister load, which the fire
    /// uses up (HT-ART-03); the gun's
    /// band (HT-ART-15); the range die with the formation shift spilling onto the crew's quality die
    /// (HT-ART-17); quality plus two canister dice; allocation over the target and non-In-Position
    /// skirmishers in front (HT-ART-18), and a limbered gun's team horses with its crew (HT-ART-22); D12 impact; the canister test for the target even on a miss
    /// (HT-ART-20). A hit leaves a blast-through pending (HT-ART-19): call [`Battle::blast_through`] for the
    /// next company on the line, or [`Battle::end_blast`]. Refuses, changing nothing (no action, no load, no
    /// dice), a gun without canister loaded, friends in the way, and a target beyond the canister's reach
    /// (its range die beyond D12).
    pub fn fire_canister<D: Dice + ?Sized>(
        &mut self,
        gun: GunId,
        target: CompanyId,
        facts: CanisterFacts,
        dice: &mut D,
    ) -> Result<FireReport, RuleViolation> {
        self.idle()?;
        let g = self.gun(gun)?;
        if g.loaded != Some(Ammunition::Canister) || g.disabled || g.abandoned {
            return Err(RuleViolation::GunRefused {
                name: g.name.to_string(),
                what: "fire canister",
                why: "it has no canister loaded, or is disabled",
            });
        }
        let crew = g.crew;
        self.gun_ready(gun, facts.off_facing, "fire canister")?;
        self.check_firer(crew, target)?;
        if facts.friendly_between {
            return Err(RuleViolation::GunRefused {
                name: g.name.to_string(),
                what: "fire canister",
                why: "canister is never fired through friendly companies",
            });
        }
        if self.canister_range(gun, target, &facts, 0)? == RangeDie::OutOfReach {
            return Err(RuleViolation::GunRefused {
                name: g.name.to_string(),
                what: "fire canister",
                why: "the target lies beyond the reach of its canister",
            });
        }
        let cost = self.gun_cost(gun)?;
        transact(self, dice, |b, dice| {
            b.spend(crew, cost, Action::Fire)?;
            b.spend_round(gun);
            b.guns[gun.0 as usize].loaded = None;
            b.blast = Some(PendingBlast {
                gun,
                steps_hit: 0,
                damaged: Vec::new(),
            });
            let report = b.canister_step(gun, target, facts, 0, dice)?;
            Ok(report)
        })
    }

    /// Canister at an unlimbered gun's detached team (HT-ART-22, HT-ART-14): the refusals, action, load and
    /// dice of [`Battle::fire_canister`] (the team is never In Position or in close formation; no fire
    /// through skirmishers at it), with the team's sound horse figures as the whole pool: each hit horse
    /// rolls D4 armour against the canister's D12 impact and, if struck, its state. The crew does not test.
    /// A hit (with a horse down, if `blast_requires_casualties`) leaves a blast-through pending as a
    /// company's would; the team counts as a step of the blast but not as a damaged company. Refuses a
    /// limbered gun's team (canister at its crew reaches it), a team with no sound horse, or one beyond the
    /// canister's reach; a refusal changes nothing.
    pub fn fire_canister_at_team<D: Dice + ?Sized>(
        &mut self,
        gun: GunId,
        team: GunId,
        facts: CanisterFacts,
        dice: &mut D,
    ) -> Result<FireReport, RuleViolation> {
        self.idle()?;
        let g = self.gun(gun)?.clone();
        if g.loaded != Some(Ammunition::Canister) || g.disabled || g.abandoned {
            return Err(RuleViolation::GunRefused {
                name: g.name.to_string(),
                what: "fire canister",
                why: "it has no canister loaded, or is disabled",
            });
        }
        self.gun_ready(gun, facts.off_facing, "fire canister")?;
        self.check_firer(g.crew, self.gun(team)?.crew)?;
        let (range, ctx) =
            self.team_canister_range(&g, team, &facts, 0, "fire canister at that team")?;
        let RangeDie::Die { die, spill } = range else {
            return Err(RuleViolation::GunRefused {
                name: g.name.to_string(),
                what: "fire canister at that team",
                why: "the team is beyond the reach of its canister",
            });
        };
        let cost = self.gun_cost(gun)?;
        transact(self, dice, |b, dice| {
            b.spend(g.crew, cost, Action::Fire)?;
            b.spend_round(gun);
            b.guns[gun.0 as usize].loaded = None;
            b.team_canister(gun, team, die, spill, &ctx, dice)
        })
    }

    /// Carries a pending canister blast on to an unlimbered gun's detached team lying on the blast line
    /// behind the last target (HT-ART-19 with HT-ART-22, HT-ART-16): the team's own range die (its distance
    /// and cover; never In Position or in close formation) shifted up one per blast step that hit (or per
    /// damaged company, under `blast_through_count = EveryDamagedCompany`), beyond D12 the blast stops;
    /// every firer die is rolled again, and the team's sound horse figures are the whole pool, as
    /// [`Battle::fire_canister_at_team`]: each hit horse rolls D4 armour against the D12 impact and, if
    /// struck, its state; the crew is not hit and does not test. A hit (with a horse down, if
    /// `blast_requires_casualties`) carries the blast on, the team counting as a step but not as a damaged
    /// company. Refuses with no blast pending, a team of the gun's own side, a limbered gun's team (a blast
    /// reaches it through its crew, [`Battle::blast_through`]), a team with no sound horse, skirmishers in
    /// between and friends in the way; a refusal changes nothing and leaves the blast pending.
    pub fn blast_through_team<D: Dice + ?Sized>(
        &mut self,
        team: GunId,
        facts: CanisterFacts,
        dice: &mut D,
    ) -> Result<FireReport, RuleViolation> {
        let Some(blast) = self.blast.clone() else {
            return Err(RuleViolation::OutOfOrder(
                "no canister blast is waiting to carry through",
            ));
        };
        let g = self.gun(blast.gun)?.clone();
        let (f, t) = (self.company(g.crew)?, self.company(self.gun(team)?.crew)?);
        if f.side == t.side {
            return Err(RuleViolation::SameSide {
                firer: f.name.to_string(),
                target: t.name.to_string(),
            });
        }
        let k = match self.options.blast_through_count {
            BlastThroughCount::PerBlastStep => blast.steps_hit,
            BlastThroughCount::EveryDamagedCompany => {
                u8::try_from(blast.damaged.len()).unwrap_or(u8::MAX)
            }
        };
        let (range, ctx) = self.team_canister_range(
            &g,
            team,
            &facts,
            k,
            "carry the blast through onto that team",
        )?;
        transact(self, dice, |b, dice| {
            let RangeDie::Die { die, spill } = range else {
                // Beyond D12: the blast stops, and the team could not be damaged.
                b.blast = None;
                return Ok(FireReport {
                    firer: g.name.to_string(),
                    range: None,
                    roll: None,
                    effect: FireEffect {
                        success: Success::Fail,
                        potential: 0,
                    },
                    companies: Vec::new(),
                });
            };
            b.team_canister(blast.gun, team, die, spill, &ctx, dice)
        })
    }

    /// Whether canister from `g` can fall on `team` (an unlimbered gun's detached team with a sound horse, no
    /// skirmishers fired through, no friends in the way), and if so the team's range die with `k` steps of
    /// blast-through and what the fire brings (HT-ART-14, HT-ART-19, HT-ART-22).
    fn team_canister_range(
        &self,
        g: &Gun,
        team: GunId,
        facts: &CanisterFacts,
        k: u8,
        what: &'static str,
    ) -> Result<(RangeDie, FireContext), RuleViolation> {
        let options = self.options;
        let t = self.gun(team)?;
        let why = if facts.friendly_between {
            Some("canister is never fired through friendly companies")
        } else if t.limbered || t.sound_horses() == 0 || facts.through.is_some() {
            Some(
                "only an unlimbered gun's detached team with a sound horse can be aimed at, and never \
                 through skirmishers",
            )
        } else {
            None
        };
        if let Some(why) = why {
            return Err(RuleViolation::GunRefused {
                name: g.name.to_string(),
                what,
                why,
            });
        }
        let mut rf = RangeFacts::at(facts.distance, g.piece.canister_band());
        rf.cover = facts.cover;
        rf.blast_through = k;
        let range = range_die(&rf, FireKind::Canister, false, &options)?;
        let ctx = FireContext {
            impact: crate::tables::CANISTER_IMPACT,
            armour_shift: facts
                .cover
                .armour_shift(options.fortification_armour, false),
            kind: FiredOn::Canister,
            first_volley: false,
            enfilade: facts.enfilade,
            modern: None,
        };
        Ok((range, ctx))
    }

    /// Canister from `gun` rolled at `team` (HT-ART-14, HT-ART-22): the crew's quality and the canister
    /// dice against `die`, the team's horses as the pool; a hit (with a horse down, if
    /// `blast_requires_casualties`) leaves the blast pending, one step further on, or ends it.
    fn team_canister<D: Dice + ?Sized>(
        &mut self,
        gun: GunId,
        team: GunId,
        die: DieType,
        spill: Option<crate::fire::Spill>,
        ctx: &FireContext,
        dice: &mut D,
    ) -> Result<FireReport, RuleViolation> {
        let g = self.gun(gun)?.clone();
        let quality = self.company(g.crew)?.quality.die();
        let fd = FireDice {
            firer: canister_dice(quality, g.piece, spill),
            range: die,
        };
        let effect = fd.roll_effect(dice);
        let hurt = self.team_fire(effect, ctx, team, dice)?;
        let carries = effect.success != Success::Fail
            && (hurt.horses_down > 0 || !self.options.blast_requires_casualties);
        if !carries {
            self.blast = None;
        } else if let Some(p) = self.blast.as_mut() {
            p.steps_hit = p.steps_hit.saturating_add(1);
        } else {
            self.blast = Some(PendingBlast {
                gun,
                steps_hit: 1,
                damaged: Vec::new(),
            });
        }
        Ok(FireReport {
            firer: g.name.to_string(),
            range: Some(die),
            roll: Some(FireRoll::Dice(fd)),
            effect,
            companies: vec![hurt],
        })
    }

    /// Continues a canister blast through the next company on the blast line (HT-ART-16, HT-ART-19): its
    /// range die is shifted up one per damaged company in front; beyond D12 the blast stops (and that
    /// company takes no test); every firer die is rolled again.
    pub fn blast_through<D: Dice + ?Sized>(
        &mut self,
        target: CompanyId,
        facts: CanisterFacts,
        dice: &mut D,
    ) -> Result<FireReport, RuleViolation> {
        let Some(blast) = self.blast.clone() else {
            return Err(RuleViolation::OutOfOrder(
                "no canister blast is waiting to carry through",
            ));
        };
        let crew = self.gun(blast.gun)?.crew;
        let (f, t) = (self.company(crew)?, self.company(target)?);
        if f.side == t.side {
            return Err(RuleViolation::SameSide {
                firer: f.name.to_string(),
                target: t.name.to_string(),
            });
        }
        let k = match self.options.blast_through_count {
            BlastThroughCount::PerBlastStep => blast.steps_hit,
            BlastThroughCount::EveryDamagedCompany => {
                u8::try_from(blast.damaged.len()).unwrap_or(u8::MAX)
            }
        };
        transact(self, dice, |b, dice| {
            b.canister_step(blast.gun, target, facts, k, dice)
        })
    }

    /// Ends a pending canister blast: no further company lies on the line.
    pub fn end_blast(&mut self) -> Result<(), RuleViolation> {
        if self.blast.take().is_none() {
            return Err(RuleViolation::OutOfOrder(
                "no canister blast is waiting to carry through",
            ));
        }
        Ok(())
    }

    /// The range die canister from `gun` rolls against `target` after `blast` blast steps (HT-ART-14,
    /// HT-ART-19): the canister band of the piece at the distance, the target's cover, In Position and close
    /// formation, one shift up per blast step. [`RangeDie::OutOfReach`] when the die goes beyond D12.
    fn canister_range(
        &self,
        gun: GunId,
        target: CompanyId,
        facts: &CanisterFacts,
        blast: u8,
    ) -> Result<RangeDie, RuleViolation> {
        let g = self.gun(gun)?;
        let t = self.company(target)?;
        let mut rf = RangeFacts::at(facts.distance, g.piece.canister_band());
        rf.cover = facts.cover;
        rf.in_position = t.in_position;
        rf.blast_through = blast;
        rf.close_formation_target = t.formation.is_close();
        Ok(range_die(&rf, FireKind::Canister, false, &self.options)?)
    }

    fn canister_step<D: Dice + ?Sized>(
        &mut self,
        gun: GunId,
        target: CompanyId,
        facts: CanisterFacts,
        blast: u8,
        dice: &mut D,
    ) -> Result<FireReport, RuleViolation> {
        let options = self.options;
        let g = self.gun(gun)?.clone();
        let crew = self.company(g.crew)?;
        let t = self.company(target)?;
        let through = match facts.through {
            Some(s) if self.company(s)?.formation.is_close() || self.company(s)?.side != t.side => {
                return Err(RuleViolation::GunRefused {
                    name: g.name.to_string(),
                    what: "fire canister through that company",
                    why: "only enemy skirmishers can be fired through",
                });
            }
            other => other,
        };
        let quality = crew.quality.die();
        let name = g.name.to_string();
        let range = self.canister_range(gun, target, &facts, blast)?;
        let RangeDie::Die { die, spill } = range else {
            // Beyond D12: the blast stops; the company could not be damaged and takes no test.
            self.blast = None;
            return Ok(FireReport {
                firer: name,
                range: None,
                roll: None,
                effect: FireEffect {
                    success: Success::Fail,
                    potential: 0,
                },
                companies: Vec::new(),
            });
        };
        let fd = FireDice {
            firer: canister_dice(quality, g.piece, spill),
            range: die,
        };
        let shift = facts
            .cover
            .armour_shift(options.fortification_armour, false);
        let ctx = FireContext {
            impact: crate::tables::CANISTER_IMPACT,
            armour_shift: shift,
            kind: FiredOn::Canister,
            first_volley: false,
            enfilade: facts.enfilade,
            modern: None,
        };
        let (effect, companies) = self.apply_fire(&fd, &ctx, target, through, dice)?;
        let casualties = companies.iter().any(|c| c.wounded + c.killed > 0);
        let carries =
            effect.success != Success::Fail && (casualties || !options.blast_requires_casualties);
        if let Some(b) = self.blast.as_mut()
            && carries
        {
            {
                b.steps_hit = b.steps_hit.saturating_add(1);
                for (i, c) in companies.iter().enumerate() {
                    let id = if i == 0 { Some(target) } else { through };
                    if let Some(id) = id
                        && c.wounded + c.killed > 0
                        && !b.damaged.contains(&id)
                    {
                        b.damaged.push(id);
                    }
                }
            }
        }
        if !carries {
            self.blast = None;
        }
        Ok(FireReport {
            firer: name,
            range: Some(die),
            roll: Some(FireRoll::Dice(fd)),
            effect,
            companies,
        })
    }

    /// Round shot (HT-ART-06, HT-ART-01, HT-SG2-44): one action of a crew with shot loaded; the accuracy
    /// roll (±1 by range under Artillery Shot Ranges, HT-OPT-01) and, on a miss, the D12/D8 deviation. The
    /// ball is then in flight: measure where it landed and call [`Battle::shot_impact`].
    pub fn fire_shot<D: Dice + ?Sized>(
        &mut self,
        gun: GunId,
        range: ShotRange,
        off_facing: f64,
        dice: &mut D,
    ) -> Result<Landing, RuleViolation> {
        self.idle()?;
        let g = self.gun(gun)?;
        if g.loaded != Some(Ammunition::Shot) || g.disabled || g.abandoned {
            return Err(RuleViolation::GunRefused {
                name: g.name.to_string(),
                what: "fire round shot",
                why: "it has no shot loaded, or is disabled",
            });
        }
        let crew = g.crew;
        let c = self.company(crew)?;
        if c.cl == ConfidenceLevel::Routed {
            return Err(RuleViolation::CannotFire {
                name: c.name.to_string(),
                why: "a Routed crew never fires",
            });
        }
        let acc = ShotAccuracy::new(c.quality.die(), c.lv, range, &self.options);
        self.gun_ready(gun, off_facing, "fire round shot")?;
        let cost = self.gun_cost(gun)?;
        transact(self, dice, |b, dice| {
            b.spend(crew, cost, Action::Fire)?;
            b.spend_round(gun);
            b.guns[gun.0 as usize].loaded = None;
            b.shot = Some(PendingShot {
                gun,
                bounces: 0,
                last_bounce: None,
            });
            Ok(acc.roll(dice))
        })
    }

    /// Case or spherical case (HT-OPT-05): one action of a crew with case loaded, at an aim point at least 50"
    /// away; accuracy as round shot (quality against LV, D12 and D8 on a miss). The burst then waits for
    /// [`Battle::case_burst`] with the figures inside it.
    pub fn fire_case<D: Dice + ?Sized>(
        &mut self,
        gun: GunId,
        aim_distance: f64,
        dice: &mut D,
    ) -> Result<Landing, RuleViolation> {
        self.idle()?;
        let g = self.gun(gun)?;
        let kind = match g.loaded {
            Some(k @ (Ammunition::Case | Ammunition::SphericalCase))
                if !g.disabled && !g.abandoned =>
            {
                k
            }
            _ => {
                return Err(RuleViolation::GunRefused {
                    name: g.name.to_string(),
                    what: "fire case",
                    why: "it has no case loaded, or is disabled or abandoned",
                });
            }
        };
        if !aim_distance.is_finite() || aim_distance < crate::advanced::CASE_MINIMUM_RANGE {
            return Err(RuleViolation::GunRefused {
                name: g.name.to_string(),
                what: "fire case",
                why: "the aim point must be at least 50 inches away",
            });
        }
        let crew = g.crew;
        let c = self.company(crew)?;
        let acc = ShotAccuracy::new(c.quality.die(), c.lv, ShotRange::Medium, &self.options);
        self.gun_ready(gun, 0.0, "fire case")?;
        let cost = self.gun_cost(gun)?;
        transact(self, dice, |b, dice| {
            b.spend(crew, cost, Action::Fire)?;
            b.spend_round(gun);
            b.guns[gun.0 as usize].loaded = None;
            b.burst = Some((gun, kind));
            Ok(acc.roll(dice))
        })
    }

    /// The case burst (HT-OPT-06, HT-OPT-07, HT-SG2-45): every figure inside rolls armour (cover between it
    /// and the burst, +1 In Position, open) against the piece's case or spherical case impact die; mounted
    /// figures roll horse or rider; gun models roll D8 armour; every company with a figure inside tests at
    /// 2/1/0 (cavalry 3/2/1) plus casualties. Roll order as for a shot's impact.
    pub fn case_burst<D: Dice + ?Sized>(
        &mut self,
        facts: &BurstFacts,
        dice: &mut D,
    ) -> Result<ShotImpactReport, RuleViolation> {
        let Some((gun, kind)) = self.burst else {
            return Err(RuleViolation::OutOfOrder("no case burst is waiting"));
        };
        for (r, _) in &facts.figures {
            if r.index >= self.company(r.company)?.figures.len() {
                return Err(RuleViolation::UnknownFigure {
                    name: self.company(r.company)?.name.to_string(),
                    index: r.index,
                });
            }
        }
        for g in facts.guns.iter().chain(&facts.horses) {
            self.gun(*g)?;
        }
        let options = self.options;
        let ((_, case_die), (_, spherical_die)) = crate::advanced::case_table(self.gun(gun)?.piece);
        let impact = if kind == Ammunition::Case {
            case_die
        } else {
            spherical_die
        };
        transact(self, dice, |b, dice| {
            b.burst = None;
            let mut hits = AreaHits::default();
            for &(r, cover) in &facts.figures {
                let c = b.company(r.company)?;
                let fig = c.figures[r.index];
                hits.reach(r.company);
                if fig.condition != Condition::Fit {
                    continue;
                }
                let shift = crate::advanced::case_armour_shift(
                    cover.armour_shift(options.fortification_armour, true),
                    c.in_position,
                );
                let result = Impact {
                    impact,
                    armour: c.armour.die(),
                    armour_shift: shift,
                    kill: options.kill_threshold,
                }
                .roll(dice);
                let (result, lost_horse) = if c.mounted() && !fig.unhorsed {
                    b.horse_or_rider(result, impact, dice)
                } else {
                    (result, false)
                };
                let c = b.company_mut(r.company)?;
                c.figures[r.index].unhorsed |= lost_horse;
                let Some(cond) = hits.record(r.company, result, fig.role == Role::Leader) else {
                    continue;
                };
                c.figures[r.index].condition = cond;
            }
            let guns_disabled = b.guns_in_area(&facts.guns, impact, dice);
            b.horses_in_area(&facts.horses, impact, dice);
            let mut companies = Vec::new();
            for (id, w, k, leader) in hits.0 {
                let cavalry = b.company(id)?.cavalry.is_some();
                let event = TestEvent {
                    fired_on: Some(if cavalry {
                        FiredOn::CaseCavalry
                    } else {
                        FiredOn::Case
                    }),
                    casualties: w + k,
                    leader_casualty: leader,
                    ..TestEvent::default()
                };
                let test = b.test(id, event, dice)?;
                let new_lv = if leader {
                    b.new_leader(id, dice)?
                } else {
                    None
                };
                companies.push(CompanyEffect {
                    horses_down: 0,
                    name: b.company(id)?.name.to_string(),
                    wounded: w,
                    killed: k,
                    leader_fell: leader,
                    test,
                    new_lv,
                });
            }
            Ok(ShotImpactReport {
                impact,
                companies,
                guns_disabled,
                bounce: None,
            })
        })
    }

    /// Horse figures of gun teams in a shot's area or a burst (HT-ART-22): each rolls D4 armour against the
    /// impact die, and a hit horse rolls its state (HT-CAS-04); dead or wounded, it stays in the team until a
    /// Reorganise cuts it loose.
    fn horses_in_area<D: Dice + ?Sized>(
        &mut self,
        horses: &[GunId],
        impact: DieType,
        dice: &mut D,
    ) {
        for &g in horses {
            if self.team_horse(impact, 0, dice) != HorseState::Okay {
                let gun = &mut self.guns[g.0 as usize];
                gun.hurt_horses = (gun.hurt_horses + 1).min(gun.horses);
            }
        }
    }

    /// One gun-team horse struck by fire (HT-ART-22): the impact die against the horse's D4 armour (with the
    /// cover's shift); a hit horse rolls its state at once on the D6 table (1–2 dead, 3–5 wounded, 6 unhurt),
    /// or under `horse_status_roll = ImpactVsD4` the impact die rolled again against D4 (HT-CAS-04).
    fn team_horse<D: Dice + ?Sized>(
        &self,
        impact: DieType,
        armour_shift: i16,
        dice: &mut D,
    ) -> HorseState {
        let hit = Impact {
            impact,
            armour: DieType::D4,
            armour_shift,
            kill: self.options.kill_threshold,
        }
        .roll(dice);
        if hit == HitResult::NoEffect {
            return HorseState::Okay;
        }
        crate::casualties::horse_state(impact, &self.options, dice)
    }

    /// Cut a dead or wounded horse from a gun's team with a Reorganise of its crew (HT-ART-22, HT-MOV-12): the
    /// team's movement die drops one type (D10 to D8); with no horses left the gun cannot move until it is
    /// unlimbered.
    pub fn cut_horse_loose(&mut self, gun: GunId) -> Result<(), RuleViolation> {
        self.idle()?;
        let g = self.gun(gun)?;
        if g.hurt_horses == 0 {
            return Err(RuleViolation::GunRefused {
                name: g.name.to_string(),
                what: "cut a horse loose",
                why: "no horse of its team is dead or wounded",
            });
        }
        let crew = g.crew;
        self.spend(crew, 1, Action::Reorganise)?;
        let g = &mut self.guns[gun.0 as usize];
        g.hurt_horses -= 1;
        g.horses -= 1;
        Ok(())
    }

    /// Gun models in a shot's area or a burst (HT-SG2-46, HT-ART-21) roll D8 armour against the impact die; a kill disables the
    /// gun (HT-ART-21). Returns the names of those disabled.
    fn guns_in_area<D: Dice + ?Sized>(
        &mut self,
        guns: &[GunId],
        impact: DieType,
        dice: &mut D,
    ) -> Vec<String> {
        let mut disabled = Vec::new();
        for &g in guns {
            let r = Impact {
                impact,
                armour: GUN_ARMOUR,
                armour_shift: 0,
                kill: self.options.kill_threshold,
            }
            .roll(dice);
            if r == HitResult::Killed {
                let gun = &mut self.guns[g.0 as usize];
                gun.disabled = true;
                gun.loaded = None;
                disabled.push(gun.name.to_string());
            }
        }
        disabled
    }

    /// Resolves the ball at its current impact point (HT-ART-07..12): every figure in the area rolls armour
    /// (shifted by cover, HT-ART-08) against the impact die (D10, one lower per bounce); gun models in the
    /// area roll D8 armour and a kill disables them (HT-ART-21); every company with a figure in the area tests
    /// at 1/0/NTR plus casualties (HT-ART-09); then, if the ground allows, the bounce test (HT-ART-10) and
    /// the bounce's distance and D12/D4 deviation (HT-ART-11), the bounce carrying on along the ball's line of
    /// travel (HT-INT-18). With no bounce the shot is over (HT-ART-12). Where the ball meets a hill, a building
    /// or a wood's edge the caller gives that point as the last impact, with no bounce allowed (HT-ART-13).
    ///
    /// Roll order: per figure armour then impact, per gun armour then impact; each company's test and new
    /// leader; the bounce test; D12 and D4.
    pub fn shot_impact<D: Dice + ?Sized>(
        &mut self,
        facts: &ShotImpactFacts,
        dice: &mut D,
    ) -> Result<ShotImpactReport, RuleViolation> {
        let Some(shot) = self.shot.clone() else {
            return Err(RuleViolation::OutOfOrder("no round shot is in flight"));
        };
        if !facts.gun_distance.is_finite() || facts.gun_distance < 0.0 {
            return Err(SetupError::BadLength {
                what: "gun distance",
                value: facts.gun_distance,
            }
            .into());
        }
        for (r, _, _) in &facts.figures {
            let c = self.company(r.company)?;
            if r.index >= c.figures.len() {
                return Err(RuleViolation::UnknownFigure {
                    name: self.company(r.company)?.name.to_string(),
                    index: r.index,
                });
            }
        }
        for g in facts.guns.iter().chain(&facts.horses) {
            self.gun(*g)?;
        }
        let options = self.options;
        let impact = shot_impact(shot.bounces).unwrap_or(DieType::D4);
        transact(self, dice, |b, dice| {
            let mut hits = AreaHits::default();
            for &(r, cover, woods) in &facts.figures {
                let c = b.company(r.company)?;
                let fig = c.figures[r.index];
                let result = if fig.condition == Condition::Fit {
                    Impact {
                        impact,
                        armour: c.armour.die(),
                        armour_shift: shot_armour_shift(cover, woods, &options),
                        kill: options.kill_threshold,
                    }
                    .roll(dice)
                } else {
                    HitResult::NoEffect
                };
                let (result, lost_horse) = if c.mounted() && !fig.unhorsed {
                    b.horse_or_rider(result, impact, dice)
                } else {
                    (result, false)
                };
                let c = b.company_mut(r.company)?;
                c.figures[r.index].unhorsed |= lost_horse;
                let Some(cond) = hits.record(r.company, result, fig.role == Role::Leader) else {
                    continue;
                };
                c.figures[r.index].condition = cond;
            }
            let disabled = b.guns_in_area(&facts.guns, impact, dice);
            b.horses_in_area(&facts.horses, impact, dice);
            let mut companies = Vec::new();
            for (id, w, k, leader) in hits.0 {
                let event = TestEvent {
                    fired_on: Some(FiredOn::Shot),
                    casualties: w + k,
                    leader_casualty: leader,
                    ..TestEvent::default()
                };
                let test = b.test(id, event, dice)?;
                let new_lv = if leader {
                    b.new_leader(id, dice)?
                } else {
                    None
                };
                companies.push(CompanyEffect {
                    horses_down: 0,
                    name: b.company(id)?.name.to_string(),
                    wounded: w,
                    killed: k,
                    leader_fell: leader,
                    test,
                    new_lv,
                });
            }
            let g = b.gun(shot.gun)?.clone();
            let crew = b.company(g.crew)?;
            let next_k = shot.bounces + 1;
            let test = BounceTest {
                quality: crew.quality.die(),
                lv: crew.lv,
                k: next_k,
                rifled: g.rifled && options.rifled_bounces,
            };
            let bounce =
                if facts.ground_allows_bounce && shot_impact(next_k).is_some() && test.roll(dice) {
                    let d = crate::artillery::bounce_distance(facts.gun_distance, shot.last_bounce);
                    let clock = dice.face(Die::D12) as u8;
                    let inches = dice.face(Die::D4) as u8;
                    Some((d, Landing::Deviated { clock, inches }))
                } else {
                    None
                };
            b.shot = bounce.map(|(d, _)| PendingShot {
                gun: shot.gun,
                bounces: next_k,
                last_bounce: Some(d),
            });
            Ok(ShotImpactReport {
                impact,
                companies,
                guns_disabled: disabled,
                bounce,
            })
        })
    }

    /// A Grand Gesture (HT-OPT-15, HT-OPT-16, HT-INT-12): a colonel (or brigadier) with the advanced rule on,
    /// in sight and in range of an enemy unit — `enemy` is that unit's fire against him, in range if its
    /// range die is D12 or less, without (by default) the lone-figure shift — motivates companies he can see.
    /// For the rest of this activation their rallies and close-assault reaction tests roll one die type up.
    /// Costs no action.
    pub fn grand_gesture(
        &mut self,
        colonel: CompanyId,
        enemy: &RangeFacts,
        companies: &[CompanyId],
    ) -> Result<(), RuleViolation> {
        self.idle()?;
        let c = self.company(colonel)?;
        let refuse = |why| {
            Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "make a Grand Gesture",
                why,
            })
        };
        if !self.options.grand_gesture {
            return refuse("the Grand Gesture is an advanced rule that is not in use");
        }
        let lone = self.options.gg_range_check == crate::options::GgRangeCheck::WithLoneFigureShift;
        if !crate::advanced::gesture_in_range(enemy, lone, &self.options)? {
            return refuse("no enemy unit has him in range");
        }
        for &id in companies {
            if self.company(id)?.side != c.side || id == colonel {
                return refuse("he motivates his own side's companies");
            }
        }
        self.gesture = Some((colonel, companies.to_vec()));
        Ok(())
    }

    /// A quality die raised by a Grand Gesture this activation (HT-OPT-16).
    fn gesture_quality(&self, id: CompanyId, die: DieType) -> DieType {
        match &self.gesture {
            Some((_, list)) if list.contains(&id) => crate::advanced::gesture_die(die),
            _ => die,
        }
    }

    /// The colonel falls (HT-CMD-04, HT-CMD-05, HT-MOR-10): every company of his formation tests as if its own
    /// leader fell (4/3/1, −1 in close formation), and every company that took his Grand Gesture this
    /// activation at +1 more (HT-OPT-17, a confidence test: HT-INT-13); then his successor is the leader of the
    /// best-quality company still Confident, Steady or Shaken (ties at random; any, if all are Broken or
    /// Routed). The successor leaves his company for the command stand `colonel`, which takes his quality and
    /// LV (a fallen colonel's figure stays down there, and the new one stands beside it); his company's next
    /// fit figure leads it, with an LV rolled as for a leader killed (HT-SG2-20) and no test. The stand is
    /// renamed for him: "Acting colonel from Company B, succeeding Colonel Hayes" (after the colonel first
    /// appointed, however many have fallen since). Returns the successor's company.
    pub fn colonel_falls<D: Dice + ?Sized>(
        &mut self,
        colonel: CompanyId,
        companies: &[CompanyId],
        dice: &mut D,
    ) -> Result<CompanyId, RuleViolation> {
        self.idle()?;
        self.company(colonel)?;
        let gestured: Vec<CompanyId> = match &self.gesture {
            Some((c, list)) if *c == colonel => list.clone(),
            _ => Vec::new(),
        };
        if companies.is_empty() {
            return Err(RuleViolation::OutOfOrder(
                "a colonel's fall needs the companies of his formation",
            ));
        }
        for &id in companies {
            self.company(id)?;
        }
        transact(self, dice, |b, dice| {
            let mut testing: Vec<CompanyId> = companies.to_vec();
            let members: Vec<CompanyId> = match &b.regiment {
                Some((c, list, _)) if *c == colonel => list.clone(),
                _ => Vec::new(),
            };
            for m in members {
                if !testing.contains(&m) {
                    testing.push(m);
                }
            }
            testing.extend(gestured.iter().filter(|g| !companies.contains(g)));
            for &id in &testing {
                let event = TestEvent {
                    leader_casualty: true,
                    modifier: if gestured.contains(&id) {
                        crate::advanced::GESTURE_RISK
                    } else {
                        0
                    },
                    ..TestEvent::default()
                };
                b.test(id, event, dice)?;
            }
            b.gesture = None;
            let after: Vec<_> = companies
                .iter()
                .map(|&id| b.company(id).map(|c| (c.quality, c.cl)))
                .collect::<Result<_, _>>()?;
            let pick = crate::command::Successor { companies: &after }.roll(dice);
            let chosen = companies[pick.min(companies.len() - 1)];
            // he leaves his company for the command stand, keeping his quality and LV; the company's next
            // fit figure leads it, its LV rolled as for a leader killed, with no test
            let c = b.company_mut(chosen)?;
            let (quality, lv) = (c.quality, c.lv);
            let from = std::sync::Arc::clone(&c.name);
            if let Some(i) = c
                .figures
                .iter()
                .position(|f| f.role == Role::Leader && f.condition == Condition::Fit)
            {
                c.figures.remove(i);
            }
            c.promote();
            c.lv = ReplacementLeader { old: lv }.roll(dice);
            let stand = b.company_mut(colonel)?;
            stand.quality = quality;
            stand.lv = lv;
            // the stand is his now: named for him and for the colonel first appointed
            let first = stand
                .name
                .strip_prefix(ACTING_COLONEL)
                .and_then(|rest| rest.split_once(SUCCEEDING))
                .map_or(&*stand.name, |(_, first)| first);
            stand.name = format!("{ACTING_COLONEL}{from}{SUCCEEDING}{first}").into();
            let fallen = stand
                .figures
                .iter()
                .position(|f| f.role == Role::Leader)
                .filter(|&i| stand.figures[i].condition != Condition::Fit);
            let stands = stand
                .figures
                .iter()
                .any(|f| f.role == Role::Leader && f.condition == Condition::Fit);
            if let Some(i) = fallen {
                stand.figures[i].role = Role::Trooper;
            }
            if !stands {
                // the fallen colonel lies where he fell; the new one stands at the command stand
                stand.figures.push(Figure {
                    role: Role::Leader,
                    condition: Condition::Fit,
                    reload: false,
                    unhorsed: false,
                    fired: false,
                });
            }
            Ok(chosen)
        })
    }

    /// Rally a whole regimental formation (HT-CMD-07): one action; each company within 6" rolls its own rally.
    /// Returns each company's level afterwards.
    pub fn rally_formation<D: Dice + ?Sized>(
        &mut self,
        rallier: CompanyId,
        companies: &[(CompanyId, f64)],
        dice: &mut D,
    ) -> Result<Vec<ConfidenceLevel>, RuleViolation> {
        self.idle()?;
        let r = self.company(rallier)?;
        for &(id, d) in companies {
            let c = self.company(id)?;
            if !(d.is_finite() && (0.0..=crate::command::COMMAND_RANGE).contains(&d))
                || c.side != r.side
            {
                return Err(RuleViolation::Refused {
                    name: r.name.to_string(),
                    what: "rally the formation",
                    why: "every company must be a friend within 6 inches",
                });
            }
        }
        let lv = r.lv;
        transact(self, dice, |b, dice| {
            b.spend(rallier, 1, Action::Rally)?;
            let mut out = Vec::new();
            for &(id, _) in companies {
                let c = b.company_mut(id)?;
                let pass = crate::morale::Rally {
                    quality: c.quality.die(),
                    lv: c.lv,
                    rallier: lv,
                }
                .roll(dice);
                if pass {
                    c.cl = c.cl.rallied(c.ceiling);
                }
                out.push(c.cl);
            }
            Ok(out)
        })
    }

    /// Remove a suppression marker (HT-SG2-53, revived by HT-OPT-32): one action, quality die above LV.
    pub fn remove_suppression<D: Dice + ?Sized>(
        &mut self,
        id: CompanyId,
        dice: &mut D,
    ) -> Result<bool, RuleViolation> {
        self.idle()?;
        let c = self.company(id)?;
        if c.suppression == 0 {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "remove suppression",
                why: "it carries no suppression marker",
            });
        }
        let test = ReactionTest {
            quality: c.quality.die(),
            lv: c.lv,
            tl: 0,
        };
        transact(self, dice, |b, dice| {
            b.spend(id, 1, Action::RemoveSuppression)?;
            let pass = test.roll(dice);
            if pass {
                b.company_mut(id)?.suppression -= 1;
            }
            Ok(pass)
        })
    }

    /// A Routed company that cannot withdraw without closing on the enemy (HT-SG2-48): it surrenders to an
    /// enemy within 12", otherwise it disperses. Its fit figures are captured or gone.
    pub fn rout_blocked(
        &mut self,
        id: CompanyId,
        enemy_within_12: bool,
    ) -> Result<(), RuleViolation> {
        self.idle()?;
        let c = self.company_mut(id)?;
        if c.cl != ConfidenceLevel::Routed {
            return Err(RuleViolation::Refused {
                name: c.name.to_string(),
                what: "surrender or disperse",
                why: "only a Routed company does",
            });
        }
        let fate = if enemy_within_12 {
            Condition::Captured
        } else {
            Condition::Dispersed
        };
        for f in &mut c.figures {
            if f.condition == Condition::Fit {
                f.condition = fate;
            }
        }
        Ok(())
    }

    /// Follow-through (HT-SG2-43, Stargrunt II's option): after a won assault, the attacker's reaction test at
    /// +1 (defender destroyed) or +2 (it fell back or withdrew); a pass allows an extra combat move.
    pub fn follow_through<D: Dice + ?Sized>(
        &mut self,
        dice: &mut D,
    ) -> Result<bool, RuleViolation> {
        self.idle()?;
        if !self.options.sgii_follow_through {
            return Err(RuleViolation::OutOfOrder(
                "follow-through is an option that is not in use",
            ));
        }
        let Some((attacker, destroyed)) = self.won_assault else {
            return Err(RuleViolation::OutOfOrder("no assault has just been won"));
        };
        let test = self.reaction(attacker, if destroyed { 1 } else { 2 })?;
        transact(self, dice, |b, dice| {
            b.won_assault = None;
            Ok(test.roll(dice))
        })
    }

    /// What a scenario may score (HT-VIC-01): for a side, companies Broken or Routed, figures lost (dead,
    /// wounded, captured, dispersed), guns disabled or abandoned, colours captured from it.
    pub fn tally(&self, side: Side) -> Tally {
        let mine = |c: &&Company| c.side == side;
        Tally {
            broken: self
                .companies
                .iter()
                .filter(mine)
                .filter(|c| c.cl >= ConfidenceLevel::Broken)
                .count(),
            figures_lost: self
                .companies
                .iter()
                .filter(mine)
                .map(|c| c.casualties_total())
                .sum(),
            guns_lost: self
                .guns
                .iter()
                .filter(|g| g.disabled || g.abandoned)
                .filter(|g| {
                    self.company(g.crew)
                        .map(|c| c.side == side)
                        .unwrap_or(false)
                })
                .count(),
            colours_lost: self
                .colours
                .iter()
                .filter(|(reg, st)| {
                    *st == Colours::Captured
                        && self
                            .companies
                            .iter()
                            .any(|c| c.side == side && c.regiment == Some(*reg))
                })
                .count(),
        }
    }

    /// The test an attacker rolls to go in to a close assault (the reaction test of HT-MEL-03: its quality die
    /// against its leadership plus the threat level its confidence sets, a close formation and captured
    /// colours counting). Refused for a Shaken, Broken or Routed company.
    ///
    /// # Errors
    /// An unknown company, or one whose confidence bars it from assaulting.
    pub fn assault_test(&self, attacker: CompanyId) -> Result<ReactionTest, RuleViolation> {
        let a = self.company(attacker)?;
        let tl = attacker_tl(a.cl, a.formation.is_close(), false).map_err(|bar| {
            RuleViolation::Refused {
                name: a.name.to_string(),
                what: "close assault",
                why: match bar {
                    crate::melee::AssaultBar::Shaken => {
                        "a Shaken company must be rallied to Steady first"
                    }
                    crate::melee::AssaultBar::BrokenOrRouted => {
                        "Broken and Routed companies may not assault"
                    }
                },
            }
        })?;
        let test = ReactionTest {
            quality: self.gesture_quality(attacker, a.quality.die()),
            lv: a.lv,
            tl: tl + self.colours_modifier(attacker),
        };
        Ok(test)
    }

    /// Declares a close assault (HT-MEL-01 steps 1–3, HT-MEL-02, HT-MEL-03): both of the attacker's actions;
    /// a Shaken, Broken or Routed company may not; the reaction test at CO 0 / ST +1, −1 in close formation.
    /// On a pass the defender must answer with [`Battle::defend`]; on a failure the first action is lost and
    /// the second remains.
    pub fn assault<D: Dice + ?Sized>(
        &mut self,
        attacker: CompanyId,
        defender: CompanyId,
        dice: &mut D,
    ) -> Result<bool, RuleViolation> {
        self.idle()?;
        let a = self.company(attacker)?;
        let d = self.company(defender)?;
        if a.side == d.side {
            return Err(RuleViolation::SameSide {
                firer: a.name.to_string(),
                target: d.name.to_string(),
            });
        }
        if a.actions < 2 {
            return Err(RuleViolation::NoActionLeft {
                name: a.name.to_string(),
            });
        }
        let test = self.assault_test(attacker)?;
        transact(self, dice, |b, dice| {
            let pass = test.roll(dice);
            if pass {
                b.spend(attacker, Action::CloseAssault.cost(), Action::CloseAssault)?;
                b.assault = Some(PendingAssault {
                    attackers: vec![attacker],
                    defender,
                    stood: None,
                    final_fire: false,
                    dropped: false,
                });
            } else {
                b.spend(attacker, 1, Action::CloseAssault)?;
            }
            Ok(pass)
        })
    }

    /// The defender answers a declared assault (HT-MEL-01 step 4, HT-SG2-36, HT-MEL-04, HT-MEL-16): a Broken
    /// defender routs and withdraws without a test; a defender may withdraw; one that stands takes the stand
    /// test at the odds (fit attackers ÷ fit defenders), −1 in close formation, +1 if charged by a close
    /// formation. A failure loses levels and withdraws, ending the assault.
    pub fn defend<D: Dice + ?Sized>(
        &mut self,
        choice: DefenderChoice,
        dice: &mut D,
    ) -> Result<AssaultReport, RuleViolation> {
        let Some(p) = self.assault.clone() else {
            return Err(RuleViolation::OutOfOrder(
                "no close assault is waiting for the defender",
            ));
        };
        if p.stood.is_some() {
            return Err(RuleViolation::OutOfOrder(
                "the defender has already answered this assault",
            ));
        }
        let first = p
            .attackers
            .first()
            .copied()
            .ok_or(RuleViolation::OutOfOrder("no attackers"))?;
        let mut fighters = 0usize;
        let mut close = false;
        let mut mounted = false;
        for &a in &p.attackers {
            let c = self.company(a)?;
            fighters += c.fighters(true);
            close |= c.formation.is_close();
            mounted |= c.mounted();
        }
        transact(self, dice, |b, dice| {
            let d = b.company_mut(p.defender)?;
            let mut steps = Vec::new();
            if d.cl == ConfidenceLevel::Broken {
                d.lose(1);
                steps.push(format!("{} was Broken: it routs and withdraws", d.name));
                b.assault = None;
                b.won_assault = Some((first, false));
                return Ok(AssaultReport {
                    steps,
                    over: true,
                    fell_back: Vec::new(),
                });
            }
            let DefenderChoice::Stand { final_fire } = choice else {
                steps.push(format!("{} withdraws before the assault", d.name));
                b.assault = None;
                b.won_assault = Some((first, false));
                return Ok(AssaultReport {
                    steps,
                    over: true,
                    fell_back: Vec::new(),
                });
            };
            let odds = odds_tl(
                u32::try_from(fighters).unwrap_or(u32::MAX),
                u32::try_from(d.fighters(false)).unwrap_or(u32::MAX),
            );
            let event = TestEvent {
                other_base: Some(odds),
                charged_by_close_formation: close,
                charged_by_mounted: mounted && !d.mounted(),
                ..TestEvent::default()
            };
            let r = b.test(p.defender, event, dice)?;
            let d = b.company(p.defender)?;
            match r {
                Some((tl, res, cl)) if res != Confidence::Pass => {
                    steps.push(format!(
                        "{} {res} its stand test at TL {tl}, is now {cl} and withdraws",
                        d.name
                    ));
                    b.assault = None;
                    b.won_assault = Some((first, false));
                    Ok(AssaultReport {
                        steps,
                        over: true,
                        fell_back: Vec::new(),
                    })
                }
                other => {
                    let tl = other.map_or(0, |o| o.0);
                    steps.push(format!("{} stands (stand test at TL {tl} passed)", d.name));
                    b.assault = Some(PendingAssault {
                        stood: Some(true),
                        final_fire,
                        ..p
                    });
                    Ok(AssaultReport {
                        steps,
                        over: false,
                        fell_back: Vec::new(),
                    })
                }
            }
        })
    }

    /// The attacker's combat move and, on contact, the melee to its end (HT-MEL-01 steps 5–11): the mobility
    /// die doubled (D4 for a line, HT-MOV-02) toward the defender `distance` inches away, after which the
    /// attacker is disordered (HT-MEL-06); if it falls short and the defender chose to, final defensive fire
    /// at the remaining distance (HT-MEL-07: a casualty test, then a reaction test at +1 per casualty; a
    /// failure withdraws, [`ShortOfContact::Withdraws`]), then a second combat move; short again, the attacker
    /// stays mid-dash or aborts, its side's choice ([`ShortOfContact::StillShort`]). On contact the melee
    /// ([`Melee`]), both sides skirmishers afterwards (HT-MEL-11), and the downed figures' fates (HT-SG2-41,
    /// HT-MEL-15): dead, wounded, or stunned — back with a winner, captured from a loser. For an assault by
    /// several companies give each one's distance to [`Battle::charge_each`].
    pub fn charge<D: Dice + ?Sized>(
        &mut self,
        distance: f64,
        dice: &mut D,
    ) -> Result<AssaultReport, RuleViolation> {
        let n = self.assault.as_ref().map_or(1, |p| p.attackers.len());
        self.charge_each(&vec![distance; n], dice)
    }

    /// The combat moves of every attacking company (HT-MEL-01, HT-MEL-05, HT-SG2-42), `distances` in the order
    /// the companies were declared: each rolls its own move and is disordered; the defender's final defensive
    /// fire (one fire) goes at the first to fall short; a company that falters, or is short after its second
    /// move, drops out, and every company still in adds +1 to its later tests. The rest fight the melee. With
    /// a single attacker the battle then waits for its side's choice ([`Battle::short_of_contact`]); with
    /// several, one short after its second move abandons the assault without a test.
    pub fn charge_each<D: Dice + ?Sized>(
        &mut self,
        distances: &[f64],
        dice: &mut D,
    ) -> Result<AssaultReport, RuleViolation> {
        let Some(p) = self.assault.clone() else {
            return Err(RuleViolation::OutOfOrder("no close assault is under way"));
        };
        if p.stood != Some(true) {
            return Err(RuleViolation::OutOfOrder(
                "the defender has not yet answered this assault",
            ));
        }
        if distances.len() != p.attackers.len() {
            return Err(RuleViolation::OutOfOrder(
                "give one distance for each attacking company",
            ));
        }
        let mut moves = Vec::new();
        for (&id, &distance) in p.attackers.iter().zip(distances) {
            let a = self.company(id)?;
            let mover = if a.mounted() {
                Mover::MountedCavalry
            } else {
                Mover::Infantry
            };
            let die = mover
                .shifted_die(a.formation == Formation::Line, false)
                .unwrap_or(DieType::D4);
            moves.push((id, distance, die, CombatMove::new(die, distance)?));
        }
        let options = self.options;
        let single = p.attackers.len() == 1;
        transact(self, dice, |b, dice| {
            let mut steps = Vec::new();
            b.assault = None;
            let mut dropped = p.dropped;
            let mut fired = false;
            let mut reached = Vec::new();
            for &(id, distance, die, mv) in &moves {
                let r = mv.roll(dice);
                let side = b.company(id)?.side;
                b.tests_rolled.2.push(RollMade::CombatMove {
                    side,
                    roll: mv,
                    result: r,
                });
                let att = b.company_mut(id)?;
                att.formation = Formation::Skirmish;
                att.in_position = false;
                steps.push(format!("{} {r}", att.name));
                let MoveResult::Short(moved) = r else {
                    reached.push(id);
                    continue;
                };
                let left = (distance - f64::from(moved)).max(0.0);
                let mut go_on = true;
                let d = b.company(p.defender)?;
                let can_fire = p.final_fire
                    && !fired
                    && d.figures.iter().any(|f| {
                        f.condition == Condition::Fit
                            && !f.reload
                            && !matches!(f.role, Role::HorseHolder | Role::ColourBearer)
                    });
                if can_fire {
                    fired = true;
                    let (effect, casualties) = b.final_fire(p.defender, id, left, options, dice)?;
                    steps.push(format!("final defensive fire: {effect}"));
                    if casualties > 0 {
                        let a = b.company(id)?;
                        let side = a.side;
                        let test = ReactionTest {
                            quality: a.quality.die(),
                            lv: a.lv,
                            tl: i16::try_from(casualties).unwrap_or(i16::MAX)
                                + b.colours_modifier(id)
                                + i16::from(dropped),
                        };
                        let passed = test.roll(dice);
                        b.tests_rolled
                            .2
                            .push(RollMade::Reaction { side, test, passed });
                        if !passed {
                            let event = TestEvent {
                                fired_on: Some(FiredOn::Suppression),
                                ..TestEvent::default()
                            };
                            b.test(id, event, dice)?;
                            steps.push(format!("{} falters and withdraws", b.company(id)?.name));
                            go_on = false;
                            if single {
                                b.short = Some((id, p.defender, ShortOfContact::Withdraws));
                            }
                        }
                    }
                }
                if go_on {
                    let again = CombatMove::new(die, left)?;
                    let second = again.roll(dice);
                    let side = b.company(id)?.side;
                    b.tests_rolled.2.push(RollMade::CombatMove {
                        side,
                        roll: again,
                        result: second,
                    });
                    steps.push(format!("{} {second}", b.company(id)?.name));
                    if let MoveResult::Short(more) = second {
                        if single {
                            // its side chooses: stay mid-dash or abort (HT-SG2-37)
                            steps
                                .push(format!("{} is still short of contact", b.company(id)?.name));
                            b.short = Some((
                                id,
                                p.defender,
                                ShortOfContact::StillShort {
                                    moved: f64::from(moved) + f64::from(more),
                                },
                            ));
                        } else {
                            steps.push(format!(
                                "{} abandons the assault short of contact",
                                b.company(id)?.name
                            ));
                        }
                        go_on = false;
                    } else {
                        reached.push(id);
                    }
                }
                dropped |= !go_on;
            }
            // a company with no one left to fight (every fit figure down, or only its colours) brings on
            // no melee: the assault ends without one
            let fights = |b: &Battle, id: CompanyId, attacking: bool| {
                b.company_at(id).is_some_and(|c| c.fighters(attacking) > 0)
            };
            reached.retain(|&id| fights(b, id, true));
            if !reached.is_empty() && !fights(b, p.defender, false) {
                steps.push(format!(
                    "{} has no one left to fight: the assault ends without a melee",
                    b.company(p.defender)?.name
                ));
                reached.clear();
            }
            let fell_back = match reached.as_slice() {
                [] => Vec::new(),
                [one] => b.melee(*one, p.defender, i16::from(dropped), &mut steps, dice)?,
                many => b.melee_many(many, p.defender, dropped, &mut steps, dice)?,
            };
            Ok(AssaultReport {
                steps,
                over: true,
                fell_back,
            })
        })
    }

    /// A combined assault (HT-SG2-42, HT-MEL-05): companies activated together against one enemy unit, each
    /// unactivated (or activating with both actions), Confident or Steady. Each takes its own reaction test —
    /// +1 once a partner has failed — and those that pass spend both actions; a company that fails keeps its
    /// second action. With any passing, the defender answers with [`Battle::defend`]. Returns each company's
    /// result in order.
    pub fn assault_together<D: Dice + ?Sized>(
        &mut self,
        attackers: &[CompanyId],
        defender: CompanyId,
        dice: &mut D,
    ) -> Result<Vec<bool>, RuleViolation> {
        self.idle()?;
        let d = self.company(defender)?;
        let mut seen = Vec::new();
        for &id in attackers {
            let a = self.company(id)?;
            let fresh = !a.activated || a.actions == 2;
            if a.side == d.side || seen.contains(&id) || !fresh {
                return Err(RuleViolation::Refused {
                    name: a.name.to_string(),
                    what: "join the assault",
                    why: "attackers are enemies of the defender, listed once, with both actions unspent",
                });
            }
            attacker_tl(a.cl, a.formation.is_close(), false).map_err(|_| {
                RuleViolation::Refused {
                    name: a.name.to_string(),
                    what: "close assault",
                    why: "only Confident and Steady companies may assault",
                }
            })?;
            seen.push(id);
        }
        if attackers.is_empty() {
            return Err(SetupError::EmptyAssault.into());
        }
        transact(self, dice, |b, dice| {
            let mut results = Vec::new();
            let mut dropped = false;
            let mut going = Vec::new();
            for &id in attackers {
                let a = b.company_mut(id)?;
                a.activated = true;
                a.actions = 2;
                a.done.clear();
                let a = b.company(id)?;
                let tl = attacker_tl(a.cl, a.formation.is_close(), dropped).unwrap_or(0);
                let test = ReactionTest {
                    quality: b.gesture_quality(id, a.quality.die()),
                    lv: a.lv,
                    tl: tl + b.colours_modifier(id),
                };
                let pass = test.roll(dice);
                if pass {
                    b.spend(id, Action::CloseAssault.cost(), Action::CloseAssault)?;
                    going.push(id);
                } else {
                    b.spend(id, 1, Action::CloseAssault)?;
                    dropped = true;
                }
                results.push(pass);
            }
            if !going.is_empty() {
                b.assault = Some(PendingAssault {
                    attackers: going,
                    defender,
                    stood: None,
                    final_fire: false,
                    dropped,
                });
            }
            Ok(results)
        })
    }

    /// The melee of several attacking companies (HT-SG2-42, HT-MEL-05, HT-SG2-38..41): figures pair off as in
    /// a single melee, each rolling its own company's die (open shifts carried onto each opponent); after each
    /// round the side with more casualties tests first (the defender on a tie), each attacking company on its
    /// own at +1 per casualty it took (+1 once a partner has dropped out): a company that fails falls back and
    /// the others fight on. It ends when the defender fails, every attacker has fallen back or is down, or the
    /// defender is down; then the downed figures' fates. Riders (HT-MEL-12): each company's figures line up
    /// mounted first, then riders unhorsed in the round before (−1), then those on foot (riders unhorsed
    /// earlier among them, without the mounted +1); a beaten mounted figure rolls horse or rider, and a horse
    /// hit leaves him standing, on foot and marked unhorsed, and no casualty for the round's tests.
    fn melee_many<D: Dice + ?Sized>(
        &mut self,
        attackers: &[CompanyId],
        defender: CompanyId,
        mut dropped: bool,
        steps: &mut Vec<String>,
        dice: &mut D,
    ) -> Result<Vec<CompanyId>, RuleViolation> {
        let options = self.options;
        let mut fell_back = Vec::new();
        let mut holding: Vec<CompanyId> = attackers.to_vec();
        let mut down: Vec<(CompanyId, usize)> = Vec::new();
        let mut lost: Vec<(CompanyId, u32)> = attackers.iter().map(|&a| (a, 0)).collect();
        lost.push((defender, 0));
        let fighting = |b: &Battle, id: CompanyId, attacking: bool, down: &[(CompanyId, usize)]| {
            b.company(id).map(|c| {
                c.figures
                    .iter()
                    .enumerate()
                    .filter(|(i, f)| {
                        f.condition == Condition::Fit
                            && !(attacking && f.role == Role::HorseHolder)
                            && !down.contains(&(id, *i))
                    })
                    .map(|(i, _)| i)
                    .collect::<Vec<usize>>()
            })
        };
        // Riders whose horse was hit in the round before: −1 this round (HT-MEL-12).
        let mut fresh: Vec<(CompanyId, usize)> = Vec::new();
        // A company's figures in line by kind: mounted, unhorsed in the round before, on foot (riders
        // unhorsed before the melee among them), each with its own shifted die (HT-MEL-12).
        let line = |b: &Battle,
                    id: CompanyId,
                    attacking: bool,
                    first: bool,
                    down: &[(CompanyId, usize)],
                    fresh: &[(CompanyId, usize)]|
         -> Result<Vec<Fighting>, RuleViolation> {
            let c = b.company(id)?;
            let base = c.melee_die(!attacking && c.in_position);
            let kind = |i: usize| {
                if !c.mounted() {
                    FOOT
                } else if fresh.contains(&(id, i)) {
                    UNHORSED
                } else if c.figures[i].unhorsed {
                    FOOT
                } else {
                    MOUNTED
                }
            };
            let figs = fighting(b, id, attacking, down)?;
            let mut out = Vec::with_capacity(figs.len());
            for k in [MOUNTED, UNHORSED, FOOT] {
                for &i in figs.iter().filter(|&&i| kind(i) == k) {
                    out.push((id, i, kind_shift(base, k, first), k));
                }
            }
            Ok(out)
        };
        let mut winner = None;
        for round in 0..crate::melee::MAX_ROUNDS {
            let first = round == 0;
            let mut att: Vec<Fighting> = Vec::new();
            for &id in &holding {
                att.extend(line(self, id, true, first, &down, &fresh)?);
            }
            let def = line(self, defender, false, first, &down, &fresh)?;
            if att.is_empty() {
                winner = Some(AssaultSide::Defender);
                break;
            }
            if def.is_empty() {
                winner = Some(AssaultSide::Attacker);
                break;
            }
            let (few, many) = if att.len() >= def.len() {
                (&def, &att)
            } else {
                (&att, &def)
            };
            let mut this: Vec<(CompanyId, u32)> = Vec::new();
            let mut horses: Vec<(CompanyId, usize)> = Vec::new();
            let mut next = 0usize;
            for (g, lone) in few.iter().enumerate() {
                let k = many.len() / few.len() + usize::from(g < many.len() % few.len());
                let group = &many[next..next + k];
                next += k;
                let mut lone_die = lone.2.die;
                for o in group {
                    lone_die = o.2.onto(lone_die);
                }
                let x = dice.face(lone_die.die());
                let mut beaten_by = 0u8;
                for o in group {
                    let y = dice.face(lone.2.onto(o.2.die).die());
                    if x > y {
                        // a beaten rider: his horse or himself (HT-MEL-12)
                        if o.3 == MOUNTED
                            && (HorseOrRider {
                                by_mounted: lone.3 == MOUNTED,
                            })
                            .roll(dice)
                                == Struck::Horse
                        {
                            horses.push((o.0, o.1));
                        } else {
                            down.push((o.0, o.1));
                            bump(&mut this, o.0);
                        }
                    } else if y > x {
                        beaten_by = beaten_by.max(if o.3 == MOUNTED { 2 } else { 1 });
                    }
                }
                if beaten_by > 0 {
                    if lone.3 == MOUNTED
                        && (HorseOrRider {
                            by_mounted: beaten_by == 2,
                        })
                        .roll(dice)
                            == Struck::Horse
                    {
                        horses.push((lone.0, lone.1));
                    } else {
                        down.push((lone.0, lone.1));
                        bump(&mut this, lone.0);
                    }
                }
            }
            for &(id, i) in &horses {
                let c = self.company_mut(id)?;
                c.figures[i].unhorsed = true;
                let name = c.name.to_string();
                steps.push(format!(
                    "a rider of {name} loses his horse and fights on, on foot"
                ));
            }
            fresh = horses;
            for (id, n) in &this {
                bump_by(&mut lost, *id, *n);
            }
            let standing = |b: &Battle, id: CompanyId, attacking: bool| {
                fighting(b, id, attacking, &down).map(|v| v.len())
            };
            if standing(self, defender, false)? == 0 {
                winner = Some(AssaultSide::Attacker);
                break;
            }
            let mut still = Vec::new();
            for &id in &holding {
                if standing(self, id, true)? > 0 {
                    still.push(id);
                }
            }
            // Who tests first counts every company that fought this round, one just cut down included.
            let fought = std::mem::replace(&mut holding, still);
            if holding.is_empty() {
                winner = Some(AssaultSide::Defender);
                break;
            }
            let cas = |list: &[(CompanyId, u32)], id: CompanyId| {
                list.iter().find(|e| e.0 == id).map_or(0, |e| e.1)
            };
            let side_total =
                |list: &[(CompanyId, u32)]| -> u32 { fought.iter().map(|&a| cas(list, a)).sum() };
            let (a_sum, d_sum) = if first {
                (side_total(&this), cas(&this, defender))
            } else {
                (side_total(&lost), cas(&lost, defender))
            };
            let count = |id: CompanyId| match options.assault_test_casualties {
                AssaultTestCasualties::ThisRound => cas(&this, id),
                AssaultTestCasualties::WholeAssault => cas(&lost, id),
            };
            let defender_first = d_sum >= a_sum;
            let test = |b: &mut Battle,
                        id: CompanyId,
                        extra: i16,
                        dice: &mut D|
             -> Result<Confidence, RuleViolation> {
                let c = b.company(id)?;
                let t = ConfidenceTest {
                    quality: c.quality.die(),
                    lv: c.lv,
                    tl: i16::try_from(count(id)).unwrap_or(i16::MAX)
                        + extra
                        + b.colours_modifier(id),
                    two_level: options.confidence_two_level,
                };
                let r = t.roll(dice);
                b.company_mut(id)?.lose(r.levels());
                Ok(r)
            };
            let mut order = [AssaultSide::Defender, AssaultSide::Attacker];
            if !defender_first {
                order.reverse();
            }
            let mut decided = false;
            for side in order {
                match side {
                    AssaultSide::Defender => {
                        if test(self, defender, 0, dice)? != Confidence::Pass {
                            steps.push(format!("{} falls back", self.company(defender)?.name));
                            fell_back.push(defender);
                            winner = Some(AssaultSide::Attacker);
                            decided = true;
                            break;
                        }
                    }
                    AssaultSide::Attacker => {
                        for id in holding.clone() {
                            if test(self, id, i16::from(dropped), dice)? != Confidence::Pass {
                                steps.push(format!("{} falls back", self.company(id)?.name));
                                fell_back.push(id);
                                holding.retain(|&h| h != id);
                                dropped = true;
                            }
                        }
                        if holding.is_empty() {
                            winner = Some(AssaultSide::Defender);
                            decided = true;
                            break;
                        }
                    }
                }
            }
            if decided {
                break;
            }
        }
        steps.push(match winner {
            Some(AssaultSide::Attacker) => "the attackers carry the position".to_string(),
            Some(AssaultSide::Defender) => "the defenders hold".to_string(),
            None => "both sides still hold after the round limit".to_string(),
        });
        self.won_assault = (winner == Some(AssaultSide::Attacker)).then_some((attackers[0], false));
        for &id in attackers.iter().chain(std::iter::once(&defender)) {
            let c = self.company_mut(id)?;
            c.formation = Formation::Skirmish;
            c.in_position = false;
        }
        let mut leaderless: Vec<CompanyId> = Vec::new();
        for &(id, i) in &down {
            let attacking = id != defender;
            let won = match winner {
                Some(AssaultSide::Attacker) => attacking,
                Some(AssaultSide::Defender) => !attacking,
                None => true,
            };
            let fate = DownedFate::of(dice.face(Die::D6));
            let c = self.company_mut(id)?;
            let cond = match fate {
                DownedFate::Dead => Condition::Dead,
                DownedFate::Wounded => Condition::Wounded,
                DownedFate::Stunned if won => Condition::Fit,
                DownedFate::Stunned => Condition::Captured,
            };
            if c.figures[i].role == Role::Leader
                && cond != Condition::Fit
                && !leaderless.contains(&id)
            {
                leaderless.push(id);
            }
            c.figures[i].condition = cond;
        }
        for id in leaderless {
            self.new_leader(id, dice)?;
        }
        Ok(fell_back)
    }

    /// Final defensive fire (HT-MEL-07, HT-SG2-37; with the First Volley if the defender still has it,
    /// HT-OPT-14): a free fire with no fired-on result at the attacker's figures making the assault (its
    /// horse holders, who take no part in an assault their company makes, are not among them, HT-SET-04),
    /// counted along as they stand; a hit on a rider still on his horse rolls horse or
    /// rider (HT-CAS-03, HT-CAS-04: a rider whose horse falls is on foot and no casualty); the attacker takes
    /// the casualty test (option `fdf_confidence_test`). Returns the effect and casualties.
    fn final_fire<D: Dice + ?Sized>(
        &mut self,
        defender: CompanyId,
        attacker: CompanyId,
        distance: f64,
        options: Options,
        dice: &mut D,
    ) -> Result<(FireEffect, u32), RuleViolation> {
        let d = self.company(defender)?.clone();
        let rf = RangeFacts::at(distance, d.quality.band_inches());
        let shooters: Vec<usize> = d
            .figures
            .iter()
            .enumerate()
            .filter(|(_, f)| {
                f.condition == Condition::Fit
                    && !f.reload
                    && !matches!(f.role, Role::HorseHolder | Role::ColourBearer)
            })
            .map(|(i, _)| i)
            .collect();
        let RangeDie::Die { die, spill } = range_die(&rf, FireKind::SmallArms, false, &options)?
        else {
            return Ok((
                FireEffect {
                    success: Success::Fail,
                    potential: 0,
                },
                0,
            ));
        };
        let first_volley = options.first_volley
            && d.modern.is_none()
            && d.first_volley
            && d.cl <= ConfidenceLevel::Steady;
        self.company_mut(defender)?.first_volley = false;
        let pair = firer_dice(
            &FirepowerFacts {
                quality: d.quality.die(),
                half_fp: u32::try_from(shooters.len()).unwrap_or(0) * d.weapon.half_fp(),
                skirmish: !d.formation.is_close(),
                first_volley,
                spill,
            },
            &options,
        )?;
        if d.weapon.needs_reload() {
            let dc = self.company_mut(defender)?;
            for &i in &shooters {
                dc.figures[i].reload = true;
            }
        }
        let fd = FireDice {
            firer: crate::fire::FirerDice::two(pair.quality, pair.firepower),
            range: die,
        };
        let effect = fd.roll_effect(dice);
        self.tests_rolled.2.push(RollMade::FinalFire {
            side: d.side,
            dice: fd,
            effect,
        });
        let a = self.company(attacker)?;
        // the figures making the assault, as they stand: horse holders stay with the horses (HT-SET-04)
        let pool: Vec<usize> = a
            .figures
            .iter()
            .enumerate()
            .filter(|(_, f)| f.condition == Condition::Fit && f.role != Role::HorseHolder)
            .map(|(i, _)| i)
            .collect();
        let mut wounds = vec![0u8; pool.len()];
        let mut kill = vec![false; pool.len()];
        let mut unhorsed = vec![false; pool.len()];
        if !pool.is_empty() {
            for _ in 0..effect.potential {
                let s = allocate(pool.len(), dice);
                let hit = Impact {
                    impact: d.weapon.arm.impact(),
                    armour: a.armour.die(),
                    armour_shift: 0,
                    kill: options.kill_threshold,
                }
                .roll(dice);
                // a rider still on his horse: horse or rider (HT-CAS-03, HT-MEL-07)
                let rides = a.mounted() && !a.figures[pool[s]].unhorsed && !unhorsed[s];
                let (hit, lost_horse) = if rides {
                    self.horse_or_rider(hit, d.weapon.arm.impact(), dice)
                } else {
                    (hit, false)
                };
                unhorsed[s] |= lost_horse;
                match hit {
                    HitResult::Killed => kill[s] = true,
                    HitResult::Wounded => wounds[s] += 1,
                    HitResult::NoEffect => {}
                }
            }
            let a = self.company(attacker)?;
            if !a.mounted()
                && effect.potential > 0
                && let Ok(n) = u8::try_from(pool.len())
            {
                let dead = (0..pool.len())
                    .filter(|&s| kill[s] || wounds[s] >= 2)
                    .count();
                let hurt = (0..pool.len())
                    .filter(|&s| !kill[s] && wounds[s] == 1)
                    .count();
                let impact = Impact {
                    impact: d.weapon.arm.impact(),
                    armour: a.armour.die(),
                    armour_shift: 0,
                    kill: options.kill_threshold,
                };
                self.tests_rolled.2.push(RollMade::Casualties {
                    side: d.side,
                    pool: n,
                    hits: effect.potential,
                    impact: Some(impact),
                    wounded: u8::try_from(hurt).unwrap_or(u8::MAX),
                    killed: u8::try_from(dead).unwrap_or(u8::MAX),
                });
            }
        }
        let mut casualties = 0;
        let mut leader = false;
        let ac = self.company_mut(attacker)?;
        for (s, &i) in pool.iter().enumerate() {
            if unhorsed[s] {
                ac.figures[i].unhorsed = true;
            }
            let cond = if kill[s] || wounds[s] >= 2 {
                Condition::Dead
            } else if wounds[s] == 1 {
                Condition::Wounded
            } else {
                continue;
            };
            casualties += 1;
            leader |= ac.figures[i].role == Role::Leader;
            ac.figures[i].condition = cond;
        }
        if casualties > 0 && options.fdf_confidence_test {
            let event = TestEvent {
                fired_on: Some(FiredOn::SmallArms),
                casualties,
                leader_casualty: leader,
                first_volley,
                ..TestEvent::default()
            };
            self.test(attacker, event, dice)?;
        }
        if leader {
            self.new_leader(attacker, dice)?;
        }
        Ok((effect, casualties))
    }

    fn melee<D: Dice + ?Sized>(
        &mut self,
        attacker: CompanyId,
        defender: CompanyId,
        dropped: i16,
        steps: &mut Vec<String>,
        dice: &mut D,
    ) -> Result<Vec<CompanyId>, RuleViolation> {
        let options = self.options;
        let a = self.company(attacker)?.clone();
        let d = self.company(defender)?.clone();
        let (ca, cd) = (
            self.colours_modifier(attacker),
            self.colours_modifier(defender),
        );
        let side = |c: &Company, attacking: bool, bonus: bool, modifier: i16| MeleeSide {
            figures: u8::try_from(c.fighters(attacking)).unwrap_or(u8::MAX),
            first_round: c.melee_die(bonus),
            quality: c.quality.die(),
            lv: c.lv,
            modifier,
            on_foot: c.riders_on_foot(attacking),
        };
        let m = Melee {
            attacker: side(&a, true, false, ca + dropped),
            defender: side(&d, false, d.in_position, cd),
            casualties: options.assault_test_casualties,
            two_level: options.confidence_two_level,
        };
        if m.attacker.figures == 0 || m.defender.figures == 0 {
            return Err(SetupError::EmptyAssault.into());
        }
        let out = m.roll(dice);
        self.tests_rolled.2.push(RollMade::Melee {
            side: a.side,
            melee: m,
            outcome: out,
        });
        steps.push(format!("melee: {out}"));
        let winner = out.winner();
        self.won_assault = (winner == Some(AssaultSide::Attacker))
            .then_some((attacker, matches!(out.end, MeleeEnd::Destroyed { .. })));
        let fell_back = match out.end {
            MeleeEnd::FellBack {
                loser: AssaultSide::Attacker,
                ..
            } => vec![attacker],
            MeleeEnd::FellBack {
                loser: AssaultSide::Defender,
                ..
            } => vec![defender],
            _ => Vec::new(),
        };
        for (id, downed, unhorsed, s) in [
            (
                attacker,
                out.attacker_down,
                out.attacker_unhorsed,
                AssaultSide::Attacker,
            ),
            (
                defender,
                out.defender_down,
                out.defender_unhorsed,
                AssaultSide::Defender,
            ),
        ] {
            let won = winner == Some(s);
            let c = self.company_mut(id)?;
            c.formation = Formation::Skirmish;
            c.in_position = false;
            if let MeleeEnd::FellBack { loser, levels } = out.end
                && loser == s
            {
                c.lose(levels);
            }
            // Downed figures are the last fit figures (the leader goes down last). Then the riders on foot
            // who still stand (HT-MEL-12) number what the melee left: those already unhorsed stay so, and
            // the fit figures before the downed ones make up the rest.
            let mut left = downed;
            let mut leader_lost = false;
            let fights = |f: &Figure| {
                f.condition == Condition::Fit
                    && !(s == AssaultSide::Attacker && f.role == Role::HorseHolder)
            };
            let mut standing: Vec<usize> = Vec::new();
            for i in (0..c.figures.len()).rev() {
                if !fights(&c.figures[i]) {
                    continue;
                }
                if left == 0 {
                    standing.push(i);
                    continue;
                }
                left -= 1;
                let fate = DownedFate::of(dice.face(Die::D6));
                let cond = match fate {
                    DownedFate::Dead => Condition::Dead,
                    DownedFate::Wounded => Condition::Wounded,
                    DownedFate::Stunned if won => Condition::Fit,
                    DownedFate::Stunned => Condition::Captured,
                };
                if c.figures[i].role == Role::Leader && cond != Condition::Fit {
                    leader_lost = true;
                }
                c.figures[i].condition = cond;
            }
            if c.mounted() {
                let mut on_foot = standing.iter().filter(|&&i| c.figures[i].unhorsed).count();
                let mut add = usize::from(unhorsed).saturating_sub(on_foot);
                for &i in &standing {
                    if add == 0 {
                        break;
                    }
                    if !c.figures[i].unhorsed {
                        c.figures[i].unhorsed = true;
                        add -= 1;
                    }
                }
                // a downed rider the melee counted as mounted may have been one on foot here: the count
                // of riders on foot is the melee's
                for &i in standing.iter().rev() {
                    if on_foot <= usize::from(unhorsed) {
                        break;
                    }
                    if c.figures[i].unhorsed {
                        c.figures[i].unhorsed = false;
                        on_foot -= 1;
                    }
                }
            }
            if leader_lost {
                self.new_leader(id, dice)?;
            }
        }
        Ok(fell_back)
    }
}

#[cfg(test)]
impl Battle {
    /// Whether the battle is marked as a throwaway copy ([`Battle::as_throwaway_copy`]).
    pub(crate) const fn is_throwaway_copy(&self) -> bool {
        self.tests_rolled.1
    }
}
