//! Every random procedure of the rules by name, and the [`Options`] by name.
//!
//! [`catalogue`] lists each [`acw_core::Resolve`] procedure of this crate with its rule IDs and typed
//! parameters, built from text as `acw odds north attack attackers=2 cover=true` builds it. The chained
//! procedure `attack` runs a whole attack (the combat toss, the morale check a hit causes with its rally
//! attempts, the owner's choice on 3–4) to its effect on the target; a melee in these rules is such an attack
//! by each side in turn, so `attack category=melee` is the whole of one side's melee attack. Options are set
//! by field name through [`acw_core::catalogue::OptionsByName`] (`turn_limit=8`, `first_side=union`).
//!
//! Every procedure of the crate is catalogued, and every option can be set by name; `charge_reach` takes a
//! length in inches for a fixed reach, or `none` for the unit's deployed allowance.
//!
//! ```
//! use acw_north::catalogue::catalogue;
//!
//! // Two units fire at a deployed target in the open: one d6, 5+ less one for the second unit: 4+ = 1/2.
//! let table = catalogue().build("combat-toss", "attackers=2")?.table();
//! assert!((table.p("hit") - 1.0 / 2.0).abs() < 1e-12);
//! # Ok::<(), acw_core::catalogue::CatalogueError>(())
//! ```

use crate::combat::{Category, CombatSituation, CombatToss, TargetFacts};
use crate::command::{OrderChangeToss, OrderCheck, RallyToss};
use crate::morale::{
    AttackEffect, AttackOutcome, Choice, ChoicePolicy, MoraleCheck, MoraleFacts, MoraleThrow,
    MoraleToss, RallyPolicy, WholeAttack, morale_modifier,
};
use crate::movement::{AccomplishmentToss, ObstacleToss};
use crate::options::{
    BlockedFallBack, CavalryAttackModifier, CavalryAttackScope, ChargeReach,
    DismountedCavalryRange, DismountedMove, FailedChargeUnderOrders, FirstRoundScope,
    GroupModifierPolicy, LeaderlessOrders, MountedTargetUnderFire, NonDeployedContactHalt, Options,
    OrderedMove, RemountFormation, SkirmishScreen,
};
use crate::tables::{BrigadeOrder, RallyResult};
use acw_core::catalogue::{Built, Catalogue, Entry, Kind, Param, Value, Values};
use acw_core::measure::Inches;

acw_core::choice_option!(
    CavalryAttackModifier,
    CavalryAttackScope,
    MountedTargetUnderFire,
    GroupModifierPolicy,
    FirstRoundScope,
    DismountedMove,
    DismountedCavalryRange,
    OrderedMove,
    NonDeployedContactHalt,
    SkirmishScreen,
    LeaderlessOrders,
    BlockedFallBack,
    RemountFormation,
    FailedChargeUnderOrders,
);

impl acw_core::catalogue::OptionValue for ChargeReach {
    fn kind() -> Kind {
        Kind::NumberOrNone { min: 0.0, max: 1e6 }
    }
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::None => Some(ChargeReach::DeployedAllowance),
            Value::Number(x) => Some(ChargeReach::FixedInches(Inches(x))),
            _ => None,
        }
    }
    fn show(&self) -> String {
        match self {
            ChargeReach::DeployedAllowance => "none".into(),
            ChargeReach::FixedInches(x) => x.0.to_string(),
        }
    }
}

acw_core::options_by_name!(
    Options,
    check = |o| o.validate().map_err(|e| e.to_string()),
    [
        cavalry_attack_modifier,
        cavalry_attack_scope,
        mounted_target_under_fire,
        group_modifier_policy,
        first_round_scope,
        dismounted_move,
        dismounted_cavalry_range,
        horse_holder_counted,
        ordered_move,
        non_deployed_contact_halt,
        artillery_unlimber_automatic,
        obstacle_toss_per_obstacle,
        skirmishers_exempt_from_obstacle_toss,
        skirmish_screen,
        rally_declared_before_morale_toss,
        rally_requires_with,
        with_distance,
        multiple_rally_attempts,
        capture_triggers_order_check,
        leaderless_orders,
        crew_may_reman_gun,
        enemy_captures_abandoned_guns,
        crews_without_guns_removed,
        blocked_fall_back,
        skirmishers_may_melee,
        artillery_no_melee_attack,
        charge_reach,
        predeclare_attacks,
        first_side,
        artillery_max_range,
        skirmisher_cover_stacks,
        mg_rallies_other_brigades,
        remount_formation,
        fire_arc_degrees,
        artillery_arc_degrees,
        contact_gap,
        no_artillery_pivot,
        artillery_morale_by_source,
        fall_back_obstacle_toss,
        dismounted_cavalry_skirmish,
        exit_table_on_withdraw,
        failed_charge_under_orders,
        no_fire_into_melee,
        allow_non_standard_army_size,
        turn_limit,
    ]
);

