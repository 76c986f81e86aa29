//! `acw battle`, `acw simulate` and `acw scenario`.

use crate::{Failure, out, plot};
use acw::game::{EndReason, GameResult, Outcome, Rate, Summary, game_seed};
use acw::runtime::{self, Scenario};
use acw::{BySide, RulesetId, Side};
use comfy_table::{CellAlignment, ContentArrangement, Table, presets};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;

fn load(ruleset: RulesetId, file: Option<&Path>) -> Result<Scenario, Failure> {
    match file {
        Some(path) => Ok(Scenario::load(ruleset, path)?),
        None => Ok(Scenario::default_for(ruleset)),
    }
}

fn scenario_name(ruleset: RulesetId, file: Option<&Path>) -> String {
    match file {
        Some(path) => format!("scenario {}", path.display()),
        None => ruleset.scenario_summary().to_string(),
    }
}

/// The last line of `acw battle --json`.
#[derive(Serialize)]
struct End {
    end: EndOfGame,
}

#[derive(Serialize)]
struct EndOfGame {
    outcome: Outcome,
    losses: BySide<u32>,
    orders: u64,
}

/// `acw battle`: one game, narrated or as JSON lines.
pub fn battle(
    ruleset: RulesetId,
    seed: u64,
    file: Option<&Path>,
    json: bool,
    luck: bool,
) -> Result<(), Failure> {
    let scenario = load(ruleset, file)?;
    let game = runtime::battle(&scenario, seed)?;
    let luck = if luck { Some(game.luck()?) } else { None };
    let losses = game.losses();
    if json {
        for line in game.json_lines()? {
            out(line)?;
        }
        let end = End {
            end: EndOfGame {
                outcome: game.outcome(),
                losses,
                orders: game.orders(),
            },
        };
        out(serde_json::to_string(&end)?)?;
        if let Some(luck) = luck {
            out(serde_json::to_string(&LuckLine {
                luck: luck.by_side(),
            })?)?;
        }
        return Ok(());
    }
    out(format!(
        "{}, {}.",
        ruleset.title(),
        scenario_name(ruleset, file)
    ))?;
    out(format!("{}. Seed {seed}.\n", ruleset.commanders()))?;
    for line in game.narration() {
        out(line)?;
    }
    out(format!(
        "\n{}\n{} lost: Union {}, Confederate {}; {} orders, {} events.",
        game.outcome(),
        capitalised(ruleset.loss_unit()),
        losses.union,
        losses.confederate,
        game.orders(),
        game.events()
    ))?;
    match luck {
        Some(luck) => crate::analysis::print_luck(&luck),
        None => Ok(()),
    }
}

/// The luck line after the end line of `acw battle --json --luck`.
#[derive(Serialize)]
struct LuckLine {
    luck: BySide<acw::luck::SideLuck>,
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `acw scenario`: the default scenario as JSON.
pub fn scenario(ruleset: RulesetId, file: Option<&Path>) -> Result<(), Failure> {
    let json = Scenario::default_for(ruleset).to_json()?;
    match file {
        None => out(json),
        Some(path) => {
            std::fs::write(path, json + "\n").map_err(|source| Failure::Write {
                path: path.display().to_string(),
                source,
            })?;
            eprintln!(
                "wrote the {ruleset} default scenario to {p}; play it with `acw battle {ruleset} --scenario {p}`",
                p = path.display()
            );
            Ok(())
        }
    }
}

/// What `acw simulate` was asked.
pub struct SimulateArgs<'a> {
    pub ruleset: RulesetId,
    pub games: u64,
    pub seed: u64,
    pub threads: Option<u16>,
    pub scenario: Option<&'a Path>,
    pub csv: Option<&'a Path>,
    pub json: bool,
    pub plot: Option<&'a Path>,
}

fn progress_bar(games: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr());
    // The template is a constant; should it ever be refused, the bar keeps indicatif's default look.
    if let Ok(style) =
        ProgressStyle::with_template("{wide_bar} {pos}/{len} games, {rate}, about {eta} left")
    {
        bar.set_style(style.with_key(
            "rate",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                // Nothing to do if writing into indicatif's own line buffer failed.
                let _ = write!(w, "{:.0} games/s", state.per_sec());
            },
        ));
    }
    bar
}

