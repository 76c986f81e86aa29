//! Random procedures by name, and the [`Options`] by name.
//!
//! [`catalogue`] lists the fire, melee, movement, formation, structure and sequence procedures with their
//! rule IDs and typed parameters (`acw odds d8 volley short_dice=10 save=5`), and the environment rolls of
//! the set-up (`night-day`, `game-length`, `wind`) and its army rolls (`extra-regiments` to `army-figures`,
//! `roll-off`), its map rolls (`terrain-in-square`, `end-point`, `feature-ends`, `map-choice`) and the
//! flank march's arrival (`flank-arrival`): every procedure of the crate.
//!
//! The options are set by field name through [`acw_core::catalogue::OptionsByName`] (`turn_limit=8`,
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

use crate::army::{
    ArmyFigures, BatteryCount, BatteryType, CavalryCompanies, ClassRoll, ExtraRegiments,
    FootStrength, Player, RegimentSize, RollOff, SharpshooterClass,
};
use crate::environment::{GameLength, NightDay, Wind};
use crate::fire::{OfficerCheck, Saves, ToHit, Volley};
use crate::flank::FlankArrival;
use crate::formation::FormationTest;
use crate::map::{EndPoint, FeatureEnds, MapChoice, Square, TerrainInSquare};
use crate::melee::{Melee, Pairing};
use crate::movement::Hazard;
use crate::options::{ImprovedMuskets, Options, StructureHits};
use crate::sequence::FirstMove;
use crate::structures::Bombard;
use crate::tables::{Band, Class};
use acw_core::catalogue::{Built, Catalogue, Entry, Param, Values};
use acw_core::{BySide, Die, Side};

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

const CLASSES: &[&str] = &["raw", "experienced", "veteran"];

fn class(v: &Values) -> Class {
    match v.choice("class") {
        0 => Class::Raw,
        2 => Class::Veteran,
        _ => Class::Experienced,
    }
}

fn int<T: TryFrom<i64>>(v: &Values, key: &str) -> Result<T, String> {
    T::try_from(v.int(key)).map_err(|_| format!("{key} is out of range"))
}

fn save(v: &Values) -> Result<Option<u8>, String> {
    let s: u8 = int(v, "save")?;
    Ok((s > 0).then_some(s))
}

fn to_hit(v: &Values) -> Result<Built, String> {
    Ok(Built::new(ToHit {
        dice: int(v, "dice")?,
        need: int(v, "need")?,
    }))
}

fn saves(v: &Values) -> Result<Built, String> {
    Ok(Built::new(Saves {
        hits: int(v, "hits")?,
        save: save(v)?,
    }))
}

fn volley(v: &Values) -> Result<Built, String> {
    Ok(Built::new(Volley {
        short: ToHit {
            dice: int(v, "short_dice")?,
            need: int(v, "short_need")?,
        },
        long: ToHit {
            dice: int(v, "long_dice")?,
            need: int(v, "long_need")?,
        },
        save: save(v)?,
    }))
}

fn officer(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        OfficerCheck {
            casualties: int(v, "casualties")?,
        },
        |&killed| {
            if killed {
                "the officer killed"
            } else {
                "the officer unhurt"
            }
            .to_string()
        },
    ))
}

fn melee(v: &Values) -> Result<Built, String> {
    let pairing = Pairing {
        attackers: int(v, "attackers")?,
        need: int(v, "need")?,
    };
    Ok(Built::new(Melee {
        pairings: vec![pairing; int::<usize>(v, "defenders")?],
        pooled: v.bool("pooled"),
    }))
}

fn formation(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        FormationTest {
            class: class(v),
            d6: v.bool("d6"),
        },
        |&ok| if ok { "passes" } else { "fails" }.to_string(),
    ))
}

fn hazard(v: &Values) -> Result<Built, String> {
    Ok(Built::new(Hazard {
        figures: int(v, "figures")?,
        kills_on: int(v, "kills_on")?,
    }))
}

fn first_move(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        FirstMove {
            cavalry: BySide::new(int(v, "union_cavalry")?, int(v, "confederate_cavalry")?),
            artillery: BySide::new(int(v, "union_artillery")?, int(v, "confederate_artillery")?),
        },
        |side| format!("the {side} side moves first"),
    ))
}

