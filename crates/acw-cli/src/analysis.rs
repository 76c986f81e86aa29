//! `acw rules`, `acw odds RULESET PROCEDURE`, `acw luck`, `acw compare` and the luck line of `acw battle --luck`.

use crate::{Failure, out, plot};
use acw::RulesetId;
use acw::catalogue::{Catalogue, Entry, OddsTable};
use acw::compare::{Comparison, Difference};
use acw::luck::{Luck, SideLuck};
use acw::runtime::{self, Scenario};
use acw::{BySide, Side};
use comfy_table::{CellAlignment, ContentArrangement, Table, presets};
use plotters::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

fn table() -> Table {
    let mut t = Table::new();
    t.load_preset(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Disabled);
    t
}

fn right_align(t: &mut Table, columns: std::ops::Range<usize>) {
    for i in columns {
        if let Some(c) = t.column_mut(i) {
            c.set_cell_alignment(CellAlignment::Right);
        }
    }
}

fn lookup(ruleset: &str) -> Result<Catalogue, Failure> {
    runtime::catalogue(ruleset).map_err(|e| Failure::Usage(e.to_string()))
}

/// `acw rules RULESET [--options]`: the procedures (or the options) of a ruleset.
pub fn rules(ruleset: &str, options: bool) -> Result<(), Failure> {
    if options {
        let id: RulesetId = ruleset
            .parse()
            .map_err(|e: acw::RulesetError| Failure::Usage(e.to_string()))?;
        let mut t = table();
        t.set_header(["option", "default", "accepts"]);
        for o in runtime::options(id) {
            t.add_row([o.name.to_string(), o.default, o.kind.to_string()]);
        }
        out(format!(
            "Options of {} (set with `acw compare {id} --option name=value`):",
            id.title()
        ))?;
        return out(t);
    }
    let c = lookup(ruleset)?;
    out(format!(
        "Procedures of the {} rules (exact odds with `acw odds {} PROCEDURE key=value ...`):\n",
        c.ruleset(),
        c.ruleset()
    ))?;
    for e in c.entries() {
        out(format!("{}  ({})", e.name, e.rules.join(", ")))?;
        out(format!("    {}", e.summary))?;
        for p in e.params {
            out(format!(
                "    {}={}  {}; {}",
                p.name,
                p.default_text(),
                p.doc,
                p.kind
            ))?;
        }
    }
    Ok(())
}

/// The simplest fraction within 1e-9 of `p` with a denominator up to 46656 (6^6), if there is one.
fn fraction(p: f64) -> Option<(u64, u64)> {
    (1..=46_656u64).find_map(|d| {
        let n = (p * d as f64).round();
        ((p * d as f64 - n).abs() < 1e-9 * d as f64).then_some((n as u64, d))
    })
}

#[derive(Serialize)]
struct OutcomeRow {
    outcome: String,
    p: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    fraction: Option<String>,
}

#[derive(Serialize)]
struct ProcedureOdds {
    ruleset: &'static str,
    procedure: &'static str,
    rules: &'static [&'static str],
    parameters: BTreeMap<&'static str, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mean: Option<f64>,
    outcomes: Vec<OutcomeRow>,
}

fn parameters(entry: &Entry, pairs: &[String]) -> BTreeMap<&'static str, String> {
    let mut map: BTreeMap<&'static str, String> = entry
        .params
        .iter()
        .map(|p| (p.name, p.default_text()))
        .collect();
    for pair in pairs {
        if let Some((k, v)) = pair.split_once('=')
            && let Some(p) = entry.param(k)
        {
            map.insert(p.name, v.trim().to_string());
        }
    }
    map
}

fn mean(t: &OddsTable) -> Option<f64> {
    t.numeric().then(|| {
        t.rows()
            .iter()
            .map(|r| r.label.parse::<f64>().unwrap_or(0.0) * r.p)
            .sum()
    })
}

