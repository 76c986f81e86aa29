//! [`Options`]: every switch between readings of the rules, and every advanced rule's own switch (the options
//! registry, HT-GEN-06).
//!
//! `Options::default()` is the reading the crate's docs page names as the default throughout; each field
//! names the rule it decides. The crate's docs page lists what each alternative changes.

/// When impact kills (HT-INT-01, HT-CAS-02).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum KillThreshold {
    /// Hardtack: impact of double the armour roll or more kills.
    #[default]
    DoubleOrMore,
    /// Stargrunt II: impact of more than double kills.
    MoreThanDouble,
}

/// The leader-casualty base row (HT-INT-02).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum LeaderCasualtyTl {
    /// Hardtack's table: 4/3/1.
    #[default]
    Hardtack,
    /// Stargrunt II: 4/3/2.
    Sgii,
}

/// The casualties-from-fire test (HT-INT-03).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CasualtyTl {
    /// Hardtack: the fired-on base plus +1/+1/+0, a High unit testing at 0.
    #[default]
    Hardtack,
    /// Stargrunt II: a base of 2/1/NTR in place of the fired-on base.
    Sgii,
}

/// The "casualties against survivors" row's trigger (HT-INT-05, HT-MOR-09).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum OverwhelmedTrigger {
    /// The combined table: as many casualties as survivors, or more.
    #[default]
    AsManyOrMore,
    /// The basic table and Stargrunt II: more casualties than survivors.
    MoreThan,
}

/// Turning a firepower total into a die (HT-INT-06).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FpDieRounding {
    /// Round up to the next die (5 → D6).
    #[default]
    RoundUp,
    /// The designer's-notes reading: odd totals round down (5 → D4, 7 → D6), at least D4.
    RoundDownOddMinD4,
}

/// Which firer die takes a formation target's shift when the range die is already D4 (HT-INT-07).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FormationSpill {
    /// As each section says: small arms raise the firepower die, canister the quality die.
    #[default]
    PerSection,
    /// Always the firepower die.
    AlwaysFirepower,
    /// Always the quality die.
    AlwaysQuality,
}

/// When a range die counts as beyond D12 (HT-INT-14).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RangeOverflow {
    /// Check after the up-shifts, before the down-shifts.
    #[default]
    Sequential,
    /// Sum every shift and check the final index only.
    Net,
}

/// The two-level confidence drop (HT-SG2-16).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TwoLevelDrop {
    /// The rulebook: a roll of half the target number or less (`2·roll ≤ T`).
    #[default]
    HalfOrLess,
    /// The quick reference: less than half (`2·roll < T`).
    LessThanHalf,
}

/// What counts for the blast-through shift (HT-INT-11).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BlastThroughCount {
    /// +1 per earlier blast step that hit.
    #[default]
    PerBlastStep,
    /// +1 per distinct company that took casualties.
    EveryDamagedCompany,
}

/// The armour shift of fortification cover (HT-INT-22, HT-FIR-06).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FortificationArmour {
    /// Armour +3, like the range die.
    #[default]
    Plus3,
    /// Armour +2, as hard cover.
    Plus2,
    /// Hard cover with automatic In Position: +2 against direct fire, +3 against bursts.
    HardPlusIp,
}

/// The casualties counted in a close-assault round test (HT-SG2-40).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum AssaultTestCasualties {
    /// The round just fought.
    #[default]
    ThisRound,
    /// The whole assault so far.
    WholeAssault,
}

/// Which cover protects against round shot (HT-ART-08).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ShotCover {
    /// Stargrunt II cover: soft +1, hard +2, fortification +3.
    #[default]
    SgiiCover,
    /// Only figures in woods, +1.
    WoodsOnly,
}

/// When the horse-or-rider D10 is rolled (HT-CAS-03).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MountedCasualtyScope {
    /// For every casualty on a mounted figure.
    #[default]
    AllCasualties,
    /// For wounds only: a kill kills the rider.
    WoundsOnly,
}

/// How a hit horse's state is rolled (HT-CAS-04).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum HorseStatusRoll {
    /// D6: 1–2 dead, 3–5 wounded, 6 unhurt.
    #[default]
    D6Table,
    /// The hit's impact die again, against a D4.
    ImpactVsD4,
}

/// Travel-mode speed (HT-INT-16, HT-MOV-04).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TravelRate {
    /// Road 2× base a move, clear ground off the road 1× (4× and 2× a turn).
    #[default]
    PerTurn,
    /// Road 4× base a move, clear ground off the road 2×.
    PerAction,
}

/// The fired-on test that replaces suppression (HT-INT-04).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FiredOnTl {
    /// Hardtack: 1/0/NTR every time.
    #[default]
    EveryTime,
    /// Stargrunt II's first-suppression test, 2/1/NTR, the first time only.
    SgiiFirstSuppression,
}

/// The Grand Gesture's range condition (HT-INT-12).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum GgRangeCheck {
    /// The printed example: the enemy's range die without the lone-figure shift.
    #[default]
    NoLoneFigureShift,
    /// With the lone-figure shift.
    WithLoneFigureShift,
}

/// What a transfer of an action gives the unit that receives it (HT-INT-17, HT-CMD-01, HT-SG2-05).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TransferGrants {
    /// Stargrunt II, which Hardtack leaves unchanged: a full activation of two actions.
    #[default]
    FullActivation,
    /// Hardtack's wording read literally: the one action the commander gave, so nothing that costs two.
    SingleAction,
}

