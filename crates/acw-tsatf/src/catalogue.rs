//! Random procedures by name, and the [`Options`] by name.
//!
//! [`catalogue`] lists every [`acw_core::Resolve`] procedure of this crate with its rule IDs and typed
//! parameters, built from text (`acw odds tsatf mass-fire row=veteran-musket figures=20`), the chained ones
//! included: a whole melee to its winner (`melee`), a volley to its killed and wounded (`volley`,
//! `type-volley`), and the next hit card of a deck partly drawn (`deck-hit-card`, the cards already drawn
//! given by effect and class).
//!
//! The options are set by field name through [`acw_core::catalogue::OptionsByName`] (`turn_limit=8`,
//! `fire_system=type-firing`): every field but `split_cavalry_dice` and `column_frontage`, which take a
//! value made of parts (a choice or none; two frontages) and are set in a scenario file.
//!
//! ```
//! use acw_core::catalogue::OptionsByName;
//! use acw_tsatf::catalogue::catalogue;
//!
//! // A Major Morale test against 7 on 2D6: 21/36 pass.
//! let table = catalogue().build("morale-test", "number=7")?.table();
//! assert!((table.p("passes") - 21.0 / 36.0).abs() < 1e-12);
//!
//! use acw_tsatf::options::{FireSystem, Options};
//!
//! let mut options = Options::default();
//! options.set_pair("fire_system=type-firing")?;
//! assert_eq!(options.fire_system, FireSystem::TypeFiring);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::fire::{
    AmmunitionRoll, DeckHitCard, Fire, HitCard, MassFire, Personal, PersonalShot, TypeFire, Volley,
};
use crate::melee::{CloseTest, ColoursRoll, Combat, Melee, MeleeSide, MeleeWound, StragglerRoll};
use crate::morale::{MoraleTest, RatingRoll, SixRoll};
use crate::movement::{Flight, LeaderlessDie, MoveDice, VehicleMove};
use crate::options::{
    AssaultColumn, BatteryFire, CasualtyTiming, CaughtFleeing, ColourRecovery, CompulsoryFirst,
    ConeAngle, EvadedCharge, FigureChoice, FireSystem, FleeEdge, GatlingFigures, Hd6Stacking,
    HitDeck, IndiansLine, IndividualFireCards, MajorScope, MeleeWoundAsMiss, MissingCategory,
    Options, RallyRouted, Remainder, RoadB, RoadPartial, RoughPenalty, Rounding, SequencingDeck,
    SkirmishCharge, Tie, WoundPolicy,
};
use crate::sequence::CardOrder;
use crate::tables::{Category, HitEffect};
use crate::tables::{FireRow, Quality, TargetClass, TypeFireRow};
use acw_core::cards::Card;
use acw_core::catalogue::{Built, Catalogue, Entry, Param, Values};
use acw_core::{Dice, Dist, Resolve};
use strum::IntoEnumIterator;

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

const FIRE_ROWS: &[&str] = &[
    "green-musket",
    "average-musket",
    "veteran-musket",
    "crack-musket",
    "cavalry-carbine",
    "cavalry-pistol",
    "cavalry-shotgun",
    "artillery-short",
    "artillery-long",
    "canister",
    "gatling",
];
const TYPE_ROWS: &[&str] = &[
    "green",
    "average",
    "veteran",
    "crack",
    "cavalry",
    "artillery-shot",
    "canister-gatling",
];
const CLASSES: &[&str] = &["i", "ii", "iii", "iv"];
const QUALITIES: &[&str] = &["green", "average", "veteran", "crack", "indians"];

fn nth<T: IntoEnumIterator>(v: &Values, key: &str) -> Result<T, String> {
    T::iter()
        .nth(v.choice(key))
        .ok_or_else(|| format!("{key} is out of range"))
}

fn int<T: TryFrom<i64>>(v: &Values, key: &str) -> Result<T, String> {
    T::try_from(v.int(key)).map_err(|_| format!("{key} is out of range"))
}