/// `acw odds RULESET PROCEDURE [key=value ...]`: a procedure's exact distribution.
pub fn procedure_odds(
    ruleset: &str,
    procedure: &str,
    pairs: &[String],
    json: bool,
    chart: Option<&Path>,
) -> Result<(), Failure> {
    let c = lookup(ruleset)?;
    let entry = c
        .entry(procedure)
        .map_err(|e| Failure::Usage(e.to_string()))?;
    let built = c
        .build_from(procedure, pairs)
        .map_err(|e| Failure::Usage(e.to_string()))?;
    let t = built.table();
    let params = parameters(entry, pairs);
    let rows: Vec<OutcomeRow> = t
        .rows()
        .iter()
        .map(|r| OutcomeRow {
            outcome: r.label.clone(),
            p: r.p,
            fraction: fraction(r.p).map(|(n, d)| format!("{n}/{d}")),
        })
        .collect();
    // The title names what was given; the JSON lists every parameter with the defaults.
    let title = format!(
        "{} {}{}",
        c.ruleset(),
        entry.name,
        pairs.iter().map(|p| format!(" {p}")).collect::<String>()
    );
    if json {
        let doc = ProcedureOdds {
            ruleset: c.ruleset(),
            procedure: entry.name,
            rules: entry.rules,
            parameters: params,
            mean: mean(&t),
            outcomes: rows,
        };
        out(serde_json::to_string_pretty(&doc)?)?;
    } else {
        out(format!("{title}: exact distribution of the outcome"))?;
        out(format!("{} ({})", entry.summary, entry.rules.join(", ")))?;
        let mut tab = table();
        tab.set_header(["outcome", "P", "as a fraction", ""]);
        let most = rows.iter().map(|r| r.p).fold(0.0, f64::max);
        for r in &rows {
            tab.add_row([
                r.outcome.clone(),
                format!("{:.6}", r.p),
                r.fraction.clone().unwrap_or_default(),
                "█".repeat(((r.p / most) * 40.0).round() as usize),
            ]);
        }
        right_align(&mut tab, 1..3);
        out(tab)?;
        if let Some(m) = mean(&t) {
            out(format!("mean {m:.3}"))?;
        }
    }
    if let Some(path) = chart {
        if t.numeric() {
            let points: Vec<(i64, f64)> = t
                .rows()
                .iter()
                .map(|r| (r.label.parse().unwrap_or(0), r.p))
                .collect();
            plot::odds_chart(path, &title, &points)?;
        } else {
            bar_chart(path, &title, &t)?;
        }
        eprintln!("drew the distribution of {title} in {}", path.display());
    }
    Ok(())
}

/// One bar per outcome, labelled.
fn bar_chart(path: &Path, title: &str, t: &OddsTable) -> Result<(), Failure> {
    let err = |e: &dyn std::fmt::Display| Failure::Plot {
        path: path.display().to_string(),
        why: e.to_string(),
    };
    let n = t.rows().len() as i32;
    let top = t.rows().iter().map(|r| r.p).fold(0.0, f64::max) * 1.1;
    let root = SVGBackend::new(path, (900, 520)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let labels: Vec<String> = t.rows().iter().map(|r| r.label.clone()).collect();
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{title}: chance of each outcome"),
            ("sans-serif", 20),
        )
        .margin(15)
        .x_label_area_size(60)
        .y_label_area_size(70)
        .build_cartesian_2d(0..n, 0.0..top.max(0.01))
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(labels.len())
        .x_label_formatter(&|i| {
            usize::try_from(*i)
                .ok()
                .and_then(|i| labels.get(i))
                .cloned()
                .unwrap_or_default()
        })
        .y_desc("P(outcome)")
        .draw()
        .map_err(|e| err(&e))?;
    chart
        .draw_series(t.rows().iter().enumerate().map(|(i, r)| {
            let x = i as i32;
            Rectangle::new([(x, 0.0), (x + 1, r.p)], BLUE.mix(0.4).filled())
        }))
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// The luck lines printed after a battle and by `acw luck`.
pub fn print_luck(luck: &Luck) -> Result<(), Failure> {
    out("Luck (mean percentile of each side's rolls within their own odds; 50 is par):")?;
    for side in Side::both() {
        out(format!("  {side}: {}", luck.by_side()[side]))?;
    }
    Ok(())
}

#[derive(Serialize)]
struct LuckJson {
    ruleset: String,
    luck: BySide<SideLuck>,
}

/// `acw luck RULESET LOG.jsonl`.
pub fn luck(ruleset: RulesetId, log: &Path, json: bool) -> Result<(), Failure> {
    let text = std::fs::read_to_string(log).map_err(|source| Failure::Read {
        path: log.display().to_string(),
        source,
    })?;
    let luck = runtime::luck_of_log(ruleset, &text)?;
    if json {
        return out(serde_json::to_string_pretty(&LuckJson {
            ruleset: ruleset.to_string(),
            luck: luck.by_side(),
        })?);
    }
    out(format!("{} log {}.", ruleset.title(), log.display()))?;
    print_luck(&luck)
}

/// What `acw compare` was asked.
pub struct CompareArgs<'a> {
    pub ruleset: RulesetId,
    pub games: u64,
    pub seed: u64,
    pub options: &'a [String],
    pub scenario: Option<&'a Path>,
    pub json: bool,
}