fn bombard(v: &Values) -> Result<Built, String> {
    Ok(Built::new(Bombard {
        dice: int(v, "dice")?,
        class: class(v),
        band: if v.choice("band") == 1 {
            Band::Long
        } else {
            Band::Short
        },
        rule: match v.choice("rule") {
            1 => StructureHits::Pips,
            2 => StructureHits::FourUp,
            _ => StructureHits::ClassScore,
        },
    }))
}

static ENTRIES: &[Entry] = &[
    Entry {
        name: "volley",
        rules: &["D8-FIR-14", "D8-FIR-10", "D8-FIR-13"],
        summary: "a whole volley: the to-hit D8s at short and long range, then a D6 save for every hit",
        params: &[
            Param::int("short_dice", 0, 100, 10, "D8s at short range"),
            Param::int("short_need", 1, 9, 5, "the face they need"),
            Param::int("long_dice", 0, 100, 0, "D8s at long range"),
            Param::int("long_need", 1, 9, 6, "the face they need"),
            Param::int("save", 0, 7, 0, "the D6 save score (0: no save)"),
        ],
        build: volley,
    },
    Entry {
        name: "to-hit",
        rules: &["D8-FIR-10"],
        summary: "a group of D8s that all need the same face: the hits",
        params: &[
            Param::int("dice", 0, 100, 10, "D8s rolled"),
            Param::int("need", 1, 9, 5, "the face they need"),
        ],
        build: to_hit,
    },
    Entry {
        name: "saves",
        rules: &["D8-FIR-13", "D8-ART-06"],
        summary: "a D6 save for each hit figure: the casualties",
        params: &[
            Param::int("hits", 0, 100, 4, "hit figures"),
            Param::int("save", 0, 7, 5, "the D6 save score (0: no save)"),
        ],
        build: saves,
    },
    Entry {
        name: "officer-check",
        rules: &["D8-CAS-03"],
        summary: "the attached officer's check when his unit takes casualties from fire",
        params: &[Param::int(
            "casualties",
            0,
            100,
            3,
            "casualties the unit took",
        )],
        build: officer,
    },
    Entry {
        name: "melee",
        rules: &["D8-MEL-09"],
        summary: "a whole melee's kills: each defender dies if any attacker's D10 succeeds (or pooled)",
        params: &[
            Param::int("defenders", 1, 40, 4, "defenders in contact"),
            Param::int("attackers", 1, 4, 2, "attackers on each defender"),
            Param::int("need", 1, 11, 6, "the D10 face each attacker needs"),
            Param::bool("pooled", false, "every success counts, up to the defenders"),
        ],
        build: melee,
    },
    Entry {
        name: "formation-test",
        rules: &["D8-FRM-04"],
        summary: "the formation-fail test: a D8 needing Vet 3+, Exp 4+, Raw 5+ (or a D6 under the boat option)",
        params: &[
            Param::choice("class", CLASSES, 1, "the unit's class"),
            Param::bool("d6", false, "an immediate D6 (the boat option)"),
        ],
        build: formation,
    },
    Entry {
        name: "hazard",
        rules: &["D8-MOV-18", "D8-MOV-19"],
        summary: "a D6 per mounted figure crossing a hazard: the figures lost",
        params: &[
            Param::int("figures", 0, 100, 6, "mounted figures crossing"),
            Param::int(
                "kills_on",
                1,
                6,
                1,
                "the highest face that kills (1 a fence, 2 a river)",
            ),
        ],
        build: hazard,
    },
    Entry {
        name: "first-move",
        rules: &["D8-SEQ-02"],
        summary: "who moves first: more cavalry, then more artillery, then a D10 roll-off",
        params: &[
            Param::int("union_cavalry", 0, 200, 0, "Union cavalry figures"),
            Param::int(
                "confederate_cavalry",
                0,
                200,
                0,
                "Confederate cavalry figures",
            ),
            Param::int("union_artillery", 0, 200, 0, "Union artillerymen"),
            Param::int(
                "confederate_artillery",
                0,
                200,
                0,
                "Confederate artillerymen",
            ),
        ],
        build: first_move,
    },
    Entry {
        name: "bombard",
        rules: &["D8-STR-05"],
        summary: "a battery's damage roll at a structure: the points scored",
        params: &[
            Param::int(
                "dice",
                1,
                60,
                6,
                "D6s rolled (2 an artilleryman for a field gun, 3 for a heavy gun)",
            ),
            Param::choice("class", CLASSES, 1, "the battery's class"),
            Param::choice("band", &["short", "long"], 0, "the range band"),
            Param::choice(
                "rule",
                &["class-score", "pips", "four-up"],
                0,
                "what a hit is",
            ),
        ],
        build: bombard,
    },
    Entry {
        name: "night-day",
        rules: &["D8-ENV-02", "D8-ENV-03", "D8-ENV-04"],
        summary: "the night/day roll: a D6 for the season, 4D6 for the start hour (re-rolled outside 7-16)",
        params: &[],
        build: night_day,
    },
    Entry {
        name: "game-length",
        rules: &["D8-ENV-04"],
        summary: "the game's length in turns a player, from the night/day roll",
        params: &[],
        build: game_length,
    },
    Entry {
        name: "wind",
        rules: &["D8-ENV-05"],
        summary: "the wind: a D6, 1 no wind, 2-6 wind that blows the smoke away",
        params: &[],
        build: wind,
    },
    Entry {
        name: "extra-regiments",
        rules: &["D8-SET-19"],
        summary: "the D4 of extra foot regiments: how many Raw, Experienced and Veteran",
        params: &[VETERAN_3],
        build: extra_regiments,
    },
    Entry {
        name: "regiment-size",
        rules: &["D8-SET-20"],
        summary: "a foot regiment's figures: 10 plus a D10, D8 or D5 by class",
        params: &[Param::choice("class", CLASSES, 1, "the regiment's class")],
        build: regiment_size,
    },
    Entry {
        name: "cavalry-companies",
        rules: &["D8-SET-21", "D8-SET-22"],
        summary: "a side's cavalry companies: a D12 (Union) or D10 (Confederates)",
        params: &[SIDE],
        build: cavalry_companies,
    },
    Entry {
        name: "sharpshooter-class",
        rules: &["D8-SET-25"],
        summary: "the sharpshooters' class: D2, 1 Veteran, 2 Experienced",
        params: &[],
        build: sharpshooter_class,
    },
    Entry {
        name: "class-roll",
        rules: &["D8-SET-27", "D8-SET-30"],
        summary: "a cavalry unit's or battery's class: D6, 1-2 Raw, 3-4 Experienced, 5-6 Veteran",
        params: &[],
        build: class_roll,
    },
    Entry {
        name: "battery-count",
        rules: &["D8-SET-28"],
        summary: "the number of batteries: a D4",
        params: &[],
        build: battery_count,
    },
    Entry {
        name: "battery-type",
        rules: &["D8-SET-29"],
        summary: "a battery's type: D6, 1-4 field, 5-6 heavy",
        params: &[],
        build: battery_type,
    },
    Entry {
        name: "foot-strength",
        rules: &["D8-SET-18", "D8-SET-19", "D8-SET-20"],
        summary: "a side's foot in figures: the regiments with the extra D4, each 10 plus its die",
        params: &[VETERAN_3],
        build: foot_strength,
    },
    Entry {
        name: "army-figures",
        rules: &["D8-SET-36"],
        summary: "a side's whole army in figures: foot, cavalry companies and batteries with their crews",
        params: &[SIDE, VETERAN_3],
        build: army_figures,
    },
    Entry {
        name: "roll-off",
        rules: &["D8-SET-03", "D8-ENV-02"],
        summary: "a roll-off between two players, one die each, ties rolled again",
        params: &[Param::choice(
            "die",
            &["d6", "d10"],
            0,
            "the die each player rolls",
        )],
        build: roll_off,
    },
    Entry {
        name: "terrain-in-square",
        rules: &["D8-SET-07"],
        summary: "the terrain piece one grid square holds after every piece is placed by D30",
        params: &[
            Param::int("square", 1, 30, 1, "the grid square"),
            Param::bool("separate_fields", false, "fields are separate pieces"),
        ],
        build: terrain_in_square,
    },
    Entry {
        name: "end-point",
        rules: &["D8-SET-05", "D8-SET-08"],
        summary: "one end of a road or river on the map's edge",
        params: &[CORNERS],
        build: end_point,
    },
    Entry {
        name: "feature-ends",
        rules: &["D8-SET-08", "D8-SET-09"],
        summary: "both ends of a road or river, the second re-rolled onto another square",
        params: &[CORNERS],
        build: feature_ends,
    },
    Entry {
        name: "map-choice",
        rules: &["D8-SET-14"],
        summary: "whose map is played: the umpire's D3, 1 the Union's, 2 the Confederates', 3 his own",
        params: &[],
        build: map_choice,
    },
    Entry {
        name: "flank-arrival",
        rules: &["D8-OPT-03"],
        summary: "when and where a flank march arrives",
        params: &[],
        build: flank_arrival,
    },
];