fn pass_label(ok: &bool) -> String {
    if *ok { "passes" } else { "fails" }.to_string()
}

fn mass_fire(v: &Values) -> Result<Built, String> {
    let o = Options::default();
    let row: FireRow = nth(v, "row")?;
    Ok(Built::new(MassFire {
        row,
        class: nth::<TargetClass>(v, "class")?,
        figures: int(v, "figures")?,
        remainder: o.remainder,
        green_class3_pattern: o.green_class3_pattern,
    }))
}

fn type_fire(v: &Values) -> Result<Built, String> {
    Ok(Built::new(TypeFire {
        row: nth::<TypeFireRow>(v, "row")?,
        class: nth::<TargetClass>(v, "class")?,
        dice: int(v, "dice")?,
        no_effect: false,
    }))
}

fn morale_test(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        MoraleTest {
            number: int(v, "number")?,
            modifier: int(v, "modifier")?,
        },
        pass_label,
    ))
}

fn close_test(v: &Values) -> Result<Built, String> {
    let score: u8 = int(v, "score")?;
    Ok(Built::labelled(
        CloseTest {
            score: (score > 0).then_some(score),
            modifier: int(v, "modifier")?,
            always_ignores_mods: Options::default().always_ignores_mods,
        },
        pass_label,
    ))
}

fn combat(v: &Values) -> Result<Built, String> {
    Ok(Built::new(Combat {
        modifier: int(v, "modifier")?,
    }))
}

fn move_dice(v: &Values) -> Result<Built, String> {
    Ok(Built::new(MoveDice {
        dice: int(v, "dice")?,
        drops: int(v, "drops")?,
    }))
}

fn stragglers(v: &Values) -> Result<Built, String> {
    let (charging, may, starting): (u16, u16, u16) = (
        int(v, "charging")?,
        int(v, "may_straggle")?,
        int(v, "starting")?,
    );
    if may > charging || charging > starting {
        return Err(
            "the figures that may straggle are among those charging, who are among the unit's starting figures"
                .into(),
        );
    }
    Ok(Built::labelled(
        StragglerRoll {
            charging,
            may_straggle: may,
            starting,
        },
        |(n, halted)| {
            if *halted {
                format!("{n} straggle; the charge halts")
            } else {
                format!("{n} straggle")
            }
        },
    ))
}

fn leaderless(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        LeaderlessDie {
            quality: nth::<Quality>(v, "quality")?,
        },
        |&stopped| if stopped { "may not move" } else { "moves" }.to_string(),
    ))
}

fn ammunition(_: &Values) -> Result<Built, String> {
    Ok(Built::new(AmmunitionRoll))
}

fn hit_card(_: &Values) -> Result<Built, String> {
    Ok(Built::labelled(HitCard, |(effect, who)| {
        format!("{who}: {effect}")
    }))
}

fn colours(_: &Values) -> Result<Built, String> {
    Ok(Built::labelled(ColoursRoll, pass_label))
}

fn rating(_: &Values) -> Result<Built, String> {
    Ok(Built::new(RatingRoll))
}

fn six(_: &Values) -> Result<Built, String> {
    Ok(Built::labelled(SixRoll, |&ok| {
        if ok { "a 6" } else { "no 6" }.to_string()
    }))
}

fn flight(_: &Values) -> Result<Built, String> {
    Ok(Built::new(Flight))
}

const WOUNDS: Param = Param::choice(
    "wounds",
    &["kills", "misses", "campaign"],
    0,
    "wounds count as kills or misses (one-off games), or are kept (campaign)",
);

fn volley_label(&(killed, wounded): &(u16, u16)) -> String {
    format!("{killed} killed, {wounded} wounded")
}

