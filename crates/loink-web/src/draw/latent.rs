//! `canvas#latent`: the latent space of the learned map. planar4's 2-D latent plane as a heat
//! map of the true cost J(G⁻¹([y; z])) with the origin and the samples; planar3's 1-D latent
//! line as a colour strip of the same. The heat map is computed by the engine (cached per
//! target) and put with one `putImageData`.

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::palette::{self, INK, MUTED, OPTIMUM, SAMPLE};
use super::{
    caption, grid_to_rgba, text_err, Corner, DrawResult, Legend, Mark, Surface, CAPTION_BAND,
};
use crate::learned::LatentMap;
use crate::view::Viewport;

/// What the latent panel shows.
pub struct LatentScene<'a> {
    /// The cost map (None without a learned model).
    pub map: Option<&'a LatentMap>,
    /// Why there is no map, when there is none.
    pub no_map: &'a str,
    /// The reader's latent probe z (empty: none).
    pub probe: &'a [f64],
    /// A multi-chart model: (the chart shown, the number of charts); None for one chart.
    pub chart: Option<(usize, usize)>,
    /// What a pose outside the problem's useful domain is outside it for (the climber's
    /// ankles and body), when the problem has such a domain: those cells are drawn pale.
    pub domain: Option<&'a str>,
}

/// A cell's colour washed out towards white (a pose outside the useful domain).
fn pale(c: [u8; 3]) -> [u8; 3] {
    c.map(|v| (f64::from(v) * 0.4 + 255.0 * 0.6) as u8)
}

/// Draws the panel; returns the plot's pixel ↔ z map (y is z₂ on a plane, a dummy axis on a
/// line), for pointer input. Layout (caption, plot and colour bar), the cost map and its axes,
/// the marks (samples, the optimum's z, the origin, the reader's z), then the legend.
pub fn draw(surface: &Surface, scene: &LatentScene) -> DrawResult<Option<Viewport>> {
    let area = surface.area()?;
    let Some(map) = scene.map else {
        caption(
            &area,
            surface,
            "Latent space: the true cost over the learned latent coordinates z",
        )?;
        super::landscape::message(&area, surface, scene.no_map)?;
        area.present().map_err(text_err)?;
        return Ok(None);
    };
    let two_d = map.rows > 1;
    caption(&area, surface, &caption_text(map, scene.chart))?;
    let body = area.margin(surface.px(CAPTION_BAND), 0, 0, 0);
    let (plot, bar) = body.split_horizontally(body.dim_in_pixel().0 as i32 - surface.px(70.0));
    let [z0, z1] = map.z_range;
    let (y0, y1) = if two_d { (z0, z1) } else { (-1.0, 1.0) };
    let mut chart = ChartBuilder::on(&plot)
        .margin(surface.px(6.0))
        .x_label_area_size(surface.px(30.0))
        .y_label_area_size(surface.px(if two_d { 40.0 } else { 8.0 }))
        .build_cartesian_2d(z0..z1, y0..y1)
        .map_err(text_err)?;
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let view = Viewport {
        pixels: [
            xr.start as f64,
            yr.start as f64,
            xr.end as f64,
            yr.end as f64,
        ],
        world: [z0, z1, y0, y1],
    };
    draw_cost_map(surface, map, &view)?;
    let mut mesh = chart.configure_mesh();
    mesh.disable_mesh()
        .x_desc(if two_d {
            axis_name(map.axes[0])
        } else {
            "z (latent coordinate)".to_string()
        })
        .label_style(surface.font(palette::LABEL_PX, INK))
        .axis_desc_style(surface.font(palette::LABEL_PX, INK))
        .x_labels(6);
    if two_d {
        mesh.y_desc(axis_name(map.axes[1])).y_labels(6);
    } else {
        mesh.y_labels(0);
    }
    mesh.draw().map_err(text_err)?;
    let mut legend = Legend::default();
    draw_marks(&mut chart, surface, scene, map, &mut legend)?;
    legend.draw(
        &area,
        surface,
        chart.plotting_area().get_pixel_range(),
        Corner::UpperLeft,
    )?;
    let (lo, hi) = map.cost_range;
    super::colour_bar::draw(&bar, surface, (lo, hi), "cost J", 40.0, None)?;
    area.present().map_err(text_err)?;
    Ok(Some(view))
}

/// The panel's caption: a plane, a slice of a larger latent space, or a line (of the winning
/// chart, for a multi-chart model).
fn caption_text(map: &LatentMap, chart: Option<(usize, usize)>) -> String {
    match (map.rows > 1, chart) {
        #[cfg(feature = "view3d")]
        (true, _) if map.base.len() > 2 => format!(
            "Latent slice {} of LOInK: true cost J(G⁻¹([y; z])), z = 0 is LOInK's answer; drag z to swing the arm, the hand stays",
            slice_words(map)
        ),
        (true, _) => "Latent plane of LOInK: true cost J(G⁻¹([y; z])) — LOInK's answer is z = 0; drag to try another z".to_string(),
        (false, None) => "Latent line of LOInK: true cost J(G⁻¹([y; z])) along z — LOInK's answer is z = 0; drag along it".to_string(),
        (false, Some((k, count))) => format!(
            "Latent line of the winning chart ({k} of {count}): true cost J(Gₖ⁻¹([y; z])) — its answer is z = 0"
        ),
    }
}