const CATEGORIES: &[&str] = &["artillery", "musketry", "melee"];

fn category(v: &Values) -> Category {
    match v.choice("category") {
        0 => Category::Artillery,
        2 => Category::Melee,
        _ => Category::Musketry,
    }
}

fn hit_label(hit: &bool) -> String {
    if *hit { "hit" } else { "miss" }.to_string()
}

fn success_label(ok: &bool) -> String {
    if *ok { "succeeds" } else { "fails" }.to_string()
}

fn rally_label(r: &RallyResult) -> String {
    match r {
        RallyResult::Subtract(n) => format!("subtract {n}"),
        RallyResult::NoEffect => "no effect".into(),
        RallyResult::Captured => "general captured".into(),
        RallyResult::Killed => "general killed".into(),
    }
}

fn check_label(o: &MoraleThrow) -> String {
    let rallies: Vec<String> = o.rally.iter().flatten().map(rally_label).collect();
    if rallies.is_empty() {
        o.band.to_string()
    } else {
        format!("{}; rally: {}", o.band, rallies.join(", "))
    }
}

fn effect_label(e: AttackEffect) -> &'static str {
    match e {
        AttackEffect::NoHit => "no hit",
        AttackEffect::Rallied => "hit, the target rallies",
        AttackEffect::StandLost => "hit, a stand lost",
        AttackEffect::FellBack => "hit, the target falls back",
        AttackEffect::StandLostAndFellBack => "hit, a stand lost and a fall-back",
        AttackEffect::Removed => "hit, the target removed",
    }
}

fn attack_label(o: &AttackOutcome) -> String {
    let mut s = effect_label(o.effect).to_string();
    if o.general_killed {
        s.push_str("; the rallying general killed");
    }
    if o.general_captured {
        s.push_str("; the rallying general captured");
    }
    s
}

/// The combat situation of a `combat-toss` or `attack` entry, checked.
fn situation(v: &Values) -> Result<CombatSituation, String> {
    let attackers = v.int("attackers");
    for key in [
        "long_range_batteries",
        "mounted_attackers",
        "crossing_skirmishers",
    ] {
        if v.int(key) > attackers {
            return Err(format!(
                "{key} is {}, more than the {attackers} attackers",
                v.int(key)
            ));
        }
    }
    let n = |key| u8::try_from(v.int(key)).map_err(|_| format!("{key} is out of range"));
    Ok(CombatSituation {
        category: category(v),
        attackers: n("attackers")?,
        long_range_batteries: n("long_range_batteries")?,
        mounted_cavalry_attackers: n("mounted_attackers")?,
        crossing_skirmishers: n("crossing_skirmishers")?,
        first_round: v.bool("first_round"),
        target: TargetFacts {
            behind_cover: v.bool("cover"),
            screened: false,
            deployed: v.bool("deployed"),
            mounted_cavalry: v.bool("mounted_target"),
            skirmishers: v.bool("skirmisher_target"),
        },
    })
}

fn combat_toss(v: &Values) -> Result<Built, String> {
    let toss = situation(v)?.toss(&Options::default());
    Ok(Built::labelled(toss, hit_label))
}

fn plain_toss(v: &Values) -> Result<Built, String> {
    let modifier = i16::try_from(v.int("modifier")).map_err(|_| "modifier is out of range")?;
    Ok(Built::labelled(
        CombatToss {
            modifier,
            automatic: false,
        },
        hit_label,
    ))
}

fn morale_toss(v: &Values) -> Result<Built, String> {
    let modifier = i16::try_from(v.int("modifier")).map_err(|_| "modifier is out of range")?;
    Ok(Built::new(MoraleToss { modifier }))
}

fn morale_check_of(v: &Values, melee: bool, modifier: i16) -> MoraleCheck {
    MoraleCheck {
        modifier,
        rallies: u8::try_from(v.int("rallies")).unwrap_or(0),
        melee,
        policy: if v.choice("rally_policy") == 1 {
            RallyPolicy::IfWouldNotRally
        } else {
            RallyPolicy::Always
        },
        declared_before: v.bool("declared_before"),
    }
}