fn volley(v: &Values) -> Result<Built, String> {
    let o = Options::default();
    let fire = Fire::Mass(MassFire {
        row: nth::<FireRow>(v, "row")?,
        class: nth::<TargetClass>(v, "class")?,
        figures: int(v, "figures")?,
        remainder: o.remainder,
        green_class3_pattern: o.green_class3_pattern,
    });
    Ok(Built::labelled(
        Volley {
            fire,
            wounds: nth(v, "wounds")?,
        },
        volley_label,
    ))
}

fn type_volley(v: &Values) -> Result<Built, String> {
    let fire = Fire::Type(TypeFire {
        row: nth::<TypeFireRow>(v, "row")?,
        class: nth::<TargetClass>(v, "class")?,
        dice: int(v, "dice")?,
        no_effect: false,
    });
    Ok(Built::labelled(
        Volley {
            fire,
            wounds: nth(v, "wounds")?,
        },
        volley_label,
    ))
}

fn melee(v: &Values) -> Result<Built, String> {
    let side = |p: &str| -> Result<MeleeSide, String> {
        Ok(MeleeSide {
            cadre: int(v, &format!("{p}_cadre"))?,
            others: int(v, &format!("{p}_others"))?,
            modifier: int(v, &format!("{p}_modifier"))?,
            cadre_first: v.bool(&format!("{p}_cadre_first")),
        })
    };
    let (attackers, defenders) = (side("attacker")?, side("defender")?);
    if u16::from(attackers.cadre) + u16::from(attackers.others) == 0
        || u16::from(defenders.cadre) + u16::from(defenders.others) == 0
    {
        return Err("each side of a melee needs at least one figure fighting".into());
    }
    let wound = match v.choice("wound") {
        0 => MeleeWound::Killed,
        1 => MeleeWound::Wounded,
        2 => MeleeWound::NoEffect,
        _ => MeleeWound::PushedBack,
    };
    let front: u16 = int(v, "front")?;
    Ok(Built::new(Melee {
        attackers,
        defenders,
        tie: nth(v, "tie")?,
        wound,
        overlap: v.bool("overlap"),
        front: if front == 0 { u16::MAX } else { front },
    }))
}

/// The next hit card of one deck with some cards already drawn: [`DeckHitCard`] over the cards left, owned
/// so it can be built from text. The cards drawn are given by what they read as (TSATF-FIR-14), the lowest
/// ranks of each group first: which of equal-reading cards went makes no difference to the odds.
#[derive(Clone, Debug, PartialEq, Eq)]
struct DeckLeft(Vec<Card>);

impl Resolve for DeckLeft {
    type Outcome = (HitEffect, Category);
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> (HitEffect, Category) {
        DeckHitCard { pile: &self.0 }.roll(dice)
    }
    fn odds(&self) -> Dist<(HitEffect, Category)> {
        DeckHitCard { pile: &self.0 }.odds()
    }
}

/// The groups of the hit deck by what a card reads as, with the parameter naming how many of each were drawn.
const DECK_GROUPS: [(&str, HitEffect, Category); 7] = [
    ("drawn_misses", HitEffect::Miss, Category::Enlisted),
    (
        "drawn_killed_enlisted",
        HitEffect::Killed,
        Category::Enlisted,
    ),
    ("drawn_killed_key", HitEffect::Killed, Category::Key),
    ("drawn_killed_cadre", HitEffect::Killed, Category::Cadre),
    (
        "drawn_wounded_enlisted",
        HitEffect::Wounded,
        Category::Enlisted,
    ),
    ("drawn_wounded_key", HitEffect::Wounded, Category::Key),
    ("drawn_wounded_cadre", HitEffect::Wounded, Category::Cadre),
];

