//! `acw roll` and `acw odds`.

use crate::{Failure, out, plot};
use acw::GameRng;
use acw::dice::{DiceExpr, Keep};
use acw::odds::Prob;
use comfy_table::{CellAlignment, ContentArrangement, Table, presets};
use serde::Serialize;
use std::path::Path;

/// `acw roll`: each roll's faces in the order thrown, the faces kept (with keep/drop), the modifier and the
/// total.
pub fn roll(expr: &DiceExpr, seed: Option<u64>, times: u64) -> Result<(), Failure> {
    let seed = seed.unwrap_or_else(|| {
        let seed = fresh_seed();
        eprintln!("seed {seed} (`--seed {seed}` rolls these again)");
        seed
    });
    let mut rng = GameRng::seed(seed);
    let mut sum = 0i64;
    for _ in 0..times {
        let thrown = expr.pool.throw(&mut rng);
        let total = i64::from(thrown.total()) + i64::from(expr.modifier);
        sum += total;
        out(describe_roll(expr, &thrown, total))?;
    }
    if times > 1 {
        let mean = sum as f64 / times as f64;
        // The exact mean only when its distribution is within the work limit of `acw odds`.
        match expr.exact_odds() {
            Ok(odds) => {
                let exact = odds.expect(|&t| t as f64);
                out(format!(
                    "mean of {times} rolls {mean:.3} (exact mean {exact:.3})"
                ))?;
            }
            Err(_) => out(format!(
                "mean of {times} rolls {mean:.3} (the exact mean is too much work to work out)"
            ))?,
        }
    }
    Ok(())
}

fn describe_roll(expr: &DiceExpr, thrown: &acw::dice::PoolRoll, total: i64) -> String {
    let join = |faces: &mut dyn Iterator<Item = u16>| {
        faces.map(|f| f.to_string()).collect::<Vec<_>>().join(" ")
    };
    let mut line = format!("{expr}: {}", join(&mut thrown.faces().iter().copied()));
    if expr.pool.keep() != Keep::All {
        line.push_str(&format!(", keeps {}", join(&mut thrown.kept().iter())));
    }
    match expr.modifier {
        0 => {}
        m if m > 0 => line.push_str(&format!(", +{m}")),
        m => line.push_str(&format!(", {m}")),
    }
    line.push_str(&format!(" = {total}"));
    line
}

/// A seed from the clock, for a roll nobody asked to repeat.
fn fresh_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() ^ u64::from(d.subsec_nanos()).rotate_left(32))
        .unwrap_or(1863)
}

/// One total of a distribution.
#[derive(Serialize)]
struct Row {
    total: i64,
    p: f64,
    p_at_least: f64,
    p_at_most: f64,
    /// How many of the equally likely throws give this total, when that count is exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    ways: Option<u64>,
}

#[derive(Serialize)]
struct Odds {
    notation: String,
    /// Equally likely throws of the pool (sides^count), when at most 10^12.
    #[serde(skip_serializing_if = "Option::is_none")]
    throws: Option<u64>,
    mean: f64,
    standard_deviation: f64,
    median: i64,
    outcomes: Vec<Row>,
}

/// The number of equally likely throws of the pool (sides^count), when it is at most 10^12: small enough that
/// each total's count of throws is read back exactly from its probability.
fn throws(expr: &DiceExpr) -> Option<u64> {
    let sides = u64::from(expr.pool.die().sides());
    let mut n = 1u64;
    for _ in 0..expr.pool.count() {
        n = n.checked_mul(sides).filter(|&n| n <= 1_000_000_000_000)?;
    }
    Some(n)
}

/// The exact odds of `expr`, refused (exit code 1, a sentence) when they would take more than about a second
/// to work out.
fn odds_of(expr: &DiceExpr) -> Result<Odds, Failure> {
    let dist = expr.exact_odds()?;
    let n = throws(expr);
    let rows = dist
        .table()
        .into_iter()
        .map(|r| Row {
            total: *r.value,
            p: r.p,
            p_at_least: r.at_least,
            p_at_most: r.at_most,
            ways: n.map(|n| (r.p * n as f64).round() as u64),
        })
        .collect();
    let mean = dist.expect(|&t| t as f64);
    let variance = dist.expect(|&t| (t as f64 - mean).powi(2));
    Ok(Odds {
        notation: expr.to_string(),
        throws: n,
        mean,
        standard_deviation: variance.sqrt(),
        median: *dist.quantile(0.5),
        outcomes: rows,
    })
}

/// A probability to read, as every table of acw prints one (`acw::odds::Prob`).
fn prob(p: f64) -> String {
    Prob(p).to_string()
}

/// `acw odds`: the exact distribution as a table (or JSON or CSV), and optionally a chart.
pub fn odds(expr: &DiceExpr, json: bool, csv: bool, chart: Option<&Path>) -> Result<(), Failure> {
    let odds = odds_of(expr)?;
    if json {
        out(serde_json::to_string_pretty(&odds)?)?;
    } else if csv {
        let mut w = csv::Writer::from_writer(std::io::stdout().lock());
        let csv_err = |source| Failure::Csv {
            path: "standard output".to_string(),
            source,
        };
        w.write_record(["total", "p", "p_at_least", "p_at_most", "ways"])
            .map_err(csv_err)?;
        for r in &odds.outcomes {
            w.write_record([
                r.total.to_string(),
                r.p.to_string(),
                r.p_at_least.to_string(),
                r.p_at_most.to_string(),
                r.ways.map(|w| w.to_string()).unwrap_or_default(),
            ])
            .map_err(csv_err)?;
        }
        w.flush().map_err(Failure::Stdout)?;
    } else {
        print_table(&odds)?;
    }
    if let Some(path) = chart {
        let points: Vec<(i64, f64)> = odds.outcomes.iter().map(|r| (r.total, r.p)).collect();
        plot::odds_chart(path, &odds.notation, &points)?;
        eprintln!(
            "drew the distribution of {} in {}",
            odds.notation,
            path.display()
        );
    }
    Ok(())
}

fn print_table(odds: &Odds) -> Result<(), Failure> {
    let mut table = Table::new();
    table
        .load_preset(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Disabled);
    let ways_header = odds
        .throws
        .map(|n| format!("ways of {n}"))
        .unwrap_or_default();
    let mut header = vec!["total", "P(=)", "P(≥)", "P(≤)"];
    if odds.throws.is_some() {
        header.push(&ways_header);
    }
    header.push("");
    table.set_header(header);
    let most = odds.outcomes.iter().map(|r| r.p).fold(0.0, f64::max);
    for r in &odds.outcomes {
        let bar = "█".repeat(((r.p / most) * 40.0).round() as usize);
        let mut row = vec![
            r.total.to_string(),
            prob(r.p),
            prob(r.p_at_least),
            prob(r.p_at_most),
        ];
        if let (Some(w), Some(n)) = (r.ways, odds.throws) {
            row.push(format!("{w}/{n}"));
        }
        row.push(bar);
        table.add_row(row);
    }
    let last = if odds.throws.is_some() { 5 } else { 4 };
    for i in 0..last {
        if let Some(c) = table.column_mut(i) {
            c.set_cell_alignment(CellAlignment::Right);
        }
    }
    out(format!(
        "{}: exact distribution of the total",
        odds.notation
    ))?;
    out(table)?;
    out(format!(
        "mean {:.3}, standard deviation {:.3}, median {}",
        odds.mean, odds.standard_deviation, odds.median
    ))
}
