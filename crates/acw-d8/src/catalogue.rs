//! The [`Options`] by name, through [`acw_core::catalogue::OptionsByName`] (`turn_limit=8`,
//! `improved_muskets=all-experienced`): every field.
//!
//! ```
//! use acw_core::catalogue::OptionsByName;
//! use acw_d8::options::{ImprovedMuskets, Options};
//!
//! let mut options = Options::default();
//! options.set_pair("improved_muskets=all-experienced")?;
//! assert_eq!(options.improved_muskets, ImprovedMuskets::AllExperienced);
//! # Ok::<(), acw_core::catalogue::OptionError>(())
//! ```

use crate::options::{ImprovedMuskets, Options, StructureHits};

acw_core::choice_words!(ImprovedMuskets {
    Quarter => "quarter",
    AllExperienced => "all-experienced",
    None => "none",
});

acw_core::choice_words!(StructureHits {
    ClassScore => "class-score",
    Pips => "pips",
    FourUp => "four-up",
});

acw_core::options_by_name!(
    Options,
    check = |o| {
        if !o.night_and_day && o.turn_limit == 0 {
            Err("a game without night and day needs a turn limit of at least one turn".to_string())
        } else {
            Ok(())
        }
    },
    [
        reroll_corner_labels,
        separate_fields,
        shared_endpoints,
        four_connected_routes,
        river_flows_start_to_finish,
        extra_d4_3_veteran,
        disband_cavalry_remnant,
        sharpshooters_per_company,
        improved_muskets,
        broken_ground_soft,
        initiative_by_batteries,
        column_anywhere,
        skirmish_interpenetration_ff,
        column_may_charge,
        charge_interval_four,
        charge_distance_normal_rate,
        boats_metric,
        boat_dice_per_figure,
        boat_d6_test,
        ff_affects_morale,
        skirmish_dice_round_up,
        column_two_dice,
        bow_short,
        no_open_save,
        limbered_crew_formed_save,
        only_crew_at_gun,
        pooled_melee,
        officers_roll_in_melee,
        officer_skirmisher_target,
        officer_column_rate,
        towards_enemy_distance_only,
        officer_check_per_volley,
        removed_officer_no_vp,
        division_killed_double_count,
        remove_below_minimum,
        structure_hits,
        strict_farm_bridge_control,
        occupation_by_half_unit,
        contested_zone_neither,
        zones_run_outward,
        vp_for_morale_removed,
        vp_for_hazard_losses,
        smoke_whatever_wind,
        flank_numbering_south_to_north,
        flank_roll_per_group,
        flank_marches,
        night_and_day,
        wind_and_smoke,
        boats,
        baggage,
        extra_officers_count,
        indians,
        turn_limit,
    ]
);
