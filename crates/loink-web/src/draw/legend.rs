//! Legends drawn by hand (plotters' series labels measure text through the DOM): in a corner
//! of a plot, in a column beside it (entries wrapped to its width), or as one line of the
//! entries' short names where a panel is too narrow for more.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::palette::{self, INK, MUTED};
use super::{text_err, Area, Canvas2d, DrawResult, Surface};

/// A legend swatch.
#[derive(Debug, Clone, Copy)]
pub enum Mark {
    /// A line of the given colour and CSS width.
    Line(RGBAColor, f64),
    /// A filled disc.
    Dot(RGBAColor),
    /// A ring.
    Ring(RGBAColor),
    /// A filled square (areas, heat-map classes).
    Swatch(RGBAColor),
    /// A square outlined in the colour and filled with it at the given opacity (0: hollow).
    Outline(RGBAColor, f64),
    /// A cross.
    Cross(RGBAColor),
}

/// Which corner of the plot area a legend sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Corner {
    /// Top left.
    UpperLeft,
    /// Top right.
    UpperRight,
    /// Bottom left.
    LowerLeft,
    /// Bottom right.
    LowerRight,
}

impl Corner {
    /// The corner diagonally away from world point `at` (relative to the origin at the plot's
    /// centre), so a legend does not hide what is being pointed at.
    pub fn away_from(at: [f64; 2]) -> Corner {
        match (at[0] < 0.0, at[1] < 0.0) {
            (true, true) => Corner::UpperRight,
            (true, false) => Corner::LowerRight,
            (false, true) => Corner::UpperLeft,
            (false, false) => Corner::LowerLeft,
        }
    }
}

/// A legend drawn by hand (plotters' series labels measure text through the DOM).
#[derive(Debug, Default, Clone)]
pub struct Legend {
    entries: Vec<Entry>,
}

/// One entry: its swatch, its text, and the short name a one-line legend shows (None: left
/// out of a one-line legend).
#[derive(Debug, Clone)]
struct Entry {
    mark: Mark,
    text: String,
    short: Option<String>,
}

/// A rectangle in device pixels: left, top, right, bottom.
pub type PixelBox = [i32; 4];

/// Where a panel puts its legend, outside what it draws of the world.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LegendSpot {
    /// A column beside the plot (device pixels).
    Column(PixelBox),
    /// One line of short names above the plot (device pixels).
    Line(PixelBox),
}

impl Legend {
    /// Adds an entry.
    pub fn add(&mut self, mark: Mark, text: impl Into<String>) {
        self.entries.push(Entry {
            mark,
            text: text.into(),
            short: None,
        });
    }

    /// Adds an entry that a one-line legend also shows, as `short`.
    pub fn add_short(&mut self, mark: Mark, text: impl Into<String>, short: impl Into<String>) {
        self.entries.push(Entry {
            mark,
            text: text.into(),
            short: Some(short.into()),
        });
    }

    /// Draws the legend in `corner` of `chart`'s plotting area, then shows the finished panel:
    /// the last step of every chart panel's drawing.
    pub fn finish_on<CT: plotters::coord::CoordTranslate>(
        &self,
        area: &Area,
        surface: &Surface,
        chart: &ChartContext<'_, Canvas2d, CT>,
        corner: Corner,
    ) -> DrawResult {
        self.draw(
            area,
            surface,
            chart.plotting_area().get_pixel_range(),
            corner,
        )?;
        area.present().map_err(text_err)
    }

    /// Its box's width and height on `area` (device pixels).
    pub fn size(&self, area: &Area, surface: &Surface) -> DrawResult<(i32, i32)> {
        let font = surface.font(palette::LABEL_PX, INK);
        let pad = surface.px(6.0);
        let row = surface.px(palette::LABEL_PX * 1.55);
        let mut text_w = 0;
        for entry in &self.entries {
            let (w, _) = area
                .estimate_text_size(&entry.text, &font)
                .map_err(text_err)?;
            text_w = text_w.max(w as i32);
        }
        let width = pad * 2 + surface.px(20.0) + pad / 2 + text_w;
        let height =
            pad * 2 + row * self.entries.len() as i32 - (row - surface.px(palette::LABEL_PX));
        Ok((width, height))
    }

