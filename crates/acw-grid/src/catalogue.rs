//! Every random procedure of the rules by name, and the [`Options`] by name.
//!
//! [`catalogue`] lists each [`acw_core::Resolve`] procedure of this crate with its rule IDs and typed
//! parameters, built from text (`acw odds grid combat a_dice=6 b_dice=4 b_cover=true`). The chained procedure
//! `combat` is a whole combat between two units: both sides' dice, cover halving, each commander's die,
//! destruction, the hit comparison and the loser's morale test. Options are set by field name through
//! [`acw_core::catalogue::OptionsByName`] (`fractions=dice-for-fraction`); every field but `scale` (four
//! numbers that go together; set it in a scenario file).
//!
//! ```
//! use acw_grid::catalogue::catalogue;
//!
//! // Both command rolls: 5/6 for the division, then 4/6 for the unit: 5/9.
//! let table = catalogue().build("command-check", "")?.table();
//! assert!((table.p("moves") - 5.0 / 9.0).abs() < 1e-12);
//! # Ok::<(), acw_core::catalogue::CatalogueError>(())
//! ```

use crate::casualties::{CoverHalving, Halved};
use crate::combat::{CombatOdds, CombatOutcome, CombatSide, Tester};
use crate::command::{CommandCheck, CommanderRoll};
use crate::fire::{Bombardment, Skirmish};
use crate::morale::{MoraleTest, SplitMorale, UnitMorale};
use crate::movement::{EntrenchRoll, EntrenchTurns};
use crate::options::{
    AttackFrontCheck, BlockedRetreat, BombardCoverScope, BombardedMeans, CancelTiming,
    CommanderFate, DetachedHit, DivisionRoll, FirstTurnTie, FlankTest, FractionMode, FrontArc,
    HexFlanks, HillBonus, HitAllocation, HitComparison, LosTie, NoCorpsCommander, Options,
    Rounding, SideMoraleDice, SkirmishTiming, SquareDistance,
};
use crate::pool::HitPool;
use crate::sequence::{Initiative, InitiativeOutcome, TieBreak};
use crate::tables::{CommanderResult, MoraleResult};
use acw_core::Side;
use acw_core::catalogue::{Built, Catalogue, Entry, Kind, OptionValue, Param, Value, Values};

acw_core::choice_words!(SquareDistance {
    Manhattan => "manhattan",
    Chebyshev => "chebyshev",
});

acw_core::choice_words!(FrontArc {
    Standard => "standard",
    Narrow => "narrow",
    HalfPlane => "half-plane",
});

acw_core::choice_words!(HexFlanks {
    ThreeSideFront => "three-side-front",
    NarrowFront => "narrow-front",
});

acw_core::choice_words!(LosTie {
    BothBlock => "both-block",
    EitherBlocks => "either-blocks",
});

acw_core::choice_words!(DivisionRoll {
    PerDivision => "per-division",
    PerUnit => "per-unit",
});

acw_core::choice_words!(CommanderFate {
    Escapes => "escapes",
    Captured => "captured",
});

acw_core::choice_words!(CancelTiming {
    AfterCover => "after-cover",
    BeforeCover => "before-cover",
});

acw_core::choice_words!(AttackFrontCheck {
    AllContacted => "all-contacted",
    AtLeastOne => "at-least-one",
});

acw_core::choice_words!(BombardedMeans {
    Targeted => "targeted",
    TookHits => "took-hits",
});

acw_core::choice_words!(SkirmishTiming {
    CombatPhase => "combat-phase",
    BombardmentPhase => "bombardment-phase",
    OwnMovementStep => "own-movement-step",
});

acw_core::choice_words!(HillBonus {
    Flat => "flat",
    PerContour => "per-contour",
    OnlyVsLower => "only-vs-lower",
});

acw_core::choice_words!(BombardCoverScope {
    PerTargetPerPhase => "per-target-per-phase",
    PerBattery => "per-battery",
});

acw_core::choice_words!(Rounding {
    Down => "down",
    Up => "up",
});

acw_core::choice_words!(FlankTest {
    Positions => "positions",
    OnlyIfMovedIn => "only-if-moved-in",
});

acw_core::choice_words!(HitAllocation {
    Even => "even",
    ReceiverFree => "receiver-free",
    Inflicter => "inflicter",
});

