//! [`Options`]: every switch of GRID-OPT-06 and the other optional rules, with the project's default reading as
//! the default.

use crate::error::GridError;
use crate::tables;
use acw_core::Side;

/// How far apart two squares are (GRID-GEO-02).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SquareDistance {
    /// Steps across sides only (default; matches side-sharing adjacency).
    #[default]
    Manhattan,
    /// A diagonal counts as one step.
    Chebyshev,
}

/// Half-angle of the front arc (GRID-GEO-04).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FrontArc {
    /// ±45° on squares, ±60° on hexes, edges included (default).
    #[default]
    Standard,
    /// ±30° on hexes (only the hex straight ahead among the neighbours); squares keep ±45°.
    Narrow,
    /// Everything strictly ahead of the line through the centre parallel to the front side.
    HalfPlane,
}

/// Which hex sides are front, flank and rear (GRID-GEO-06).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum HexFlanks {
    /// The three forward sides are front, the two rear-oblique sides flank (default).
    #[default]
    ThreeSideFront,
    /// Only the faced side is front; the other four non-rear sides are flank.
    NarrowFront,
}

/// When a line of sight runs exactly along a square corner or a hex spine (GRID-GEO-07).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum LosTie {
    /// Blocked only if both candidate areas block (default).
    #[default]
    BothBlock,
    /// Blocked if either candidate blocks.
    EitherBlocks,
}

/// How an initiative tie on the first turn is broken (GRID-SEQ-03).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FirstTurnTie {
    /// Roll again until the tie is broken (default).
    #[default]
    Reroll,
    /// The scenario names the side that goes first.
    ScenarioFirst(Side),
}

/// How often a distant division rolls (GRID-CMD-02).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum DivisionRoll {
    /// Once per division per turn; a failure stops every unit of the division (default).
    #[default]
    PerDivision,
    /// Separately for each unit of the division.
    PerUnit,
}

/// What happens to a commander whose unit is destroyed, routs or surrenders (GRID-CMD-08).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CommanderFate {
    /// He escapes to the nearest friendly unit of his command, else the nearest friendly unit (default).
    #[default]
    Escapes,
    /// He is captured.
    Captured,
}

/// When a commander's cancel is taken off his unit's hits (GRID-CMD-06, GRID-MEL-13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CancelTiming {
    /// After cover halving (default).
    #[default]
    AfterCover,
    /// Before cover halving.
    BeforeCover,
}

/// What "attack to the front" requires (GRID-MOV-19).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum AttackFrontCheck {
    /// Every enemy contacted must have started in the front arc (default).
    #[default]
    AllContacted,
    /// At least one of them must have.
    AtLeastOne,
}

/// What "bombarded" means for entrenching (GRID-MOV-26).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BombardedMeans {
    /// Targeted by bombardment this turn, hit or not (default).
    #[default]
    Targeted,
    /// Took bombardment hits this turn.
    TookHits,
}

/// When skirmish fire is rolled (GRID-FIR-08).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SkirmishTiming {
    /// In the Combat Phase, with combat (default).
    #[default]
    CombatPhase,
    /// In the Bombardment Phase, simultaneously.
    BombardmentPhase,
    /// In each player's own movement step, after that player's moves.
    OwnMovementStep,
}

/// Which hill artillery gets the longer range table (GRID-ART-04).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum HillBonus {
    /// Any elevation of 1 or more gives one band's extension (default).
    #[default]
    Flat,
    /// Each contour adds one more to both bands.
    PerContour,
    /// The extension applies only if the firer stands higher than the target.
    OnlyVsLower,
}

/// What cover halves in bombardment (GRID-ART-07).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BombardCoverScope {
    /// The total hits each target takes in the phase (default).
    #[default]
    PerTargetPerPhase,
    /// Each battery's hits separately.
    PerBattery,
}

/// Rounding of a half (GRID-ART-12, GRID-MEL-07).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Rounding {
    /// Round down (default).
    #[default]
    Down,
    /// Round up.
    Up,
}

impl Rounding {
    /// Half of `n`, rounded this way.
    #[must_use]
    pub const fn half(self, n: u32) -> u32 {
        match self {
            Rounding::Down => n / 2,
            Rounding::Up => n.div_ceil(2),
        }
    }

    /// A quarter of `n`, rounded this way.
    #[must_use]
    pub const fn quarter(self, n: u32) -> u32 {
        match self {
            Rounding::Down => n / 4,
            Rounding::Up => n.div_ceil(4),
        }
    }
}