    /// Draws the legend in `corner` of the plot rectangle `plot` (device pixels).
    pub fn draw(
        &self,
        area: &Area,
        surface: &Surface,
        plot: (std::ops::Range<i32>, std::ops::Range<i32>),
        corner: Corner,
    ) -> DrawResult {
        if self.entries.is_empty() {
            return Ok(());
        }
        let pad = surface.px(6.0);
        let row = surface.px(palette::LABEL_PX * 1.55);
        let (width, height) = self.size(area, surface)?;
        let inset = surface.px(6.0);
        // The plot range is in canvas pixels; this area may be a sub-area offset from the corner.
        let (bx, by) = area.get_base_pixel();
        let (xs, ys) = (
            plot.0.start - bx..plot.0.end - bx,
            plot.1.start - by..plot.1.end - by,
        );
        let x = match corner {
            Corner::UpperLeft | Corner::LowerLeft => xs.start + inset,
            _ => xs.end - inset - width,
        };
        let y = match corner {
            Corner::UpperLeft | Corner::UpperRight => ys.start + inset,
            _ => ys.end - inset - height,
        };
        backdrop(area, surface, [x, y, x + width, y + height])?;
        for (k, entry) in self.entries.iter().enumerate() {
            let cy = y + pad + surface.px(palette::LABEL_PX) / 2 + row * k as i32;
            let x1 = swatch(area, surface, entry.mark, x + pad, cy)?;
            label(area, surface, &entry.text, x1 + pad / 2, cy)?;
        }
        Ok(())
    }

    /// The entries' text wrapped to `width` (device pixels of text): lines per entry.
    fn wrapped(&self, area: &Area, surface: &Surface, width: i32) -> DrawResult<Vec<Vec<String>>> {
        let font = surface.font(palette::LABEL_PX, INK);
        let fits = |t: &str| -> DrawResult<bool> {
            let (w, _) = area.estimate_text_size(t, &font).map_err(text_err)?;
            Ok(w as i32 <= width)
        };
        let mut out = Vec::with_capacity(self.entries.len());
        for entry in &self.entries {
            let mut lines: Vec<String> = Vec::new();
            let mut line = String::new();
            for word in entry.text.split(' ') {
                let candidate = if line.is_empty() {
                    word.to_string()
                } else {
                    format!("{line} {word}")
                };
                if line.is_empty() || fits(&candidate)? {
                    line = candidate;
                } else {
                    lines.push(std::mem::replace(&mut line, word.to_string()));
                }
            }
            lines.push(line);
            out.push(lines);
        }
        Ok(out)
    }

    /// Draws the legend at `spot`; returns the box it takes (None: nothing drawn).
    pub fn draw_at(
        &self,
        area: &Area,
        surface: &Surface,
        spot: LegendSpot,
    ) -> DrawResult<Option<PixelBox>> {
        match spot {
            LegendSpot::Column(column) => self.draw_column(area, surface, column),
            LegendSpot::Line(band) => self.draw_line(area, surface, band),
        }
    }

    /// Draws the legend as a column from the top of `column` (device pixels), each entry's
    /// text wrapped to the column's width; returns the box it takes (empty: nothing drawn).
    /// Entries that do not fit in the column's height are left out, the last line saying how
    /// many.
    pub fn draw_column(
        &self,
        area: &Area,
        surface: &Surface,
        column: PixelBox,
    ) -> DrawResult<Option<PixelBox>> {
        if self.entries.is_empty() {
            return Ok(None);
        }
        let pad = surface.px(6.0);
        let line_h = surface.px(palette::LABEL_PX * 1.25);
        let gap = surface.px(palette::LABEL_PX * 0.4);
        let text_x = column[0] + pad + surface.px(20.0) + pad / 2;
        let text_w = (column[2] - pad - text_x).max(surface.px(40.0));
        let wrapped = self.wrapped(area, surface, text_w)?;
        let room = column[3] - column[1] - 2 * pad;
        let mut height = 0;
        let mut shown = 0;
        for lines in &wrapped {
            let h = line_h * lines.len() as i32 + if shown > 0 { gap } else { 0 };
            if height + h > room {
                break;
            }
            height += h;
            shown += 1;
        }
        let left_out = self.entries.len() - shown;
        if left_out > 0 && shown > 0 && height + line_h + gap > room {
            // Room for the count: one entry fewer.
            shown -= 1;
            height -= line_h * wrapped[shown].len() as i32 + if shown > 0 { gap } else { 0 };
        }
        let left_out = self.entries.len() - shown;
        if left_out > 0 {
            height += line_h + if shown > 0 { gap } else { 0 };
        }
        let used = [
            column[0],
            column[1],
            column[2],
            column[1] + height + 2 * pad,
        ];
        backdrop(area, surface, used)?;
        let mut y = column[1] + pad;
        for (entry, lines) in self.entries.iter().zip(&wrapped).take(shown) {
            let first = y + line_h / 2;
            swatch(area, surface, entry.mark, column[0] + pad, first)?;
            for (k, text) in lines.iter().enumerate() {
                label(area, surface, text, text_x, first + line_h * k as i32)?;
            }
            y += line_h * lines.len() as i32 + gap;
        }
        if left_out > 0 {
            let more = format!("(+{left_out} more on a wider panel)");
            label(area, surface, &more, column[0] + pad, y + line_h / 2)?;
        }
        Ok(Some(used))
    }

