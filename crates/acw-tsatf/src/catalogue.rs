//! The [`Options`] by name, through [`acw_core::catalogue::OptionsByName`] (`turn_limit=8`,
//! `fire_system=type-firing`): every field but `split_cavalry_dice` and `column_frontage`, which take a
//! value made of parts (a choice or none; two frontages) and are set in a scenario file.
//!
//! ```
//! use acw_core::catalogue::OptionsByName;
//! use acw_tsatf::options::{FireSystem, Options};
//!
//! let mut options = Options::default();
//! options.set_pair("fire_system=type-firing")?;
//! assert_eq!(options.fire_system, FireSystem::TypeFiring);
//! # Ok::<(), acw_core::catalogue::OptionError>(())
//! ```

use crate::options::{
    AssaultColumn, BatteryFire, CasualtyTiming, CaughtFleeing, ColourRecovery, CompulsoryFirst,
    ConeAngle, EvadedCharge, FigureChoice, FireSystem, FleeEdge, GatlingFigures, Hd6Stacking,
    HitDeck, IndiansLine, IndividualFireCards, MajorScope, MeleeWoundAsMiss, MissingCategory,
    Options, RallyRouted, Remainder, RoadB, RoadPartial, RoughPenalty, Rounding, SequencingDeck,
    SkirmishCharge, Tie, WoundPolicy,
};

acw_core::choice_option!(
    AssaultColumn,
    BatteryFire,
    CasualtyTiming,
    CaughtFleeing,
    ColourRecovery,
    CompulsoryFirst,
    ConeAngle,
    EvadedCharge,
    FigureChoice,
    FireSystem,
    FleeEdge,
    GatlingFigures,
    Hd6Stacking,
    HitDeck,
    IndiansLine,
    IndividualFireCards,
    MajorScope,
    MeleeWoundAsMiss,
    MissingCategory,
    RallyRouted,
    Remainder,
    RoadB,
    RoadPartial,
    RoughPenalty,
    Rounding,
    SequencingDeck,
    SkirmishCharge,
    Tie,
    WoundPolicy,
);

acw_core::options_by_name!(
    Options,
    check = |o| o.validate().map_err(|e| e.to_string()),
    [
        fire_system,
        sequencing_deck,
        casualty_timing,
        compulsory_first,
        evaded_charge,
        leaderless_blocks_compulsory,
        road_b,
        road_partial,
        skirmish_charge,
        rough_penalty,
        skirmish_rough_penalty,
        hd6_stacking,
        horseholder_rounding,
        horseholder_loss_blocks_remount,
        formation_change_carry,
        flee_edge,
        cone_angle,
        odd_rank_rounding,
        enfilade_overrides_cover,
        frontal_sector_half_angle,
        green_class3_pattern,
        remainder,
        hit_deck,
        missing_category,
        figure_choice,
        individual_fire_cards,
        nco_pistols,
        type_fire_carry_dashes,
        ammo_in_mass_fire,
        battery_fire,
        hand_hauled_may_fire,
        gatling_figures,
        mortar_plunging,
        stragglers_lost,
        indians_line,
        always_ignores_mods,
        caught_fleeing,
        tie,
        melee_overlap,
        melee_wound_as_miss,
        crack_dash_as_minus1,
        assault_column,
        colours_literal_plus2,
        colour_recovery,
        major_scope,
        major_leader_mod,
        hits_include_misses,
        hits_include_melee,
        critical_every_turn_below_half,
        shaken_retreats,
        rally_routed,
        wound_policy,
        leader_quality,
        leader_radius,
        gunboat_light_cover_class2,
        spotting_distance,
        turn_limit,
    ]
);