acw_core::choice_words!(HitComparison {
    AfterReductions => "after-reductions",
    Raw => "raw",
});

acw_core::choice_words!(SideMoraleDice {
    PerUnit => "per-unit",
    PerSide => "per-side",
});

acw_core::choice_words!(BlockedRetreat {
    StopAndDisorder => "stop-and-disorder",
    Removed => "removed",
});

acw_core::choice_words!(FractionMode {
    RoundDown => "round-down",
    CarryFractions => "carry-fractions",
    DiceForFraction => "dice-for-fraction",
});

acw_core::choice_words!(NoCorpsCommander {
    SkipCheck => "skip-check",
    MeasureFromArmy => "measure-from-army",
});

acw_core::choice_words!(DetachedHit {
    StaysWithOriginal => "stays-with-original",
    OwnerChooses => "owner-chooses",
});

impl OptionValue for FirstTurnTie {
    fn kind() -> Kind {
        Kind::Choice(&["reroll", "union-first", "confederate-first"])
    }
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Choice(0) => Some(FirstTurnTie::Reroll),
            Value::Choice(1) => Some(FirstTurnTie::ScenarioFirst(Side::Union)),
            Value::Choice(2) => Some(FirstTurnTie::ScenarioFirst(Side::Confederate)),
            _ => None,
        }
    }
    fn show(&self) -> String {
        match self {
            FirstTurnTie::Reroll => "reroll".into(),
            FirstTurnTie::ScenarioFirst(Side::Union) => "union-first".into(),
            FirstTurnTie::ScenarioFirst(Side::Confederate) => "confederate-first".into(),
        }
    }
}

acw_core::options_by_name!(
    Options,
    check = |_| Ok(()),
    [
        square_distance,
        front_arc,
        hex_flanks,
        los_tie,
        first_turn_tie,
        initiative_bonus,
        division_roll,
        command_roll_for_rally,
        commander_replacement_turns,
        commander_fate,
        commander_cancel,
        no_corps_commander,
        commander_ground_penalty,
        cumulative_double_costs,
        commanders_use_roads,
        strict_formation_change,
        facing_change_is_move,
        attack_front_check,
        attack_path_in_arc,
        bombarded_for_entrenching,
        dismounted_cavalry_entrench,
        minimum_move,
        inferior_in_close_fire,
        skirmish_at_engaged,
        skirmish_timing,
        hill_bonus,
        bombard_cover_scope,
        silenced_rounding,
        superior_and_shock_cumulative,
        clamp_net_modifier,
        support_every_combat,
        disordered_or_column_support,
        halving_rounding,
        halve_outside_support,
        stacking_disadvantages,
        flank_test,
        hit_allocation,
        hit_comparison,
        side_morale_dice,
        blocked_retreat,
        rally_after_retreat,
        fractions,
        detached_hit,
        game_master,
        hidden_units,
    ]
);

const FRACTIONS: &[&str] = &["round-down", "carry-fractions", "dice-for-fraction"];

fn fractions(v: &Values) -> FractionMode {
    match v.choice("fractions") {
        1 => FractionMode::CarryFractions,
        2 => FractionMode::DiceForFraction,
        _ => FractionMode::RoundDown,
    }
}

fn morale_label(r: &MoraleResult) -> &'static str {
    match r {
        MoraleResult::Routed => "routed",
        MoraleResult::Defeated => "defeated",
        MoraleResult::Recoiled => "recoiled",
        MoraleResult::Steady => "steady",
    }
}

fn halved_label(h: &Halved) -> String {
    if h.carry {
        format!("{} and a half-hit carried", h.hits)
    } else {
        h.hits.to_string()
    }
}

fn split_label(s: &SplitMorale) -> String {
    [
        ("unsteady stands", s.unsteady),
        ("normal stands", s.normal),
        ("elite stands", s.elite),
    ]
    .iter()
    .filter_map(|(who, r)| r.map(|r| format!("{who} {}", morale_label(&r))))
    .collect::<Vec<_>>()
    .join(", ")
}