const CORNERS: Param = Param::bool(
    "reroll_corner_labels",
    false,
    "re-roll the corner labels of the edge",
);

fn terrain_in_square(v: &Values) -> Result<Built, String> {
    let square = Square::new(int(v, "square")?).map_err(|e| e.to_string())?;
    Ok(Built::labelled(
        TerrainInSquare {
            square,
            separate_fields: v.bool("separate_fields"),
        },
        |p| p.map_or_else(|| "open ground".to_string(), |p| p.to_string()),
    ))
}

fn end_point(v: &Values) -> Result<Built, String> {
    Ok(Built::new(EndPoint {
        reroll_corner_labels: v.bool("reroll_corner_labels"),
    }))
}

fn feature_ends(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        FeatureEnds {
            reroll_corner_labels: v.bool("reroll_corner_labels"),
        },
        |(a, b)| format!("{a} to {b}"),
    ))
}

fn map_choice(_: &Values) -> Result<Built, String> {
    Ok(Built::new(MapChoice))
}

fn flank_arrival(_: &Values) -> Result<Built, String> {
    Ok(Built::labelled(FlankArrival, |a| {
        format!("on move {}, square {}", a.on_move, a.square)
    }))
}

const VETERAN_3: Param = Param::bool(
    "d4_3_veteran",
    false,
    "the option reading a D4 of 3 as Raw, Experienced, Veteran",
);
const SIDE: Param = Param::choice("side", &["union", "confederate"], 0, "the side");