fn deck_hit_card(v: &Values) -> Result<Built, String> {
    let mut drawn = [0usize; 7];
    for (k, (key, ..)) in DECK_GROUPS.iter().enumerate() {
        drawn[k] = int(v, key)?;
    }
    let group = |card: Card| {
        let (e, c) = crate::tables::read_hit_card(card);
        let c = if e == HitEffect::Miss {
            Category::Enlisted
        } else {
            c
        };
        DECK_GROUPS
            .iter()
            .position(|&(_, ge, gc)| ge == e && gc == c)
    };
    let mut left = Vec::with_capacity(52);
    for &card in &crate::fire::FULL_DECK {
        let Some(g) = group(card) else {
            left.push(card);
            continue;
        };
        if drawn[g] > 0 {
            drawn[g] -= 1;
        } else {
            left.push(card);
        }
    }
    if drawn.iter().any(|&n| n > 0) {
        return Err("more cards of a kind drawn than the deck holds".into());
    }
    Ok(Built::labelled(DeckLeft(left), |(effect, who)| {
        format!("{who}: {effect}")
    }))
}

static ENTRIES: &[Entry] = &[
    Entry {
        name: "volley",
        rules: &[
            "TSATF-FIR-10",
            "TSATF-FIR-14",
            "TSATF-FIR-18",
            "TSATF-CAS-03",
        ],
        summary: "a unit's mass fire with a hit card for every hit: figures killed and wounded",
        params: &[
            Param::choice("row", FIRE_ROWS, 1, "the chart row"),
            Param::choice("class", CLASSES, 0, "the target class"),
            Param::int("figures", 1, 200, 20, "figures firing (12 per gun)"),
            WOUNDS,
        ],
        build: volley,
    },
    Entry {
        name: "type-volley",
        rules: &[
            "TSATF-FIR-23",
            "TSATF-FIR-14",
            "TSATF-FIR-18",
            "TSATF-CAS-03",
        ],
        summary: "Type Firing with a hit card for every hit: figures killed and wounded",
        params: &[
            Param::choice("row", TYPE_ROWS, 1, "the Type Firing row"),
            Param::choice("class", CLASSES, 0, "the target class"),
            Param::int("dice", 1, 60, 10, "D20 rolled"),
            WOUNDS,
        ],
        build: type_volley,
    },
    Entry {
        name: "melee",
        rules: &[
            "TSATF-MEL-14",
            "TSATF-MEL-15",
            "TSATF-MEL-16",
            "TSATF-MEL-17",
        ],
        summary: "a whole melee fought out round by round: who wins, with how many still fighting",
        params: &[
            Param::int("attacker_cadre", 0, 10, 2, "attacking officers and NCOs"),
            Param::int("attacker_others", 0, 40, 6, "other attacking figures"),
            Param::int("attacker_modifier", -6, 6, 0, "the attackers' modifier"),
            Param::bool(
                "attacker_cadre_first",
                true,
                "attacking officers and NCOs fight first",
            ),
            Param::int("defender_cadre", 0, 10, 2, "defending officers and NCOs"),
            Param::int("defender_others", 0, 40, 6, "other defending figures"),
            Param::int("defender_modifier", -6, 6, 0, "the defenders' modifier"),
            Param::bool(
                "defender_cadre_first",
                true,
                "defending officers and NCOs fight first",
            ),
            Param::choice("tie", &["no-effect", "reroll"], 0, "what a tied bout does"),
            Param::choice(
                "wound",
                &["killed", "wounded", "no-effect", "pushed-back"],
                0,
                "what a wound does to a figure that loses a bout",
            ),
            Param::bool(
                "overlap",
                false,
                "figures left over fight an enemy already paired",
            ),
            Param::int(
                "front",
                0,
                100,
                0,
                "the most pairs fighting at once across an obstacle (0: no limit)",
            ),
        ],
        build: melee,
    },
    Entry {
        name: "deck-hit-card",
        rules: &["TSATF-FIR-14", "TSATF-FIR-15"],
        summary: "the next hit card from one deck with some cards already drawn (all 52 drawn: reshuffled)",
        params: &[
            Param::int("drawn_misses", 0, 26, 0, "spades and clubs drawn"),
            Param::int("drawn_killed_enlisted", 0, 9, 0, "hearts 2 to 10 drawn"),
            Param::int("drawn_killed_key", 0, 3, 0, "heart court cards drawn"),
            Param::int("drawn_killed_cadre", 0, 1, 0, "the ace of hearts drawn"),
            Param::int("drawn_wounded_enlisted", 0, 9, 0, "diamonds 2 to 10 drawn"),
            Param::int("drawn_wounded_key", 0, 3, 0, "diamond court cards drawn"),
            Param::int("drawn_wounded_cadre", 0, 1, 0, "the ace of diamonds drawn"),
        ],
        build: deck_hit_card,
    },
    Entry {
        name: "mass-fire",
        rules: &["TSATF-FIR-10", "TSATF-FIR-11"],
        summary: "one unit's mass fire: a D6 picks the band, hits are the figures over the chart's divisor",
        params: &[
            Param::choice("row", FIRE_ROWS, 1, "the chart row"),
            Param::choice("class", CLASSES, 0, "the target class"),
            Param::int("figures", 1, 200, 20, "figures firing (12 per gun)"),
        ],
        build: mass_fire,
    },
    Entry {
        name: "type-fire",
        rules: &["TSATF-FIR-22", "TSATF-FIR-23"],
        summary: "Type Firing: one D20 per figure against the row and class",
        params: &[
            Param::choice("row", TYPE_ROWS, 1, "the Type Firing row"),
            Param::choice("class", CLASSES, 0, "the target class"),
            Param::int("dice", 1, 60, 10, "D20 rolled"),
        ],
        build: type_fire,
    },
    Entry {
        name: "morale-test",
        rules: &["TSATF-MOR-03"],
        summary: "a 2D6 roll-low test: passed when 2D6 plus the modifier is at most the number",
        params: &[
            Param::int("number", 2, 12, 7, "the chart's number"),
            Param::int("modifier", -6, 6, 0, "the net modifier; positive is worse"),
        ],
        build: morale_test,
    },
    Entry {
        name: "close-test",
        rules: &["TSATF-MEL-08", "TSATF-MEL-10", "TSATF-MOR-10"],
        summary: "the 1D6 close-to-combat, stand-and-fight or rally test",
        params: &[
            Param::int("score", 0, 6, 4, "the top of the passing range (0: always)"),
            Param::int("modifier", -6, 6, 0, "the net modifier; positive is worse"),
        ],
        build: close_test,
    },
    Entry {
        name: "combat",
        rules: &["TSATF-MEL-15", "TSATF-MEL-16"],
        summary: "one figure against another: both roll 1D6 plus modifiers, the loser's die says his fate",
        params: &[Param::int(
            "modifier",
            -6,
            6,
            0,
            "the first figure's modifier less the second's",
        )],
        build: combat,
    },
    Entry {
        name: "move-dice",
        rules: &["TSATF-MOV-01", "TSATF-MOV-06", "TSATF-MOV-07"],
        summary: "a movement roll: D6s with the highest dropped, in inches",
        params: &[
            Param::int("dice", 1, 6, 3, "D6 rolled"),
            Param::int("drops", 0, 6, 0, "highest dice dropped"),
        ],
        build: move_dice,
    },
    Entry {
        name: "stragglers",
        rules: &["TSATF-MEL-02", "TSATF-MEL-06"],
        summary: "the straggler roll and the 50% halt of a charge",
        params: &[
            Param::int("charging", 0, 100, 20, "figures charging"),
            Param::int(
                "may_straggle",
                0,
                100,
                20,
                "of those, figures that may straggle",
            ),
            Param::int("starting", 1, 100, 20, "the unit's starting figures"),
        ],
        build: stragglers,
    },
    Entry {
        name: "leaderless-die",
        rules: &["TSATF-CMD-02"],
        summary: "a leaderless unit's die before it moves",
        params: &[Param::choice("quality", QUALITIES, 1, "the unit's class")],
        build: leaderless,
    },
    Entry {
        name: "ammunition",
        rules: &["TSATF-SET-09", "TSATF-FIR-24"],
        summary: "the ammunition supply: 1D10 turns of fire",
        params: &[],
        build: ammunition,
    },
    Entry {
        name: "hit-card",
        rules: &["TSATF-FIR-14", "TSATF-FIR-15"],
        summary: "one hit card from a full deck: the effect by suit, who is hit by rank",
        params: &[],
        build: hit_card,
    },
    Entry {
        name: "colours-roll",
        rules: &["TSATF-MEL-23", "TSATF-MEL-24"],
        summary: "the colours roll and the recovery roll: 4, 5 or 6 on 1D6",
        params: &[],
        build: colours,
    },
    Entry {
        name: "rating-roll",
        rules: &["TSATF-OPT-01"],
        summary: "a leader's rating roll, 1D6",
        params: &[],
        build: rating,
    },
    Entry {
        name: "six-roll",
        rules: &["TSATF-OPT-04", "TSATF-OPT-09"],
        summary: "a roll that succeeds only on a 6",
        params: &[],
        build: six,
    },
    Entry {
        name: "flight",
        rules: &["TSATF-MOV-13", "TSATF-MEL-22", "TSATF-MOR-08"],
        summary: "a 4D6 flight or rout, in inches",
        params: &[],
        build: flight,
    },
    Entry {
        name: "personal-shot",
        rules: &["TSATF-FIR-19", "TSATF-FIR-20"],
        summary: "one individual's shot, 1D6 read by the weapon",
        params: &[Param::choice(
            "weapon",
            &["pistol", "sniper-rifle"],
            0,
            "the individual's weapon",
        )],
        build: personal_shot,
    },
    Entry {
        name: "vehicle-move",
        rules: &["TSATF-OPT-08", "TSATF-OPT-10"],
        summary: "a gunboat's or a train's move: 2D6 to 4D6 inches by what it does",
        params: &[Param::choice(
            "mover",
            &[
                "gunboat-forward",
                "gunboat-against-current",
                "train-start-or-stop",
                "train-full-speed",
            ],
            0,
            "the vehicle and what it does",
        )],
        build: vehicle_move,
    },
    Entry {
        name: "card-order",
        rules: &["TSATF-SEQ-03", "TSATF-SEQ-04"],
        summary: "the order in which the sides' cards come up in one phase",
        params: &[
            Param::int("union", 0, 6, 2, "Union units with a card"),
            Param::int("confederate", 0, 6, 2, "Confederate units with a card"),
            Param::choice(
                "deck",
                &["per-unit", "full-52-with-skip"],
                0,
                "what the sequencing deck holds",
            ),
        ],
        build: card_order,
    },
];