fn combat_label(o: &CombatOutcome) -> String {
    let mut s = format!("A takes {}, B takes {}", o.hits_on_a, o.hits_on_b);
    for (done, what) in [
        (o.a_destroyed, "A destroyed"),
        (o.b_destroyed, "B destroyed"),
        (o.a_commander_lost, "A's commander lost"),
        (o.b_commander_lost, "B's commander lost"),
    ] {
        if done {
            s.push_str("; ");
            s.push_str(what);
        }
    }
    if let (Some(t), Some(r)) = (o.tester, o.morale) {
        let who = match t {
            Tester::A => "A",
            Tester::B => "B",
        };
        s.push_str(&format!("; {who} tests: {}", morale_label(&r)));
    }
    s
}

fn small(v: &Values, key: &str) -> Result<u32, String> {
    u32::try_from(v.int(key)).map_err(|_| format!("{key} is out of range"))
}

fn modifier(v: &Values, key: &str) -> Result<i8, String> {
    i8::try_from(v.int(key)).map_err(|_| format!("{key} is out of range"))
}

fn pool(v: &Values, dice: &str, m: &str) -> Result<HitPool, String> {
    HitPool::uniform(small(v, dice)?, modifier(v, m)?).map_err(|e| e.to_string())
}

fn hit_pool(v: &Values) -> Result<Built, String> {
    Ok(Built::new(pool(v, "dice", "modifier")?))
}

fn side(v: &Values, p: &str) -> Result<CombatSide, String> {
    Ok(CombatSide {
        pool: pool(v, &format!("{p}_dice"), &format!("{p}_modifier"))?,
        cover: v.bool(&format!("{p}_cover")),
        commander: v.bool(&format!("{p}_commander")),
        capacity: small(v, &format!("{p}_capacity"))?,
        morale: modifier(v, &format!("{p}_morale"))?,
    })
}

fn combat(v: &Values) -> Result<Built, String> {
    let mut c = CombatOdds::new(side(v, "a")?, side(v, "b")?);
    c.fractions = fractions(v);
    c.cancel = if v.choice("cancel") == 1 {
        CancelTiming::BeforeCover
    } else {
        CancelTiming::AfterCover
    };
    c.comparison = if v.choice("comparison") == 1 {
        HitComparison::Raw
    } else {
        HitComparison::AfterReductions
    };
    Ok(Built::labelled(c, combat_label))
}

fn morale_test(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        MoraleTest {
            modifier: modifier(v, "modifier")?,
        },
        |r| morale_label(r).to_string(),
    ))
}

fn unit_morale(v: &Values) -> Result<Built, String> {
    let classes = [v.bool("unsteady"), v.bool("normal"), v.bool("elite")];
    if !classes.contains(&true) {
        return Err("a unit has stands of at least one class".into());
    }
    Ok(Built::labelled(UnitMorale { classes }, split_label))
}

fn command_check(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        CommandCheck {
            unit_roll: v.bool("unit_roll"),
            division_roll: v.bool("division_roll"),
        },
        |&ok| if ok { "moves" } else { "stays" }.to_string(),
    ))
}

fn commander_roll(_: &Values) -> Result<Built, String> {
    Ok(Built::labelled(CommanderRoll, |r| {
        match r {
            CommanderResult::Removed => "commander removed",
            CommanderResult::NoEffect => "no effect",
            CommanderResult::CancelHit => "a hit cancelled",
        }
        .to_string()
    }))
}

fn cover_halving(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        CoverHalving {
            hits: small(v, "hits")?,
            mode: fractions(v),
            carry: v.bool("carry"),
        },
        halved_label,
    ))
}

fn skirmish(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        Skirmish {
            pool: pool(v, "dice", "modifier")?,
            cover: v.bool("cover"),
            fractions: fractions(v),
            carry: v.bool("carry"),
        },
        halved_label,
    ))
}

fn bombardment(v: &Values) -> Result<Built, String> {
    let battery = pool(v, "dice", "modifier")?;
    Ok(Built::labelled(
        Bombardment {
            batteries: vec![battery; small(v, "batteries")? as usize],
            cover: v.bool("cover"),
            fractions: fractions(v),
            carry: v.bool("carry"),
            scope: if v.choice("scope") == 1 {
                BombardCoverScope::PerBattery
            } else {
                BombardCoverScope::PerTargetPerPhase
            },
        },
        halved_label,
    ))
}

fn entrench_roll(v: &Values) -> Result<Built, String> {
    Ok(Built::new(EntrenchRoll {
        progress: u8::try_from(v.int("progress")).map_err(|_| "progress is out of range")?,
    }))
}