/// When a unit counts as attacked in flank or rear (GRID-MEL-08).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FlankTest {
    /// From positions in every Combat Phase, whoever moved (default).
    #[default]
    Positions,
    /// Only if the enemy on the flank or rear moved in (attacked) this turn.
    OnlyIfMovedIn,
}

/// Who places a side's hits among its units in one combat (GRID-MEL-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum HitAllocation {
    /// As evenly as possible; the receiving player places the remainder (default).
    #[default]
    Even,
    /// The receiving player places every hit.
    ReceiverFree,
    /// The inflicting player places every hit.
    Inflicter,
}

/// Which hits the combat comparison counts (GRID-MEL-14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum HitComparison {
    /// Hits actually taken, after cover, commander cancels and markers (default).
    #[default]
    AfterReductions,
    /// The raw hits rolled.
    Raw,
}

/// How a losing side of several units tests (GRID-MOR-04).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SideMoraleDice {
    /// Each unit rolls its own die (default).
    #[default]
    PerUnit,
    /// One die for the whole side.
    PerSide,
}

/// A retreat blocked by terrain or the table edge (GRID-MOR-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BlockedRetreat {
    /// Retreat as far as possible and be (or stay) disordered (default).
    #[default]
    StopAndDisorder,
    /// The unit is removed.
    Removed,
}

/// How halved hits lose their fraction (GRID-CAS-05).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FractionMode {
    /// floor(h / 2) (default).
    #[default]
    RoundDown,
    /// Keep a half-hit; two halves make one hit.
    CarryFractions,
    /// An odd half becomes a whole hit on 1d6 = 4–6.
    DiceForFraction,
}

/// With no Corps Commander on the table (GRID-CMD-09).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum NoCorpsCommander {
    /// The division check is skipped for that side (default).
    #[default]
    SkipCheck,
    /// Measure from the Army Commander instead.
    MeasureFromArmy,
}

/// Who keeps a leftover hit when stands detach (GRID-CAS-09).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum DetachedHit {
    /// The original unit keeps it (default).
    #[default]
    StaysWithOriginal,
    /// The owner says which part keeps it (given with the move).
    OwnerChooses,
}

/// Unit size and stacking settings (GRID-OPT-04); the default is 6 / 3 / 2 / 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "ScaleRepr", into = "ScaleRepr"))]
pub struct Scale {
    stack_limit: u8,
    fighting_stands: u8,
    dice_per_stand: u8,
    inner_support_dice: u8,
}

#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy)]
struct ScaleRepr {
    stack_limit: u8,
    fighting_stands: u8,
    dice_per_stand: u8,
    inner_support_dice: u8,
}

impl TryFrom<ScaleRepr> for Scale {
    type Error = GridError;
    fn try_from(r: ScaleRepr) -> Result<Self, GridError> {
        Scale::new(
            r.stack_limit,
            r.fighting_stands,
            r.dice_per_stand,
            r.inner_support_dice,
        )
    }
}

impl From<Scale> for ScaleRepr {
    fn from(s: Scale) -> Self {
        ScaleRepr {
            stack_limit: s.stack_limit,
            fighting_stands: s.fighting_stands,
            dice_per_stand: s.dice_per_stand,
            inner_support_dice: s.inner_support_dice,
        }
    }
}

impl Default for Scale {
    fn default() -> Self {
        Scale {
            stack_limit: tables::STACK_LIMIT,
            fighting_stands: tables::FIGHTING_STANDS,
            dice_per_stand: tables::COMBAT_DICE_PER_STAND,
            inner_support_dice: tables::INNER_SUPPORT_DICE,
        }
    }
}

impl Scale {
    /// GRID-OPT-04: a checked scale. Stack limit 1–24, fighting stands 1 to the stack limit, dice per stand 1–4,
    /// inner support dice 0–4.
    pub fn new(
        stack_limit: u8,
        fighting_stands: u8,
        dice_per_stand: u8,
        inner_support_dice: u8,
    ) -> Result<Scale, GridError> {
        let check = |what, v: u8, min: u8, max: u8| {
            if v < min || v > max {
                Err(GridError::OutOfRange {
                    what,
                    given: i64::from(v),
                    min: i64::from(min),
                    max: i64::from(max),
                })
            } else {
                Ok(())
            }
        };
        check("stack limit", stack_limit, 1, 24)?;
        check("fighting stands", fighting_stands, 1, stack_limit)?;
        check("dice per stand", dice_per_stand, 1, 4)?;
        check("inner support dice", inner_support_dice, 0, 4)?;
        Ok(Scale {
            stack_limit,
            fighting_stands,
            dice_per_stand,
            inner_support_dice,
        })
    }