    /// Draws the entries that have a short name in one line across `band` (device pixels),
    /// as many as fit; returns the box they take.
    pub fn draw_line(
        &self,
        area: &Area,
        surface: &Surface,
        band: PixelBox,
    ) -> DrawResult<Option<PixelBox>> {
        let font = surface.font(palette::LABEL_PX, INK);
        let pad = surface.px(4.0);
        let swatch_w = surface.px(20.0);
        let mut items = Vec::new();
        let mut x = band[0] + pad;
        for entry in &self.entries {
            let Some(short) = &entry.short else {
                continue;
            };
            let (w, _) = area.estimate_text_size(short, &font).map_err(text_err)?;
            let width = swatch_w + pad / 2 + w as i32;
            if x + width > band[2] - pad {
                break;
            }
            items.push((entry.mark, short.as_str(), x));
            x += width + surface.px(10.0);
        }
        if items.is_empty() {
            return Ok(None);
        }
        let used = [band[0], band[1], x - surface.px(10.0) + pad, band[3]];
        backdrop(area, surface, used)?;
        let cy = (band[1] + band[3]) / 2;
        for (mark, text, at) in items {
            let x1 = swatch(area, surface, mark, at, cy)?;
            label(area, surface, text, x1 + pad / 2, cy)?;
        }
        Ok(Some(used))
    }
}

/// The legend's white, outlined box.
fn backdrop(area: &Area, surface: &Surface, b: PixelBox) -> DrawResult {
    let corners = [(b[0], b[1]), (b[2], b[3])];
    area.draw(&Rectangle::new(corners, WHITE.mix(0.88).filled()))
        .map_err(text_err)?;
    area.draw(&Rectangle::new(
        corners,
        MUTED.mix(0.6).stroke_width(surface.stroke(1.0)),
    ))
    .map_err(text_err)
}

/// One line of legend text, its left end at (x, cy) centred vertically.
fn label(area: &Area, surface: &Surface, text: &str, x: i32, cy: i32) -> DrawResult {
    let style = surface
        .font(palette::LABEL_PX, INK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    area.draw_text(text, &style, (x, cy)).map_err(text_err)
}

/// Draws `mark` in a swatch whose left end is at (x0, cy); returns its right end.
fn swatch(area: &Area, surface: &Surface, mark: Mark, x0: i32, cy: i32) -> DrawResult<i32> {
    let x1 = x0 + surface.px(20.0);
    let cx = (x0 + x1) / 2;
    let r = surface.px(4.0);
    match mark {
        Mark::Line(c, w) => area.draw(&PathElement::new(
            vec![(x0, cy), (x1, cy)],
            c.stroke_width(surface.stroke(w)),
        )),
        Mark::Dot(c) => area.draw(&Circle::new((cx, cy), r, c.filled())),
        Mark::Ring(c) => area.draw(&Circle::new(
            (cx, cy),
            r,
            c.stroke_width(surface.stroke(2.0)),
        )),
        Mark::Swatch(c) => area.draw(&Rectangle::new(
            [(cx - r - 2, cy - r), (cx + r + 2, cy + r)],
            c.filled(),
        )),
        Mark::Outline(c, fill) => {
            let corners = [(cx - r - 2, cy - r), (cx + r + 2, cy + r)];
            if fill > 0.0 {
                area.draw(&Rectangle::new(corners, c.mix(fill).filled()))
                    .map_err(text_err)?;
            }
            area.draw(&Rectangle::new(
                corners,
                c.stroke_width(surface.stroke(1.5)),
            ))
        }
        Mark::Cross(c) => area.draw(&Cross::new(
            (cx, cy),
            r,
            c.stroke_width(surface.stroke(2.0)),
        )),
    }
    .map_err(text_err)?;
    Ok(x1)
}