fn entrench_turns(v: &Values) -> Result<Built, String> {
    Ok(Built::new(EntrenchTurns {
        progress: u8::try_from(v.int("progress")).map_err(|_| "progress is out of range")?,
    }))
}

fn initiative(v: &Values) -> Result<Built, String> {
    let bonus = match v.choice("bonus") {
        1 => Some(Side::Union),
        2 => Some(Side::Confederate),
        _ => None,
    };
    let tie = match v.choice("tie") {
        1 => TieBreak::Reroll,
        2 => TieBreak::ScenarioFirst(Side::Union),
        3 => TieBreak::ScenarioFirst(Side::Confederate),
        _ => TieBreak::KeepLastOrder,
    };
    Ok(Built::labelled(Initiative { bonus, tie }, |o| match o {
        InitiativeOutcome::Chooses(s) => format!("{s} chooses"),
        InitiativeOutcome::KeepsOrder => "a tie: the order stands".into(),
        InitiativeOutcome::ScenarioFirst(s) => format!("a tie: {s} first, as the scenario says"),
    }))
}

const SIDE_A: [Param; 6] = [
    Param::int("a_dice", 0, 24, 6, "side A's dice"),
    Param::int("a_modifier", -2, 2, 0, "side A's per-die modifier"),
    Param::bool(
        "a_cover",
        false,
        "side A in cover or an advantageous position",
    ),
    Param::bool("a_commander", false, "a commander with side A"),
    Param::int(
        "a_capacity",
        0,
        12,
        6,
        "hits that destroy side A (0: cannot be)",
    ),
    Param::int("a_morale", -1, 1, 0, "side A's morale modifier"),
];

const SIDE_B: [Param; 6] = [
    Param::int("b_dice", 0, 24, 6, "side B's dice"),
    Param::int("b_modifier", -2, 2, 0, "side B's per-die modifier"),
    Param::bool(
        "b_cover",
        false,
        "side B in cover or an advantageous position",
    ),
    Param::bool("b_commander", false, "a commander with side B"),
    Param::int(
        "b_capacity",
        0,
        12,
        6,
        "hits that destroy side B (0: cannot be)",
    ),
    Param::int("b_morale", -1, 1, 0, "side B's morale modifier"),
];

const COMBAT: [Param; 15] = [
    SIDE_A[0],
    SIDE_A[1],
    SIDE_A[2],
    SIDE_A[3],
    SIDE_A[4],
    SIDE_A[5],
    SIDE_B[0],
    SIDE_B[1],
    SIDE_B[2],
    SIDE_B[3],
    SIDE_B[4],
    SIDE_B[5],
    Param::choice(
        "fractions",
        FRACTIONS,
        0,
        "how cover halves an odd number of hits",
    ),
    Param::choice(
        "cancel",
        &["after-cover", "before-cover"],
        0,
        "when a commander's die cancels a hit",
    ),
    Param::choice(
        "comparison",
        &["after-reductions", "raw"],
        0,
        "which hits decide who tests",
    ),
];