/// Every reading and advanced rule of the crate. `#[non_exhaustive]`: start from `Options::default()` and set
/// the fields you want (`let mut o = Options::default(); o.first_volley = true;`).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct Options {
    /// HT-INT-01.
    pub kill_threshold: KillThreshold,
    /// HT-INT-02.
    pub leader_casualty_tl: LeaderCasualtyTl,
    /// HT-INT-03.
    pub casualty_tl: CasualtyTl,
    /// HT-INT-04.
    pub fired_on_tl: FiredOnTl,
    /// HT-INT-19: Stargrunt II's +1/+0/NTR per untreated casualty.
    pub sgii_untreated_casualty_mod: bool,
    /// HT-INT-05.
    pub overwhelmed_trigger: OverwhelmedTrigger,
    /// HT-INT-06.
    pub fp_die_rounding: FpDieRounding,
    /// HT-INT-07.
    pub formation_spill: FormationSpill,
    /// HT-INT-14.
    pub range_overflow: RangeOverflow,
    /// HT-INT-15: whether firepower shifts can land on and leave the virtual D2.
    pub d2_ladder: bool,
    /// HT-SG2-16.
    pub confidence_two_level: TwoLevelDrop,
    /// HT-INT-11.
    pub blast_through_count: BlastThroughCount,
    /// HT-ART-19: blast-through continues only after casualties, not after any hit.
    pub blast_requires_casualties: bool,
    /// HT-INT-22.
    pub fortification_armour: FortificationArmour,
    /// HT-SG2-40.
    pub assault_test_casualties: AssaultTestCasualties,
    /// HT-ART-08.
    pub shot_cover: ShotCover,
    /// HT-INT-16.
    pub travel_rate: TravelRate,
    /// HT-INT-17.
    pub transfer_grants: TransferGrants,
    /// Stargrunt II's optional follow-through after a won assault (HT-SG2-43).
    pub sgii_follow_through: bool,
    /// HT-CAS-03.
    pub mounted_casualty_scope: MountedCasualtyScope,
    /// HT-CAS-04.
    pub horse_status_roll: HorseStatusRoll,
    /// HT-MEL-07: attackers hit by final defensive fire also take the casualty confidence test.
    pub fdf_confidence_test: bool,
    /// Advanced rule, Artillery Shot Ranges (HT-OPT-01): ±1 on the shot accuracy roll.
    pub artillery_shot_ranges: bool,
    /// Advanced rule, Rifled Artillery Bounces (HT-OPT-02): rifled guns need 2 more to bounce.
    pub rifled_bounces: bool,
    /// Advanced rule, First Volley (HT-OPT-12..14).
    pub first_volley: bool,
    /// HT-INT-09: a Low unit's first-volley casualty modifier is +2 (the printed example) instead of +3.
    pub first_volley_low_example: bool,
    /// Advanced rule, Enfilade (HT-OPT-11).
    pub enfilade: bool,
    /// Advanced rule, Morale Modifications: the 50% rule (HT-OPT-18).
    pub morale_modifications: bool,
    /// Advanced rule, Prepared Fire (HT-OPT-20/21).
    pub prepared_fire: bool,
    /// Advanced rule, case and spherical case ammunition (HT-OPT-05..07).
    pub case_shot: bool,
    /// Advanced rule, the Grand Gesture (HT-OPT-15..17).
    pub grand_gesture: bool,
    /// HT-INT-12.
    pub gg_range_check: GgRangeCheck,
    /// Advanced rule, Quick Combat Resolution (HT-OPT-22..24): every potential casualty is wounded.
    pub quick_combat_resolution: bool,
    /// Stand-based fire for 6mm figures at one man a figure (HT-OPT-33): each stand of ten firing figures
    /// rolls its own fire (`fire::StandFire`). Off, a company fires as one — which is also the rules' other
    /// 6mm choice, where a casualty takes three figures off the stands and the battle's figures stay the
    /// rules' figures of three men.
    pub stand_based_fire: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            kill_threshold: KillThreshold::default(),
            leader_casualty_tl: LeaderCasualtyTl::default(),
            casualty_tl: CasualtyTl::default(),
            fired_on_tl: FiredOnTl::EveryTime,
            sgii_untreated_casualty_mod: false,
            overwhelmed_trigger: OverwhelmedTrigger::default(),
            fp_die_rounding: FpDieRounding::default(),
            formation_spill: FormationSpill::default(),
            range_overflow: RangeOverflow::default(),
            d2_ladder: false,
            confidence_two_level: TwoLevelDrop::default(),
            blast_through_count: BlastThroughCount::default(),
            blast_requires_casualties: false,
            fortification_armour: FortificationArmour::default(),
            assault_test_casualties: AssaultTestCasualties::default(),
            shot_cover: ShotCover::default(),
            travel_rate: TravelRate::PerTurn,
            transfer_grants: TransferGrants::FullActivation,
            sgii_follow_through: false,
            mounted_casualty_scope: MountedCasualtyScope::AllCasualties,
            horse_status_roll: HorseStatusRoll::D6Table,
            fdf_confidence_test: true,
            artillery_shot_ranges: false,
            rifled_bounces: false,
            first_volley: false,
            first_volley_low_example: false,
            enfilade: false,
            morale_modifications: false,
            prepared_fire: false,
            quick_combat_resolution: false,
            grand_gesture: false,
            gg_range_check: GgRangeCheck::NoLoneFigureShift,
            case_shot: false,
            stand_based_fire: false,
        }
    }
}