fn morale_check(v: &Values) -> Result<Built, String> {
    let modifier = i16::try_from(v.int("modifier")).map_err(|_| "modifier is out of range")?;
    Ok(Built::labelled(
        morale_check_of(v, v.bool("melee"), modifier),
        check_label,
    ))
}

fn attack(v: &Values) -> Result<Built, String> {
    let options = Options::default();
    let s = situation(v)?;
    let artillery = v.bool("target_artillery");
    if artillery && v.int("stands") > 3 {
        return Err("a battery has at most 3 crew stands".into());
    }
    let facts = MoraleFacts {
        artillery,
        skirmishers: s.target.skirmishers,
        behind_cover: s.target.behind_cover,
        source: Some(s.category),
    };
    let choice = match v.choice("choice") {
        1 => ChoicePolicy::Always(Choice::LoseStand),
        2 => ChoicePolicy::Always(Choice::FallBack),
        _ => ChoicePolicy::default(),
    };
    Ok(Built::labelled(
        WholeAttack {
            toss: s.toss(&options),
            check: morale_check_of(
                v,
                s.category == Category::Melee,
                morale_modifier(&facts, &options),
            ),
            stands: u8::try_from(v.int("stands")).map_err(|_| "stands is out of range")?,
            artillery,
            crews_removed: v.bool("crews_removed"),
            choice,
        },
        attack_label,
    ))
}

fn rally_toss(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        RallyToss {
            melee: v.bool("melee"),
        },
        rally_label,
    ))
}

fn order_change(_: &Values) -> Result<Built, String> {
    Ok(Built::labelled(OrderChangeToss, |&c| {
        if c { "the order changes" } else { "no change" }.to_string()
    }))
}

fn order_check(v: &Values) -> Result<Built, String> {
    let current = match v.choice("current") {
        0 => BrigadeOrder::Withdraw,
        2 => BrigadeOrder::Advance,
        _ => BrigadeOrder::Hold,
    };
    Ok(Built::new(OrderCheck { current }))
}

fn accomplishment(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        AccomplishmentToss {
            capacity: u8::try_from(v.int("capacity")).map_err(|_| "capacity is out of range")?,
            charge_cover: v.bool("charge_cover"),
        },
        success_label,
    ))
}

fn obstacle(v: &Values) -> Result<Built, String> {
    Ok(Built::new(ObstacleToss {
        obstacles: u8::try_from(v.int("obstacles")).map_err(|_| "obstacles is out of range")?,
        per_obstacle: v.bool("per_obstacle"),
    }))
}

const SITUATION: [Param; 10] = [
    Param::choice("category", CATEGORIES, 1, "artillery, musketry or melee"),
    Param::int("attackers", 1, 5, 1, "units attacking the target together"),
    Param::int(
        "long_range_batteries",
        0,
        5,
        0,
        "batteries firing beyond 24\"",
    ),
    Param::int(
        "mounted_attackers",
        0,
        5,
        0,
        "mounted cavalry among the attackers",
    ),
    Param::int(
        "crossing_skirmishers",
        0,
        5,
        0,
        "attackers firing through skirmishers",
    ),
    Param::bool("first_round", false, "the first round of a melee"),
    Param::bool("cover", false, "the target is behind cover"),
    Param::bool("deployed", true, "the target is deployed"),
    Param::bool("mounted_target", false, "the target is mounted cavalry"),
    Param::bool(
        "skirmisher_target",
        false,
        "the target is in skirmish order",
    ),
];

const MORALE: [Param; 3] = [
    Param::int("rallies", 0, 2, 0, "generals trying to rally the unit"),
    Param::choice(
        "rally_policy",
        &["always", "if-would-not-rally"],
        0,
        "when a general tries",
    ),
    Param::bool(
        "declared_before",
        false,
        "the rally is declared before the morale die",
    ),
];

const ATTACK: [Param; 17] = [
    SITUATION[0],
    SITUATION[1],
    SITUATION[2],
    SITUATION[3],
    SITUATION[4],
    SITUATION[5],
    SITUATION[6],
    SITUATION[7],
    SITUATION[8],
    SITUATION[9],
    MORALE[0],
    MORALE[1],
    MORALE[2],
    Param::int(
        "stands",
        1,
        5,
        4,
        "the target's stands (crew stands of a battery)",
    ),
    Param::bool("target_artillery", false, "the target is a battery"),
    Param::bool(
        "crews_removed",
        false,
        "a battery crew that falls back is removed",
    ),
    Param::choice(
        "choice",
        &["fall-back-if-loss-removes", "lose-stand", "fall-back"],
        0,
        "the owner's choice on 3-4",
    ),
];