#[derive(Serialize)]
struct CompareJson<'a> {
    ruleset: String,
    seed: u64,
    options: &'a [String],
    loss_unit: &'static str,
    comparison: Comparison,
}

fn signed(d: &Difference, scale: f64, digits: usize) -> [String; 2] {
    [
        format!("{:+.*}", digits, d.mean * scale),
        format!(
            "{:+.*} to {:+.*}",
            digits,
            d.low * scale,
            digits,
            d.high * scale
        ),
    ]
}

/// `acw compare RULESET --games N --option name=value ...`.
pub fn compare(args: &CompareArgs<'_>) -> Result<(), Failure> {
    let base = match args.scenario {
        Some(path) => Scenario::load(args.ruleset, path)?,
        None => Scenario::default_for(args.ruleset),
    };
    let changed = base
        .with_options(args.options)
        .map_err(|e| Failure::Usage(e.to_string()))?;
    let c = runtime::compare(&base, &changed, args.seed, args.games, |_, _| {})?;
    if args.json {
        return out(serde_json::to_string_pretty(&CompareJson {
            ruleset: args.ruleset.to_string(),
            seed: args.seed,
            options: args.options,
            loss_unit: args.ruleset.loss_unit(),
            comparison: c,
        })?);
    }
    out(format!(
        "{}: {} games from seed {}, each played under the default options and under {}.",
        args.ruleset.title(),
        c.games,
        args.seed,
        args.options.join(" ")
    ))?;
    let mut t = table();
    t.set_header(["", "default", "changed", "change", "95% interval"]);
    for side in Side::both() {
        let [d, i] = signed(&c.win[side], 100.0, 1);
        t.add_row([
            format!("{side} wins (%)"),
            format!("{:.1}", c.base_win[side] * 100.0),
            format!("{:.1}", c.changed_win[side] * 100.0),
            d,
            i,
        ]);
    }
    let draws = |w: &BySide<f64>| (1.0 - w.union - w.confederate) * 100.0;
    let [d, i] = signed(&c.draw, 100.0, 1);
    t.add_row([
        "draws (%)".to_string(),
        format!("{:.1}", draws(&c.base_win)),
        format!("{:.1}", draws(&c.changed_win)),
        d,
        i,
    ]);
    for side in Side::both() {
        let [d, i] = signed(&c.losses[side], 1.0, 2);
        t.add_row([
            format!("{side} losses ({})", args.ruleset.loss_unit()),
            format!("{:.2}", c.base_losses[side]),
            format!("{:.2}", c.changed_losses[side]),
            d,
            i,
        ]);
    }
    right_align(&mut t, 1..5);
    out(t)?;
    out(
        "The change is the mean of the game-by-game differences (changed minus default) over the same seeds; \
         an interval that leaves out 0 is a difference beyond chance.",
    )
}
