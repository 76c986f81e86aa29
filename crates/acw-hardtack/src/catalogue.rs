//! The [`Options`] by name, through [`acw_core::catalogue::OptionsByName`] (`first_volley=false`,
//! `kill_threshold=more-than-double`): every field.
//!
//! The procedures of this crate are not catalogued by name yet (each still has its roll-vs-odds test), and
//! its game events do not yet report the odds of their rolls for the luck index.
//!
//! ```
//! use acw_core::catalogue::OptionsByName;
//! use acw_hardtack::options::Options;
//!
//! let mut options = Options::default();
//! options.set_pair("first_volley=false")?;
//! assert!(!options.first_volley);
//! # Ok::<(), acw_core::catalogue::OptionError>(())
//! ```

use crate::options::{
    AssaultTestCasualties, BlastThroughCount, CasualtyTl, FiredOnTl, FormationSpill,
    FortificationArmour, FpDieRounding, GgRangeCheck, HorseStatusRoll, KillThreshold,
    LeaderCasualtyTl, MountedCasualtyScope, Options, OverwhelmedTrigger, RangeOverflow, ShotCover,
    TravelRate, TwoLevelDrop,
};

acw_core::choice_words!(AssaultTestCasualties {
    ThisRound => "this-round",
    WholeAssault => "whole-assault",
});

acw_core::choice_words!(BlastThroughCount {
    PerBlastStep => "per-blast-step",
    EveryDamagedCompany => "every-damaged-company",
});

acw_core::choice_words!(CasualtyTl {
    Hardtack => "hardtack",
    Sgii => "sgii",
});

acw_core::choice_words!(FiredOnTl {
    EveryTime => "every-time",
    SgiiFirstSuppression => "sgii-first-suppression",
});

acw_core::choice_words!(FormationSpill {
    PerSection => "per-section",
    AlwaysFirepower => "always-firepower",
    AlwaysQuality => "always-quality",
});

acw_core::choice_words!(FortificationArmour {
    Plus3 => "plus3",
    Plus2 => "plus2",
    HardPlusIp => "hard-plus-ip",
});

acw_core::choice_words!(FpDieRounding {
    RoundUp => "round-up",
    RoundDownOddMinD4 => "round-down-odd-min-d4",
});

acw_core::choice_words!(GgRangeCheck {
    NoLoneFigureShift => "no-lone-figure-shift",
    WithLoneFigureShift => "with-lone-figure-shift",
});

acw_core::choice_words!(HorseStatusRoll {
    D6Table => "d6-table",
    ImpactVsD4 => "impact-vs-d4",
});

acw_core::choice_words!(KillThreshold {
    DoubleOrMore => "double-or-more",
    MoreThanDouble => "more-than-double",
});

acw_core::choice_words!(LeaderCasualtyTl {
    Hardtack => "hardtack",
    Sgii => "sgii",
});

acw_core::choice_words!(MountedCasualtyScope {
    AllCasualties => "all-casualties",
    WoundsOnly => "wounds-only",
});

acw_core::choice_words!(OverwhelmedTrigger {
    AsManyOrMore => "as-many-or-more",
    MoreThan => "more-than",
});

acw_core::choice_words!(RangeOverflow {
    Sequential => "sequential",
    Net => "net",
});

acw_core::choice_words!(ShotCover {
    SgiiCover => "sgii-cover",
    WoodsOnly => "woods-only",
});

acw_core::choice_words!(TravelRate {
    PerTurn => "per-turn",
    PerAction => "per-action",
});

acw_core::choice_words!(TwoLevelDrop {
    HalfOrLess => "half-or-less",
    LessThanHalf => "less-than-half",
});

acw_core::options_by_name!(
    Options,
    check = |_| Ok(()),
    [
        kill_threshold,
        leader_casualty_tl,
        casualty_tl,
        fired_on_tl,
        sgii_untreated_casualty_mod,
        overwhelmed_trigger,
        fp_die_rounding,
        formation_spill,
        range_overflow,
        d2_ladder,
        confidence_two_level,
        blast_through_count,
        blast_requires_casualties,
        fortification_armour,
        assault_test_casualties,
        shot_cover,
        travel_rate,
        sgii_follow_through,
        mounted_casualty_scope,
        horse_status_roll,
        fdf_confidence_test,
        artillery_shot_ranges,
        rifled_bounces,
        first_volley,
        first_volley_low_example,
        enfilade,
        morale_modifications,
        prepared_fire,
        case_shot,
        grand_gesture,
        gg_range_check,
        quick_combat_resolution,
    ]
);