const MORALE_CHECK: [Param; 5] = [
    Param::int("modifier", -3, 3, 0, "the morale modifier"),
    Param::bool("melee", false, "the check follows a melee hit"),
    MORALE[0],
    MORALE[1],
    MORALE[2],
];

static ENTRIES: &[Entry] = &[
    Entry {
        name: "attack",
        rules: &[
            "NORTH-CBT-02",
            "NORTH-CBT-11",
            "NORTH-MOR-02",
            "NORTH-MOR-03",
            "NORTH-MOR-05",
            "NORTH-CMD-10",
            "NORTH-CAS-02",
            "NORTH-CAS-03",
        ],
        summary: "a whole attack: the combat toss, the morale check a hit causes with its rallies, the owner's choice",
        params: &ATTACK,
        build: attack,
    },
    Entry {
        name: "combat-toss",
        rules: &[
            "NORTH-CBT-02",
            "NORTH-CBT-03",
            "NORTH-CBT-11",
            "NORTH-MEL-09",
        ],
        summary: "the combat toss of a group against one target, from the situation's modifiers",
        params: &SITUATION,
        build: combat_toss,
    },
    Entry {
        name: "hit-toss",
        rules: &["NORTH-CBT-02", "NORTH-CBT-11"],
        summary: "the combat toss from a net modifier: one d6, 5+ hits",
        params: &[Param::int("modifier", -4, 4, 0, "the net modifier")],
        build: plain_toss,
    },
    Entry {
        name: "morale-toss",
        rules: &["NORTH-MOR-02", "NORTH-MOR-10"],
        summary: "the plain morale toss: one d6 plus the modifier, read in bands",
        params: &[Param::int("modifier", -3, 3, 0, "the morale modifier")],
        build: morale_toss,
    },
    Entry {
        name: "morale-check",
        rules: &[
            "NORTH-MOR-01",
            "NORTH-CMD-09",
            "NORTH-CMD-10",
            "NORTH-MOR-11",
        ],
        summary: "a morale check with its rally attempts and what each rally die did",
        params: &MORALE_CHECK,
        build: morale_check,
    },
    Entry {
        name: "rally-toss",
        rules: &["NORTH-CMD-10"],
        summary: "a general's rally toss (a 5 captures him only after a melee hit)",
        params: &[Param::bool("melee", false, "the check follows a melee hit")],
        build: rally_toss,
    },
    Entry {
        name: "order-change-toss",
        rules: &["NORTH-CMD-07", "NORTH-CMD-13"],
        summary: "a Major General's (or a leaderless unit's) order-change toss: 5-6 changes",
        params: &[],
        build: order_change,
    },
    Entry {
        name: "order-check",
        rules: &["NORTH-CMD-11"],
        summary: "a brigade's order check after its Major General is lost",
        params: &[Param::choice(
            "current",
            &["withdraw", "hold", "advance"],
            1,
            "the order before the check",
        )],
        build: order_check,
    },
    Entry {
        name: "accomplishment-toss",
        rules: &["NORTH-MOV-05", "NORTH-MOV-06", "NORTH-MEL-02"],
        summary: "the accomplishment toss: one d6 no higher than the unit's stands",
        params: &[
            Param::int("capacity", 1, 6, 4, "stands, or crew figures of a battery"),
            Param::bool(
                "charge_cover",
                false,
                "a charge at a target behind cover (+1 to the die)",
            ),
        ],
        build: accomplishment,
    },
    Entry {
        name: "obstacle-toss",
        rules: &["NORTH-MOV-12", "NORTH-OPT-12"],
        summary: "the obstacle toss: 1-4 crosses, 5-6 halts",
        params: &[
            Param::int("obstacles", 0, 6, 1, "obstacles the move crosses"),
            Param::bool("per_obstacle", false, "one toss per obstacle"),
        ],
        build: obstacle,
    },
];

/// Every random procedure of the rules, by name.
#[must_use]
pub fn catalogue() -> Catalogue {
    Catalogue::new("north", ENTRIES)
}