/// `acw simulate`: many games, a progress bar, and the numbers.
pub fn simulate(args: &SimulateArgs<'_>) -> Result<(), Failure> {
    let scenario = load(args.ruleset, args.scenario)?;
    let bar = progress_bar(args.games);
    let start = Instant::now();
    let run = || runtime::simulate(&scenario, args.seed, args.games, |_, _| bar.inc(1));
    let summary = match args.threads {
        None => run(),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(n))
            .build()
            .map_err(|e| Failure::Threads {
                threads: n,
                why: e.to_string(),
            })?
            .install(run),
    };
    bar.finish_and_clear();
    let summary = summary?;
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{} games in {secs:.2} s ({:.0} games per second)",
        args.games,
        args.games as f64 / secs.max(1e-9)
    );
    if args.json {
        out(serde_json::to_string_pretty(&SimJson::new(args, &summary))?)?;
    } else {
        print_summary(args, &summary)?;
    }
    if let Some(path) = args.csv {
        write_csv(path, args.seed, &summary)?;
        eprintln!("wrote one row per game to {}", path.display());
    }
    if let Some(path) = args.plot {
        let share = |side: Side| -> Vec<(u32, f64)> {
            summary.losses[side]
                .iter()
                .map(|(&k, &n)| (k, n as f64 / summary.games as f64))
                .collect()
        };
        plot::losses_chart(
            path,
            &format!(
                "{} losses in {} games ({})",
                args.ruleset.loss_unit(),
                summary.games,
                args.ruleset
            ),
            args.ruleset.loss_unit(),
            &BySide::new(share(Side::Union), share(Side::Confederate)),
        )?;
        eprintln!("drew the loss distributions in {}", path.display());
    }
    Ok(())
}

/// Least, median and most of a histogram.
fn spread(h: &BTreeMap<u32, u64>) -> (u32, u32, u32) {
    let n: u64 = h.values().sum();
    let least = h.keys().next().copied().unwrap_or(0);
    let most = h.keys().next_back().copied().unwrap_or(0);
    let mut seen = 0;
    let mut median = least;
    for (&k, &c) in h {
        seen += c;
        if 2 * seen >= n {
            median = k;
            break;
        }
    }
    (least, median, most)
}