fn side(v: &Values) -> Side {
    if v.choice("side") == 1 {
        Side::Confederate
    } else {
        Side::Union
    }
}

fn extra_regiments(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        ExtraRegiments {
            d4_3_veteran: v.bool("d4_3_veteran"),
        },
        |&(r, e, x)| format!("{r} Raw, {e} Experienced, {x} Veteran"),
    ))
}

fn regiment_size(v: &Values) -> Result<Built, String> {
    Ok(Built::new(RegimentSize { class: class(v) }))
}

fn cavalry_companies(v: &Values) -> Result<Built, String> {
    Ok(Built::new(CavalryCompanies { side: side(v) }))
}

fn sharpshooter_class(_: &Values) -> Result<Built, String> {
    Ok(Built::new(SharpshooterClass))
}

fn class_roll(_: &Values) -> Result<Built, String> {
    Ok(Built::new(ClassRoll))
}

fn battery_count(_: &Values) -> Result<Built, String> {
    Ok(Built::new(BatteryCount))
}

fn battery_type(_: &Values) -> Result<Built, String> {
    Ok(Built::new(BatteryType))
}

fn foot_strength(v: &Values) -> Result<Built, String> {
    Ok(Built::new(FootStrength {
        d4_3_veteran: v.bool("d4_3_veteran"),
    }))
}

fn army_figures(v: &Values) -> Result<Built, String> {
    Ok(Built::new(ArmyFigures {
        side: side(v),
        d4_3_veteran: v.bool("d4_3_veteran"),
    }))
}

fn roll_off(v: &Values) -> Result<Built, String> {
    let die = if v.choice("die") == 1 {
        Die::D10
    } else {
        Die::D6
    };
    Ok(Built::labelled(RollOff { die }, |p| {
        match p {
            Player::First => "the first player",
            Player::Second => "the second player",
        }
        .to_string()
    }))
}

fn night_day(_: &Values) -> Result<Built, String> {
    Ok(Built::new(NightDay))
}

fn game_length(_: &Values) -> Result<Built, String> {
    Ok(Built::new(GameLength))
}

fn wind(_: &Values) -> Result<Built, String> {
    Ok(Built::labelled(Wind, |&w| {
        if w { "wind" } else { "no wind" }.to_string()
    }))
}

/// Every random procedure of the rules, by name.
#[must_use]
pub fn catalogue() -> Catalogue {
    Catalogue::new("d8", ENTRIES)
}