static ENTRIES: &[Entry] = &[
    Entry {
        name: "combat",
        rules: &[
            "GRID-MEL-19",
            "GRID-MEL-09",
            "GRID-MEL-11",
            "GRID-MEL-14",
            "GRID-CMD-06",
            "GRID-CAS-03",
            "GRID-CAS-05",
            "GRID-MOR-01",
        ],
        summary: "a whole combat between two units: dice, cover, commanders, destruction, the loser's morale test",
        params: &COMBAT,
        build: combat,
    },
    Entry {
        name: "hits",
        rules: &["GRID-ART-05", "GRID-FIR-04", "GRID-MEL-09"],
        summary: "a pool of d6s hitting on a modified 5+: the number of hits",
        params: &[
            Param::int("dice", 0, 128, 6, "dice in the pool"),
            Param::int("modifier", -2, 2, 0, "each die's modifier"),
        ],
        build: hit_pool,
    },
    Entry {
        name: "skirmish",
        rules: &["GRID-FIR-03", "GRID-FIR-04", "GRID-FIR-05", "GRID-CAS-05"],
        summary: "a skirmish volley: up to 3 dice at 5+, halved for cover",
        params: &[
            Param::int("dice", 1, 3, 3, "the firers' dice"),
            Param::int("modifier", -2, 2, 0, "each die's modifier"),
            Param::bool("cover", false, "the target is in cover"),
            Param::choice(
                "fractions",
                FRACTIONS,
                0,
                "how cover halves an odd number of hits",
            ),
            Param::bool("carry", false, "the target already carries a half-hit"),
        ],
        build: skirmish,
    },
    Entry {
        name: "bombardment",
        rules: &["GRID-ART-05", "GRID-ART-07", "GRID-ART-09", "GRID-CAS-05"],
        summary: "the bombardment one target takes: each battery's dice at 5+, halved for cover",
        params: &[
            Param::int("batteries", 1, 6, 2, "batteries firing"),
            Param::int("dice", 1, 12, 2, "dice of each battery"),
            Param::int("modifier", -2, 2, 0, "each die's modifier"),
            Param::bool("cover", false, "the target is in cover"),
            Param::choice(
                "fractions",
                FRACTIONS,
                0,
                "how cover halves an odd number of hits",
            ),
            Param::bool("carry", false, "the target already carries a half-hit"),
            Param::choice(
                "scope",
                &["per-target-per-phase", "per-battery"],
                0,
                "what cover halves",
            ),
        ],
        build: bombardment,
    },
    Entry {
        name: "cover-halving",
        rules: &["GRID-CAS-05"],
        summary: "hits halved for cover in one of three fraction modes",
        params: &[
            Param::int("hits", 0, 60, 3, "hits before halving"),
            Param::choice(
                "fractions",
                FRACTIONS,
                2,
                "how an odd number of hits is halved",
            ),
            Param::bool("carry", false, "a half-hit already carried"),
        ],
        build: cover_halving,
    },
    Entry {
        name: "morale-test",
        rules: &["GRID-MOR-01", "GRID-MOR-02"],
        summary: "one morale die plus a modifier (+1 elite, -1 unsteady) on the results table",
        params: &[Param::int("modifier", -1, 1, 0, "the morale modifier")],
        build: morale_test,
    },
    Entry {
        name: "unit-morale",
        rules: &["GRID-MOR-03"],
        summary: "a unit's morale test: one die, each class of stand reading it with its own modifier",
        params: &[
            Param::bool("unsteady", false, "the unit has unsteady stands"),
            Param::bool("normal", true, "the unit has normal stands"),
            Param::bool("elite", true, "the unit has elite stands"),
        ],
        build: unit_morale,
    },
    Entry {
        name: "command-check",
        rules: &["GRID-CMD-01", "GRID-CMD-02", "GRID-CMD-03"],
        summary: "the command rolls one unit needs to move: the division's 2+, then its own 3+",
        params: &[
            Param::bool("division_roll", true, "its division is out of command"),
            Param::bool("unit_roll", true, "it is out of command"),
        ],
        build: command_check,
    },
    Entry {
        name: "commander-roll",
        rules: &["GRID-CMD-06"],
        summary: "the die of a commander with a unit in combat: 5-6 cancels a hit, 1 removes him",
        params: &[],
        build: commander_roll,
    },
    Entry {
        name: "entrench-roll",
        rules: &["GRID-MOV-26"],
        summary: "one turn's entrenching: the running total plus a d6, 6 or more finishes",
        params: &[Param::int("progress", 0, 5, 0, "the running total so far")],
        build: entrench_roll,
    },
    Entry {
        name: "entrench-turns",
        rules: &["GRID-MOV-26"],
        summary: "the working turns needed to finish entrenchments",
        params: &[Param::int("progress", 0, 5, 0, "the running total so far")],
        build: entrench_turns,
    },
    Entry {
        name: "initiative",
        rules: &["GRID-SEQ-02", "GRID-SEQ-03", "GRID-SEQ-04"],
        summary: "each side's d6, one may add +1; the higher chooses the order",
        params: &[
            Param::choice(
                "bonus",
                &["none", "union", "confederate"],
                0,
                "the side adding +1",
            ),
            Param::choice(
                "tie",
                &[
                    "keep-last-order",
                    "reroll",
                    "union-first",
                    "confederate-first",
                ],
                0,
                "how a tie is settled",
            ),
        ],
        build: initiative,
    },
];

/// Every random procedure of the rules, by name.
#[must_use]
pub fn catalogue() -> Catalogue {
    Catalogue::new("grid", ENTRIES)
}