fn pct(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

fn interval(r: Rate) -> String {
    format!("{:.1}–{:.1}%", r.low * 100.0, r.high * 100.0)
}

fn print_summary(args: &SimulateArgs<'_>, s: &Summary) -> Result<(), Failure> {
    let r = args.ruleset;
    out(format!(
        "{}, {}.",
        r.title(),
        scenario_name(r, args.scenario)
    ))?;
    out(format!(
        "{}. {} games from seed {}.\n",
        r.commanders(),
        s.games,
        args.seed
    ))?;
    let mut rates = Table::new();
    rates
        .load_preset(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Disabled)
        .set_header(["", "games", "share", "95% interval"]);
    for side in Side::both() {
        rates.add_row([
            format!("{side} wins"),
            s.wins[side].to_string(),
            pct(s.win_rate[side].p),
            interval(s.win_rate[side]),
        ]);
    }
    rates.add_row([
        "draws".to_string(),
        s.draws.to_string(),
        pct(s.draw_rate.p),
        interval(s.draw_rate),
    ]);
    let early = s.decided_before_turn_limit();
    let early_games: u64 = s
        .reasons
        .iter()
        .filter(|(reason, _)| reason.before_turn_limit())
        .map(|(_, n)| n)
        .sum();
    rates.add_row([
        "decided before the turn limit".to_string(),
        early_games.to_string(),
        pct(early.p),
        interval(early),
    ]);
    right_align(&mut rates, 1..4);
    out(rates)?;

    let mut numbers = Table::new();
    numbers
        .load_preset(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Disabled)
        .set_header(["", "mean", "least", "median", "most"]);
    let mut row = |name: String, mean: f64, h: &BTreeMap<u32, u64>| {
        let (least, median, most) = spread(h);
        numbers.add_row([
            name,
            format!("{mean:.2}"),
            least.to_string(),
            median.to_string(),
            most.to_string(),
        ]);
    };
    row(
        "game length (turns)".to_string(),
        s.mean_length(),
        &s.length,
    );
    for side in Side::both() {
        row(
            format!("{side} losses ({})", r.loss_unit()),
            s.mean_losses(side),
            &s.losses[side],
        );
    }
    right_align(&mut numbers, 1..5);
    out(format!("\n{numbers}"))?;
    out("\nHow the games ended:")?;
    for (reason, n) in &s.reasons {
        out(format!("  {n:>6}  {reason}"))?;
    }
    Ok(())
}

fn right_align(table: &mut Table, columns: std::ops::Range<usize>) {
    for i in columns {
        if let Some(c) = table.column_mut(i) {
            c.set_cell_alignment(CellAlignment::Right);
        }
    }
}

/// `acw simulate --json`.
#[derive(Serialize)]
struct SimJson {
    ruleset: String,
    scenario: Option<String>,
    seed: u64,
    games: u64,
    wins: BySide<u64>,
    draws: u64,
    win_rate: BySide<Rate>,
    draw_rate: Rate,
    decided_before_turn_limit: Rate,
    mean_length: f64,
    length: BTreeMap<u32, u64>,
    reasons: BTreeMap<&'static str, u64>,
    loss_unit: &'static str,
    mean_losses: BySide<f64>,
    losses: BySide<BTreeMap<u32, u64>>,
}

impl SimJson {
    fn new(args: &SimulateArgs<'_>, s: &Summary) -> SimJson {
        SimJson {
            ruleset: args.ruleset.to_string(),
            scenario: args.scenario.map(|p| p.display().to_string()),
            seed: args.seed,
            games: s.games,
            wins: s.wins,
            draws: s.draws,
            win_rate: s.win_rate,
            draw_rate: s.draw_rate,
            decided_before_turn_limit: s.decided_before_turn_limit(),
            mean_length: s.mean_length(),
            length: s.length.clone(),
            reasons: s
                .reasons
                .iter()
                .map(|(&r, &n)| (reason_code(r), n))
                .collect(),
            loss_unit: args.ruleset.loss_unit(),
            mean_losses: BySide::new(s.mean_losses(Side::Union), s.mean_losses(Side::Confederate)),
            losses: s.losses.clone(),
        }
    }
}

/// A short fixed name of an end reason, for machine output.
fn reason_code(r: EndReason) -> &'static str {
    match r {
        EndReason::Annihilation => "annihilation",
        EndReason::ArmyBroken => "army_broken",
        EndReason::TurnLimit => "turn_limit",
        EndReason::Scenario => "scenario",
        _ => "other",
    }
}

fn write_csv(path: &Path, seed: u64, s: &Summary) -> Result<(), Failure> {
    let err = |source| Failure::Csv {
        path: path.display().to_string(),
        source,
    };
    let mut w = csv::Writer::from_path(path).map_err(err)?;
    w.write_record([
        "game",
        "seed",
        "result",
        "reason",
        "turn",
        "union_losses",
        "confederate_losses",
    ])
    .map_err(err)?;
    for r in &s.records {
        let result = match r.outcome.result {
            GameResult::Winner(Side::Union) => "union",
            GameResult::Winner(Side::Confederate) => "confederate",
            GameResult::Draw => "draw",
        };
        w.write_record([
            r.index.to_string(),
            game_seed(seed, r.index).to_string(),
            result.to_string(),
            reason_code(r.outcome.reason).to_string(),
            r.outcome.turn.to_string(),
            r.losses.union.to_string(),
            r.losses.confederate.to_string(),
        ])
        .map_err(err)?;
    }
    w.flush().map_err(|source| Failure::Write {
        path: path.display().to_string(),
        source,
    })
}
