//! SVG charts: a distribution of totals (`acw odds --plot`) and loss distributions (`acw simulate --plot`).

use crate::Failure;
use acw::BySide;
use plotters::prelude::*;
use std::path::Path;

fn plot_error(path: &Path, e: impl std::fmt::Display) -> Failure {
    Failure::Plot {
        path: path.display().to_string(),
        why: e.to_string(),
    }
}

/// The chance of each total, as a filled area under a line.
pub fn odds_chart(path: &Path, notation: &str, points: &[(i64, f64)]) -> Result<(), Failure> {
    let err = |e| plot_error(path, e);
    let (Some(&(low, _)), Some(&(high, _))) = (points.first(), points.last()) else {
        return Ok(());
    };
    let top = points.iter().map(|p| p.1).fold(0.0, f64::max) * 1.1;
    let root = SVGBackend::new(path, (800, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{notation}: chance of each total"),
            ("sans-serif", 22),
        )
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(low..high, 0.0..top)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("total")
        .y_desc("P(total)")
        .draw()
        .map_err(err)?;
    chart
        .draw_series(
            AreaSeries::new(points.iter().copied(), 0.0, BLUE.mix(0.25)).border_style(BLUE),
        )
        .map_err(err)?;
    root.present().map_err(err)
}

/// Each side's share of games by losses at the end, one line per side.
pub fn losses_chart(
    path: &Path,
    title: &str,
    unit: &str,
    shares: &BySide<Vec<(u32, f64)>>,
) -> Result<(), Failure> {
    let err = |e| plot_error(path, e);
    let most = [&shares.union, &shares.confederate]
        .iter()
        .flat_map(|s| s.iter().map(|p| p.0))
        .max()
        .unwrap_or(0);
    let top = [&shares.union, &shares.confederate]
        .iter()
        .flat_map(|s| s.iter().map(|p| p.1))
        .fold(0.0, f64::max)
        * 1.1;
    let root = SVGBackend::new(path, (800, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0..most + 1, 0.0..top.max(0.01))
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(format!("{unit} lost"))
        .y_desc("share of games")
        .draw()
        .map_err(err)?;
    for (name, points, colour) in [
        ("Union", &shares.union, BLUE),
        ("Confederate", &shares.confederate, RED),
    ] {
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                colour.stroke_width(2),
            ))
            .map_err(err)?
            .label(name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)
}