fn personal_shot(v: &Values) -> Result<Built, String> {
    let weapon = if v.choice("weapon") == 1 {
        Personal::SniperRifle
    } else {
        Personal::Pistol
    };
    Ok(Built::new(PersonalShot(weapon)))
}

fn vehicle_move(v: &Values) -> Result<Built, String> {
    let mover = match v.choice("mover") {
        0 => VehicleMove::GunboatForward,
        1 => VehicleMove::GunboatAgainstCurrent,
        2 => VehicleMove::TrainStartOrStop,
        _ => VehicleMove::TrainFullSpeed,
    };
    Ok(Built::new(mover))
}

fn card_order(v: &Values) -> Result<Built, String> {
    let kind = if v.choice("deck") == 1 {
        SequencingDeck::Full52WithSkip
    } else {
        SequencingDeck::PerUnit
    };
    let n = |key| u8::try_from(v.int(key)).map_err(|_| format!("{key} is out of range"));
    CardOrder::new(n("union")?, n("confederate")?, kind)
        .map(Built::new)
        .ok_or_else(|| "a side has at most 26 cards".to_string())
}

/// Every random procedure of the crate, by name.
#[must_use]
pub fn catalogue() -> Catalogue {
    Catalogue::new("tsatf", ENTRIES)
}
