//! Every reading the rules leave open, as a switch. `Options::default()` is the reading this crate takes.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Who gets the improved 90 cm musket in a scenario dated after 1862 (D8-SET-34).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum ImprovedMuskets {
    /// A quarter of the foot regiments (rounded down), taken from the Experienced ones.
    #[default]
    Quarter,
    /// Every Experienced regiment.
    AllExperienced,
    /// None.
    None,
}

/// How a structure-damage D6 counts as a hit (D8-STR-05).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum StructureHits {
    /// A die that meets the battery's class score (Vet 3+, Exp 4+, Raw 5+).
    #[default]
    ClassScore,
    /// Every pip rolled is a hit.
    Pips,
    /// Every die of 4 or more is a hit.
    FourUp,
}

/// The rules' open readings. `Options::default()` is the reading the crate documents; build one with
/// `Options::default()` and change the fields you want (the struct is `#[non_exhaustive]`).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct Options {
    /// D8-SET-05: re-roll 19 and 20 on the endpoint D20 (every perimeter square 1/18). Default: they name the
    /// corners, squares 30 and 1.
    pub reroll_corner_labels: bool,
    /// D8-SET-06: the two enclosed fields are separate pieces (9 pieces). Default: inside the farm squares (7).
    pub separate_fields: bool,
    /// D8-SET-08: road and river share one pair of endpoint rolls. Default: a pair each.
    pub shared_endpoints: bool,
    /// D8-SET-10: routes use 4-connectivity (orthogonal steps only). Default: 8-connectivity.
    pub four_connected_routes: bool,
    /// D8-SET-13: the river always flows from its start to its finish. Default: from the more northerly end.
    pub river_flows_start_to_finish: bool,
    /// D8-SET-19: a D4 of 3 gives Raw, Experienced, Veteran. Default: Raw, Experienced, Experienced.
    pub extra_d4_3_veteran: bool,
    /// D8-SET-24: a Confederate cavalry remnant under 4 figures is disbanded. Default: such an exchange is refused.
    pub disband_cavalry_remnant: bool,
    /// D8-SET-25: each sharpshooter company is its own unit with its own class roll. Default: one unit.
    pub sharpshooters_per_company: bool,
    /// D8-SET-34: who gets the 90 cm musket after 1862.
    pub improved_muskets: ImprovedMuskets,
    /// D8-SET-16: broken ground is soft cover. Default true; false makes it open.
    pub broken_ground_soft: bool,
    /// D8-SEQ-02: artillery ties for the first move are decided by batteries, not artillerymen.
    pub initiative_by_batteries: bool,
    /// D8-MOV-06: infantry and cavalry columns may move off roads. Default: columns only on roads.
    pub column_anywhere: bool,
    /// D8-MOV-08, D8-FRM-02: skirmishers passing through formed units (or the reverse) give both a formation fail.
    pub skirmish_interpenetration_ff: bool,
    /// D8-MOV-20: columns may charge too. Default: line only.
    pub column_may_charge: bool,
    /// D8-MOV-21: after a charge on move t the next is allowed on t+4. Default: t+3.
    pub charge_interval_four: bool,
    /// D8-MOV-22: a charge must cover more than ¾ of the normal rate. Default: ¾ of the charge rate.
    pub charge_distance_normal_rate: bool,
    /// D8-MOV-24: boats move 30/15 cm. Default: 12"/6" exactly (30.48/15.24 cm).
    pub boats_metric: bool,
    /// D8-MOV-25: a large boat's shooters roll a D8 a figure. Default: a D8 per 2 figures.
    pub boat_dice_per_figure: bool,
    /// D8-MOV-26: boarding or leaving a boat is tested at once on a D6. Default: a formation fail, tested as usual.
    pub boat_d6_test: bool,
    /// D8-FRM-05, D8-MOR-08: −1 morale point with a formation fail. Default: no effect.
    pub ff_affects_morale: bool,
    /// D8-FIR-06: an odd skirmisher rounds up. Default: down.
    pub skirmish_dice_round_up: bool,
    /// D8-FIR-06: a column rolls 2D8 (one a front figure). Default: 1D8.
    pub column_two_dice: bool,
    /// D8-FIR-04: the bow's 20 cm is short range. Default: long.
    pub bow_short: bool,
    /// D8-FIR-12: troops in the open get no save. Default: the Open row is used.
    pub no_open_save: bool,
    /// D8-ART-07: limbered crews save as formed troops in their actual cover. Default: as skirmishers in soft cover.
    pub limbered_crew_formed_save: bool,
    /// D8-ART-01: only crew in base contact with the gun fire. Default: every surviving artilleryman.
    pub only_crew_at_gun: bool,
    /// D8-MEL-09: melee successes are pooled, up to the defenders in contact. Default: per defender.
    pub pooled_melee: bool,
    /// D8-MEL-03: an officer in contact rolls a D10. Default: officers do not roll.
    pub officers_roll_in_melee: bool,
    /// D8-CMD-09: a lone officer is a skirmisher target. Default: formed.
    pub officer_skirmisher_target: bool,
    /// D8-CMD-07: mounted officers may move at the cavalry column rate (60 cm). Default: 30 cm.
    pub officer_column_rate: bool,
    /// D8-CMD-04: "towards the enemy" uses only the nearest-enemy distance. Default: base line or nearest enemy.
    pub towards_enemy_distance_only: bool,
    /// D8-CAS-03: the attached officer is checked after each volley. Default: once for the Firing phase.
    pub officer_check_per_volley: bool,
    /// D8-CAS-03: an officer removed with his unit scores no VP. Default: he counts as killed.
    pub removed_officer_no_vp: bool,
    /// D8-MOR-04: a killed Divisional Officer also counts as "more than 60 cm away". Default: only "killed".
    pub division_killed_double_count: bool,
    /// D8-SET-37: a unit below 4 figures is removed at once. Default: the minimum binds only at generation.
    pub remove_below_minimum: bool,
    /// D8-STR-05: what a structure-damage D6 counts as.
    pub structure_hits: StructureHits,
    /// D8-VIC-02, D8-VIC-03: farms and the bridge need figures in or on them. Default: occupying the square.
    pub strict_farm_bridge_control: bool,
    /// D8-VIC-07: a square counts as held by the enemy only if half an enemy unit is there. Default: any figure.
    pub occupation_by_half_unit: bool,
    /// D8-VIC-07: an empty zone square claimed by both sides counts for neither. Default: for both.
    pub contested_zone_neither: bool,
    /// D8-VIC-07: zones run up to 5 squares out to each side and the rear. Default: the 5 neighbours.
    pub zones_run_outward: bool,
    /// D8-VIC-04: figures of units removed by morale count for the enemy's VP. Default: not.
    pub vp_for_morale_removed: bool,
    /// D8-CAS-06: jump and drowning losses count for the enemy's VP. Default true; false leaves them out.
    pub vp_for_hazard_losses: bool,
    /// D8-ENV-06: smoke builds up whatever the wind. Default: only when there is no wind.
    pub smoke_whatever_wind: bool,
    /// D8-OPT-02: flank squares are numbered south to north for both sides. Default: from each side's base line.
    pub flank_numbering_south_to_north: bool,
    /// D8-OPT-03: one arrival roll for the whole flank force. Default: a roll per unit.
    pub flank_roll_per_group: bool,
    /// D8-OPT-01: flank marches are in play. Default off.
    pub flank_marches: bool,
    /// D8-ENV-02 to D8-ENV-04: the night/day roll sets the game's length. Default on.
    pub night_and_day: bool,
    /// D8-ENV-05, D8-ENV-06: wind and smoke. Default on.
    pub wind_and_smoke: bool,
    /// D8-MOV-24 to D8-MOV-26: boats. Default on.
    pub boats: bool,
    /// D8-SET-35, D8-VIC-06: baggage wagons. Default on.
    pub baggage: bool,
    /// D8-OPT-06: officers beyond those required give influence and VP. Default: decorative.
    pub extra_officers_count: bool,
    /// D8-OPT-07: Indians may be fielded. Default off.
    pub indians: bool,
    /// D8-SEQ-06: the number of turns a player gets when night and day is off.
    pub turn_limit: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            reroll_corner_labels: false,
            separate_fields: false,
            shared_endpoints: false,
            four_connected_routes: false,
            river_flows_start_to_finish: false,
            extra_d4_3_veteran: false,
            disband_cavalry_remnant: false,
            sharpshooters_per_company: false,
            improved_muskets: ImprovedMuskets::Quarter,
            broken_ground_soft: true,
            initiative_by_batteries: false,
            column_anywhere: false,
            skirmish_interpenetration_ff: false,
            column_may_charge: false,
            charge_interval_four: false,
            charge_distance_normal_rate: false,
            boats_metric: false,
            boat_dice_per_figure: false,
            boat_d6_test: false,
            ff_affects_morale: false,
            skirmish_dice_round_up: false,
            column_two_dice: false,
            bow_short: false,
            no_open_save: false,
            limbered_crew_formed_save: false,
            only_crew_at_gun: false,
            pooled_melee: false,
            officers_roll_in_melee: false,
            officer_skirmisher_target: false,
            officer_column_rate: false,
            towards_enemy_distance_only: false,
            officer_check_per_volley: false,
            removed_officer_no_vp: false,
            division_killed_double_count: false,
            remove_below_minimum: false,
            structure_hits: StructureHits::ClassScore,
            strict_farm_bridge_control: false,
            occupation_by_half_unit: false,
            contested_zone_neither: false,
            zones_run_outward: false,
            vp_for_morale_removed: false,
            vp_for_hazard_losses: true,
            smoke_whatever_wind: false,
            flank_numbering_south_to_north: false,
            flank_roll_per_group: false,
            flank_marches: false,
            night_and_day: true,
            wind_and_smoke: true,
            boats: true,
            baggage: true,
            extra_officers_count: false,
            indians: false,
            turn_limit: 28,
        }
    }
}
