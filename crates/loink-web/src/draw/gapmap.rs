//! `canvas#gapmap`: the workspace coloured by LOInK's optimality gap to J* (log colour scale),
//! computed once per model and cached ([`crate::gap::GapMap`]); the target is marked so the
//! reader sees whether the current point lies where the learned solver is good.

use plotters::prelude::*;

use super::palette::{self, TARGET};
use super::units;
use super::{caption, text_err, Corner, DrawResult, Legend, Mark, Surface, CAPTION_BAND};
use crate::gap::{GapCell, GapMap, CELLS};
use crate::view::Viewport;

/// Gap (percent) at the bottom and top of the log colour scale.
const GAP_LO: f64 = 0.01;
const GAP_HI: f64 = 100.0;

/// Colour for a gap: viridis over log₁₀ from 0.01% to 100%.
pub fn gap_colour(gap: f64) -> [u8; 3] {
    let t = (gap.max(GAP_LO).log10() - GAP_LO.log10()) / (GAP_HI.log10() - GAP_LO.log10());
    palette::viridis(t)
}

/// What the gap panel shows.
pub struct GapScene<'a> {
    /// The map (None without a learned model).
    pub map: Option<&'a GapMap>,
    /// Why there is none.
    pub no_map: &'a str,
    /// The current target (drawn by [`draw_marker`], after the cached [`draw_static`]).
    pub target: &'a [f64],
    /// A `CELLS × CELLS` off-screen surface the cells are painted into.
    pub cells: &'a Surface,
}

/// The map's cells as RGBA pixels, row 0 at the top; pending cells transparent.
fn cells_rgba(map: &GapMap) -> Vec<u8> {
    let mut rgba = vec![0u8; CELLS * CELLS * 4];
    for (pixel, cell) in rgba.chunks_exact_mut(4).zip(&map.cells) {
        let colour = match *cell {
            GapCell::Gap(g) => Some(gap_colour(g)),
            GapCell::Failed => Some([213, 94, 0]),
            GapCell::Unreachable => Some([235, 235, 235]),
            GapCell::Pending => None,
        };
        if let Some(c) = colour {
            pixel.copy_from_slice(&[c[0], c[1], c[2], 255]);
        }
    }
    rgba
}

/// The target marker (white-rimmed ring) at world point `target` of the plot `view`.
pub fn draw_marker(surface: &Surface, view: &Viewport, target: &[f64]) -> DrawResult {
    let [x, y] = view.to_pixel(target[0], target[1]);
    let r = surface.px(6.0) as f64;
    let c = surface.context();
    for (colour, width) in [(WHITE, 4.0), (TARGET, 2.0)] {
        surface.record_circle((x, y), r, colour, surface.stroke(width));
        c.begin_path();
        c.arc(x, y, r, 0.0, std::f64::consts::TAU)
            .map_err(|_| "the browser refused to draw an arc".to_string())?;
        c.set_stroke_style_str(&format!("rgb({},{},{})", colour.0, colour.1, colour.2));
        c.set_line_width(surface.stroke(width) as f64);
        c.stroke();
    }
    Ok(())
}