    /// Most stands in one area at the end of movement.
    #[must_use]
    pub const fn stack_limit(self) -> u8 {
        self.stack_limit
    }
    /// Most stands of a unit that fire or fight.
    #[must_use]
    pub const fn fighting_stands(self) -> u8 {
        self.fighting_stands
    }
    /// Combat dice per fighting stand.
    #[must_use]
    pub const fn dice_per_stand(self) -> u8 {
        self.dice_per_stand
    }
    /// Dice added by a unit with supporting stands.
    #[must_use]
    pub const fn inner_support_dice(self) -> u8 {
        self.inner_support_dice
    }
}

/// Every interpretation switch and optional rule (GRID-OPT-06 and the other GRID-OPT items).
///
/// `Options::default()` is the project's default reading (docs/rulesets/grid.md, "Readings chosen"). Fields are public; the struct is `#[non_exhaustive]`, so
/// build one with `Options::default()` and set the fields you want to change.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct Options {
    /// GRID-GEO-02: distance on squares.
    pub square_distance: SquareDistance,
    /// GRID-GEO-04: front-arc half-angle.
    pub front_arc: FrontArc,
    /// GRID-GEO-06: hex front/flank model.
    pub hex_flanks: HexFlanks,
    /// GRID-GEO-07: a line along a corner or spine.
    pub los_tie: LosTie,
    /// GRID-SEQ-03: first-turn initiative ties.
    pub first_turn_tie: FirstTurnTie,
    /// GRID-SEQ-04: the side with +1 on its initiative roll, if any.
    pub initiative_bonus: Option<Side>,
    /// GRID-CMD-02: division roll once per division or per unit.
    pub division_roll: DivisionRoll,
    /// GRID-CMD-04: rallying needs the command roll too.
    pub command_roll_for_rally: bool,
    /// GRID-CMD-07: a lost Division Commander is replaced after this many turns (`None`: never).
    pub commander_replacement_turns: Option<u32>,
    /// GRID-CMD-08: the commander of a destroyed, routed or surrendered unit.
    pub commander_fate: CommanderFate,
    /// GRID-CMD-06, GRID-MEL-13: when a commander's cancel applies.
    pub commander_cancel: CancelTiming,
    /// GRID-CMD-09: no Corps Commander on the table.
    pub no_corps_commander: NoCorpsCommander,
    /// GRID-MOV-03: commanders also pay ground-class penalties (as cavalry in broken, infantry in difficult).
    pub commander_ground_penalty: bool,
    /// GRID-MOV-04: several double-cost conditions multiply (4) instead of capping at 2.
    pub cumulative_double_costs: bool,
    /// GRID-MOV-06: commanders may use the road rate.
    pub commanders_use_roads: bool,
    /// GRID-MOV-08: strict formation changes: only a column held at the start of a move gets road bonuses.
    pub strict_formation_change: bool,
    /// GRID-MOV-10: a facing change in place counts as a move.
    pub facing_change_is_move: bool,
    /// GRID-MOV-19: front-arc check for attacks.
    pub attack_front_check: AttackFrontCheck,
    /// GRID-MOV-20: an attack's path must stay inside the front arc (`false`: lenient).
    pub attack_path_in_arc: bool,
    /// GRID-MOV-26: what "bombarded" means for entrenching.
    pub bombarded_for_entrenching: BombardedMeans,
    /// GRID-MOV-26: dismounted cavalry may entrench.
    pub dismounted_cavalry_entrench: bool,
    /// GRID-MOV-29: a unit may always move 1 area into terrain it may enter, whatever the cost.
    pub minimum_move: bool,
    /// GRID-FIR-04, GRID-MEL-10: inferior firepower is −1 per die in skirmish and combat too.
    pub inferior_in_close_fire: bool,
    /// GRID-FIR-07: skirmishers may fire at an engaged target.
    pub skirmish_at_engaged: bool,
    /// GRID-FIR-08: when skirmish fire is rolled.
    pub skirmish_timing: SkirmishTiming,
    /// GRID-ART-04: hill artillery range bonus.
    pub hill_bonus: HillBonus,
    /// GRID-ART-07: what cover halves in bombardment.
    pub bombard_cover_scope: BombardCoverScope,
    /// GRID-ART-12: rounding of the hits a silenced battery cancels.
    pub silenced_rounding: Rounding,
    /// GRID-MEL-10: superior firepower and shock troops together give +2 instead of +1.
    pub superior_and_shock_cumulative: bool,
    /// GRID-MEL-10: clamp the net combat modifier to no less than −1 (and no more than the largest bonus).
    pub clamp_net_modifier: bool,
    /// GRID-MEL-06: a supporting unit supports every adjacent combat instead of one.
    pub support_every_combat: bool,
    /// GRID-MEL-06: disordered units and march columns may support.
    pub disordered_or_column_support: bool,
    /// GRID-MEL-07: rounding of halved dice.
    pub halving_rounding: Rounding,
    /// GRID-MEL-07: halve outside support dice too.
    pub halve_outside_support: bool,
    /// GRID-MEL-07: two or more disadvantages quarter the dice.
    pub stacking_disadvantages: bool,
    /// GRID-MEL-08: flank test.
    pub flank_test: FlankTest,
    /// GRID-MEL-12: hit allocation across units.
    pub hit_allocation: HitAllocation,
    /// GRID-MEL-14: hits compared.
    pub hit_comparison: HitComparison,
    /// GRID-MOR-04: a losing side of several units.
    pub side_morale_dice: SideMoraleDice,
    /// GRID-MOR-12: a retreat blocked by terrain or the table edge.
    pub blocked_retreat: BlockedRetreat,
    /// GRID-MOR-13: a unit that retreated earlier this turn may still rally.
    pub rally_after_retreat: bool,
    /// GRID-CAS-05: fraction mode of halved hits.
    pub fractions: FractionMode,
    /// GRID-CAS-09: who keeps a leftover hit when stands detach.
    pub detached_hit: DetachedHit,
    /// GRID-OPT-04: unit size and stacking settings.
    pub scale: Scale,
    /// GRID-OPT-05: a game master splits engagements into combats (see [`crate::combat::CombatPlan::split_by`])
    /// and rules on anything unclear.
    pub game_master: bool,
    /// GRID-OPT-02: hidden units and ambush are in play.
    pub hidden_units: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            square_distance: SquareDistance::Manhattan,
            front_arc: FrontArc::Standard,
            hex_flanks: HexFlanks::ThreeSideFront,
            los_tie: LosTie::BothBlock,
            first_turn_tie: FirstTurnTie::Reroll,
            initiative_bonus: None,
            division_roll: DivisionRoll::PerDivision,
            command_roll_for_rally: false,
            commander_replacement_turns: None,
            commander_fate: CommanderFate::Escapes,
            commander_cancel: CancelTiming::AfterCover,
            no_corps_commander: NoCorpsCommander::SkipCheck,
            commander_ground_penalty: false,
            cumulative_double_costs: false,
            commanders_use_roads: true,
            strict_formation_change: false,
            facing_change_is_move: true,
            attack_front_check: AttackFrontCheck::AllContacted,
            attack_path_in_arc: true,
            bombarded_for_entrenching: BombardedMeans::Targeted,
            dismounted_cavalry_entrench: false,
            minimum_move: false,
            inferior_in_close_fire: false,
            skirmish_at_engaged: true,
            skirmish_timing: SkirmishTiming::CombatPhase,
            hill_bonus: HillBonus::Flat,
            bombard_cover_scope: BombardCoverScope::PerTargetPerPhase,
            silenced_rounding: Rounding::Down,
            superior_and_shock_cumulative: false,
            clamp_net_modifier: true,
            support_every_combat: false,
            disordered_or_column_support: true,
            halving_rounding: Rounding::Down,
            halve_outside_support: false,
            stacking_disadvantages: false,
            flank_test: FlankTest::Positions,
            hit_allocation: HitAllocation::Even,
            hit_comparison: HitComparison::AfterReductions,
            side_morale_dice: SideMoraleDice::PerUnit,
            blocked_retreat: BlockedRetreat::StopAndDisorder,
            rally_after_retreat: true,
            fractions: FractionMode::RoundDown,
            detached_hit: DetachedHit::StaysWithOriginal,
            scale: Scale::default(),
            game_master: false,
            hidden_units: false,
        }
    }
}