/// The true cost over the latent grid as an image under the plot: viridis, grey where a joint
/// limit breaks, pale outside the useful domain (a line: a strip across the middle).
fn draw_cost_map(surface: &Surface, map: &LatentMap, view: &Viewport) -> DrawResult {
    let [x0, y0, x1, y1] = view.pixels;
    let (w, h) = (
        ((x1 - x0) as i32).max(1) as u32,
        ((y1 - y0) as i32).max(1) as u32,
    );
    let two_d = map.rows > 1;
    let (lo, hi) = map.cost_range;
    let grey = [MUTED.0, MUTED.1, MUTED.2];
    let cells: Vec<Option<[u8; 3]>> = (map.cost.iter().zip(&map.outside_limits))
        .zip(&map.outside_domain)
        .map(
            |((&c, &outside), &off_domain)| match (c.is_finite(), outside) {
                (true, true) => Some(grey),
                (true, false) => {
                    let colour = palette::viridis((c - lo) / (hi - lo).max(1e-12));
                    Some(if off_domain { pale(colour) } else { colour })
                }
                _ => None,
            },
        )
        .collect();
    let strip_h = if two_d { h } else { (h / 3).max(4) };
    let rgba = grid_to_rgba(&cells, map.cols, map.rows, w, strip_h);
    let top = if two_d {
        y0 as i32
    } else {
        y0 as i32 + ((h - strip_h) / 2) as i32
    };
    surface.put_rgba(&rgba, w, strip_h, x0, top as f64)
}

/// The samples, the optimum's z, the latent origin (LOInK's answer) and the reader's z, with
/// their legend lines and the map's colour notes.
fn draw_marks(
    chart: &mut ChartContext<'_, super::Canvas2d, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    surface: &Surface,
    scene: &LatentScene,
    map: &LatentMap,
    legend: &mut Legend,
) -> DrawResult {
    let r = surface.px(5.0);
    let s2 = surface.stroke(2.0);
    let to_point = |z: &[f64]| map.point(z);
    if !map.samples.is_empty() {
        chart
            .draw_series(
                map.samples
                    .iter()
                    .map(|z| Circle::new(to_point(z), surface.px(3.0), SAMPLE.filled())),
            )
            .map_err(text_err)?;
        legend.add(Mark::Dot(SAMPLE.to_rgba()), "samples z ~ N(0, σ²I)");
    }
    if let Some(z) = &map.optimum_z {
        chart
            .draw_series(std::iter::once(Circle::new(
                to_point(z),
                r,
                OPTIMUM.stroke_width(s2),
            )))
            .map_err(text_err)?;
        legend.add(
            Mark::Ring(OPTIMUM.to_rgba()),
            "latent z of the true optimum",
        );
    }
    chart
        .draw_series(std::iter::once(Cross::new(
            (0.0, 0.0),
            r,
            WHITE.stroke_width(surface.stroke(4.0)),
        )))
        .map_err(text_err)?;
    chart
        .draw_series(std::iter::once(Cross::new(
            (0.0, 0.0),
            r,
            INK.stroke_width(s2),
        )))
        .map_err(text_err)?;
    legend.add(
        Mark::Cross(INK.to_rgba()),
        "latent origin z = 0 (LOInK's answer)",
    );
    if map.outside_limits.iter().any(|&o| o) {
        legend.add(Mark::Swatch(MUTED.to_rgba()), "a joint limit broken");
    }
    if let Some(words) = scene
        .domain
        .filter(|_| map.outside_domain.iter().any(|&o| o))
    {
        let [r, g, b] = pale(palette::viridis(0.1));
        legend.add(
            Mark::Swatch(RGBColor(r, g, b).to_rgba()),
            format!("pale: {words}"),
        );
    }
    if !scene.probe.is_empty() {
        let p = to_point(scene.probe);
        chart
            .draw_series([
                Circle::new(p, surface.px(6.0), WHITE.filled()),
                Circle::new(p, surface.px(6.0), SAMPLE.stroke_width(surface.stroke(2.5))),
            ])
            .map_err(text_err)?;
        legend.add(
            Mark::Ring(SAMPLE.to_rgba()),
            "your z (drag, arrow keys; Esc clears)",
        );
    }
    Ok(())
}

/// Latent axis `i` (0-based) as the panel names it: z₁, z₂, …
#[cfg(not(feature = "view3d"))]
fn axis_name(i: usize) -> String {
    // Without a sliced latent space the plane's axes are the first two.
    if i == 0 { "z₁" } else { "z₂" }.to_string()
}

/// Latent axis `i` (0-based) as the panel names it: z₁, z₂, …
#[cfg(feature = "view3d")]
fn axis_name(i: usize) -> String {
    const DIGITS: [char; 10] = ['₀', '₁', '₂', '₃', '₄', '₅', '₆', '₇', '₈', '₉'];
    let digits: String = (i + 1)
        .to_string()
        .chars()
        .filter_map(|c| c.to_digit(10).map(|d| DIGITS[d as usize]))
        .collect();
    format!("z{digits}")
}

/// A slice in words: its axes and the value of every other latent coordinate
/// ("z₁–z₂ at z₃ = 0.25").
#[cfg(feature = "view3d")]
fn slice_words(map: &LatentMap) -> String {
    let fixed: Vec<String> = (0..map.base.len())
        .filter(|i| !map.axes.contains(i))
        .map(|i| format!("{} = {:.2}", axis_name(i), map.base[i]))
        .collect();
    format!(
        "{}–{} at {}",
        axis_name(map.axes[0]),
        axis_name(map.axes[1]),
        fixed.join(", ")
    )
}