/// Everything but the target marker: it changes only with the map's progress and the canvas
/// size, so the playground caches it. Returns the plot's pixel ↔ world map (None when there
/// is no map).
pub fn draw_static(surface: &Surface, scene: &GapScene) -> DrawResult<Option<Viewport>> {
    let area = surface.area()?;
    let Some(map) = scene.map else {
        caption(&area, surface, "Optimality gap of LOInK over the workspace")?;
        super::landscape::message(&area, surface, scene.no_map)?;
        area.present().map_err(text_err)?;
        return Ok(None);
    };
    // A target with more coordinates than the plane's two (the climber's, in the full bundle)
    // is mapped at the current ones.
    #[cfg(feature = "target-controls")]
    let at: String = (map.rest.iter().enumerate())
        .map(|(i, v)| {
            // Millimetres at most: the raw number of a dragged target runs to 16 digits.
            let text = format!("{v:.3}");
            let text = text.trim_end_matches('0').trim_end_matches('.');
            format!(", y{} = {text}", i + 3)
        })
        .collect();
    #[cfg(not(feature = "target-controls"))]
    let at = "";
    let what = format!(
        "Gap (J − J*)/J* of LOInK one-shot + {} refinement steps (whatever the solver){at}",
        crate::gap::REFINE_STEPS
    );
    let text = if map.done() {
        match map.median_gap() {
            Some(g) => format!("{what} — median {}%", crate::state::gap_text(g)),
            None => what,
        }
    } else {
        format!("{what} — computing {:.0}%", 100.0 * map.progress())
    };
    caption(&area, surface, &text)?;
    let body = area.margin(surface.px(CAPTION_BAND), 0, 0, 0);
    let (plot, bar) = body.split_horizontally(body.dim_in_pixel().0 as i32 - surface.px(78.0));
    let (pw, ph) = plot.dim_in_pixel();
    let (ox, oy) = (surface.px(46.0) as f64, surface.px(6.0) as f64);
    let (x, y) = Viewport::fit_world(
        map.bounds,
        pw as f64 - ox - surface.px(6.0) as f64,
        ph as f64 - oy - surface.px(36.0) as f64,
    );
    let millimetres = units::in_millimetres((x[1] - x[0]).max(y[1] - y[0]));
    let mut chart = ChartBuilder::on(&plot)
        .margin(surface.px(6.0))
        .x_label_area_size(surface.px(30.0))
        .y_label_area_size(surface.px(40.0))
        .build_cartesian_2d(x[0]..x[1], y[0]..y[1])
        .map_err(text_err)?;
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let (w, h) = (
        (xr.end - xr.start).max(1) as u32,
        (yr.end - yr.start).max(1) as u32,
    );
    // The cells as a CELLS × CELLS image, scaled onto the rectangle they cover (equal scale,
    // centred): one small putImageData and one drawImage however large the canvas.
    scene
        .cells
        .put_rgba(&cells_rgba(map), CELLS as u32, CELLS as u32, 0.0, 0.0)?;
    let (sx, sy) = (w as f64 / (x[1] - x[0]), h as f64 / (y[1] - y[0]));
    let (left, top) = (xr.start as f64, yr.start as f64);
    let [bx0, bx1, by0, by1] = map.bounds;
    let dest = [
        left + (bx0 - x[0]) * sx,
        top + (y[1] - by1) * sy,
        left + (bx1 - x[0]) * sx,
        top + (y[1] - by0) * sy,
    ];
    let clip = [left, top, xr.end as f64, yr.end as f64];
    surface.blit_scaled(scene.cells.canvas(), dest, clip)?;
    units::workspace_mesh(&mut chart, surface, millimetres)
        .draw()
        .map_err(text_err)?;
    let mut legend = Legend::default();
    legend.add(Mark::Ring(TARGET.to_rgba()), "target");
    legend.add(
        Mark::Swatch(RGBColor(213, 94, 0).to_rgba()),
        "not feasible after refinement",
    );
    legend.add(
        Mark::Swatch(RGBColor(235, 235, 235).to_rgba()),
        "unreachable",
    );
    legend.draw(
        &area,
        surface,
        chart.plotting_area().get_pixel_range(),
        Corner::LowerLeft,
    )?;
    gap_bar(&bar, surface)?;
    area.present().map_err(text_err)?;
    Ok(Some(Viewport {
        pixels: clip,
        world: [x[0], x[1], y[0], y[1]],
    }))
}

/// The log-scale colour bar, labelled in percent.
fn gap_bar(
    area: &DrawingArea<super::Canvas2d, plotters::coord::Shift>,
    surface: &Surface,
) -> DrawResult {
    let percent = |v: &f64| {
        let p = 10f64.powf(*v);
        if p >= 1.0 {
            format!("{p:.0}%")
        } else {
            format!("{p}%")
        }
    };
    let range = (GAP_LO.log10(), GAP_HI.log10());
    super::colour_bar::draw(area, surface, range, "gap to J*", 48.0, Some(&percent))
}
