//! Drawing: one module per panel, each a function from the engine's state to a canvas.
//!
//! Canvases are sized for `devicePixelRatio` by [`Surface::resize`]; plotters then draws in
//! device pixels and every size (fonts, strokes, margins) goes through [`Surface::px`].
//! Heat maps are rendered into an RGBA buffer and put with one `putImageData`
//! ([`Surface::put_rgba`]) because plotters-canvas draws pixels one `fillRect` at a time.

pub mod arm;
#[cfg(feature = "view3d")]
pub mod arm3d;
pub mod arm_layout;
pub mod backend;
pub mod colour_bar;
pub mod gapmap;
pub mod landscape;
pub mod latent;
pub mod legend;
#[cfg(feature = "statics")]
pub mod loads;
pub mod overlay;
pub mod palette;
#[cfg(feature = "unswept")]
pub mod pieces;
#[cfg(feature = "lessons")]
pub mod plots;
pub mod svg;
#[cfg(feature = "unswept")]
pub mod twists;
pub mod units;

use plotters::prelude::*;

/// What every arm panel shows of the current answer (a planar sketch or a 3-D view).
pub struct Answer<'a> {
    /// The problem (its sketch or skeleton draws the robot).
    pub problem: &'a loink::problem::Problem,
    /// The solver's answer.
    pub solution: &'a loink::report::Solution,
    /// Solver name for the caption and the legend.
    pub solver: &'a str,
    /// The reference optimum's configuration (ghost), if known.
    pub optimum: Option<&'a [f64]>,
    /// Sampled solutions (faint ghosts).
    pub samples: &'a [Vec<f64>],
    /// The pose at the reader's latent probe z, if any.
    pub probe: Option<&'a loink::report::Solution>,
    /// The target.
    pub target: &'a [f64],
}
use plotters::style::text_anchor::{HPos, Pos, VPos};
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

pub use backend::Canvas2d;
pub use legend::{Corner, Legend, Mark};
use palette::{FONT, INK};

/// A drawing area on a panel.
pub type Area = DrawingArea<Canvas2d, plotters::coord::Shift>;

/// Errors of drawing, as readable text (they become `JsError`s).
pub type DrawResult<T = ()> = Result<T, String>;

/// Converts any plotters error into text.
pub fn text_err<E: std::fmt::Display>(e: E) -> String {
    format!("drawing failed: {e}")
}

/// A canvas with its 2-D context and pixel ratio.
pub struct Surface {
    canvas: HtmlCanvasElement,
    context: CanvasRenderingContext2d,
    dpr: f64,
    /// Records what is drawn as SVG while an export runs.
    svg: svg::Shared,
}

impl Surface {
    /// Wraps a canvas; errors when it has no 2-D context.
    pub fn new(canvas: HtmlCanvasElement) -> DrawResult<Self> {
        let context = canvas
            .get_context("2d")
            .map_err(|_| "the canvas refused a 2-D context".to_string())?
            .ok_or("the canvas has no 2-D context")?
            .dyn_into::<CanvasRenderingContext2d>()
            .map_err(|_| "the canvas context is not 2-D".to_string())?;
        Ok(Surface {
            canvas,
            context,
            dpr: 1.0,
            svg: svg::Shared::default(),
        })
    }

    /// Sets the backing store to `css × dpr` device pixels. Returns whether anything changed.
    /// Sizes are clamped to [16, 4096] px so a hostile resize cannot allocate without bound.
    pub fn resize(&mut self, css_width: f64, css_height: f64, dpr: f64) -> bool {
        let dpr = if dpr.is_finite() {
            dpr.clamp(0.5, 4.0)
        } else {
            1.0
        };
        let clamp = |v: f64| {
            if v.is_finite() {
                (v * dpr).round().clamp(16.0, 4096.0) as u32
            } else {
                16
            }
        };
        let (w, h) = (clamp(css_width), clamp(css_height));
        let changed = w != self.canvas.width() || h != self.canvas.height() || dpr != self.dpr;
        if changed {
            self.canvas.set_width(w);
            self.canvas.set_height(h);
            self.dpr = dpr;
        }
        changed
    }

    /// Device pixels per CSS pixel.
    pub fn dpr(&self) -> f64 {
        self.dpr
    }

    /// Backing-store size in device pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.canvas.width(), self.canvas.height())
    }

    /// A CSS length in device pixels.
    pub fn px(&self, css: f64) -> i32 {
        (css * self.dpr).round() as i32
    }

    /// A stroke width in device pixels (at least 1).
    pub fn stroke(&self, css: f64) -> u32 {
        ((css * self.dpr).round() as u32).max(1)
    }

    /// Text style of `css` px in colour `color`.
    pub fn font(&self, css: f64, color: RGBColor) -> TextStyle<'static> {
        let mut style = TextStyle::from((FONT, css * self.dpr));
        style.color = color.to_backend_color();
        style
    }

    /// The panel's drawing area, cleared, with `text` as its caption.
    pub fn captioned(&self, text: &str) -> DrawResult<Area> {
        let area = self.area()?;
        caption(&area, self, text)?;
        Ok(area)
    }

    /// The panel's drawing area, cleared to the paper colour.
    pub fn area(&self) -> DrawResult<Area> {
        let backend = Canvas2d::new(self.canvas.clone(), self.context.clone(), self.svg.clone())
            .ok_or("the canvas cannot be drawn on")?;
        let area = backend.into_drawing_area();
        area.fill(&palette::PAPER).map_err(text_err)?;
        Ok(area)
    }

    /// A blank off-screen `width × height` canvas (device pixels), for images drawn every
    /// frame but changed rarely: drawing a canvas is a copy, `putImageData` of a full panel
    /// costs milliseconds.
    pub fn blank(width: u32, height: u32) -> DrawResult<Surface> {
        let document = web_sys::window()
            .and_then(|w| w.document())
            .ok_or("no document to create an off-screen canvas in")?;
        let canvas: HtmlCanvasElement = document
            .create_element("canvas")
            .map_err(|_| "the browser refused an off-screen canvas".to_string())?
            .dyn_into()
            .map_err(|_| "the off-screen element is not a canvas".to_string())?;
        canvas.set_width(width.max(1));
        canvas.set_height(height.max(1));
        Surface::new(canvas)
    }

    /// Renders a `width × height` RGBA buffer once into an off-screen canvas ([`Self::blank`]).
    pub fn offscreen(rgba: &[u8], width: u32, height: u32) -> DrawResult<HtmlCanvasElement> {
        let surface = Surface::blank(width, height)?;
        surface.put_rgba(rgba, width, height, 0.0, 0.0)?;
        Ok(surface.canvas)
    }

    /// The canvas drawn on.
    pub fn canvas(&self) -> &HtmlCanvasElement {
        &self.canvas
    }

    /// Its 2-D context (for the few strokes drawn without plotters).
    pub fn context(&self) -> &CanvasRenderingContext2d {
        &self.context
    }

    /// Starts recording what is drawn as SVG ([`Self::finish_svg`] returns it).
    pub fn start_svg(&self) {
        self.svg.borrow_mut().start();
    }

    /// Stops recording; the SVG body drawn since [`Self::start_svg`].
    pub fn finish_svg(&self) -> String {
        self.svg.borrow_mut().finish()
    }

    /// Records `image` as a PNG on `dest`, clipped to `clip`, while an export runs.
    fn record_image(&self, image: &HtmlCanvasElement, dest: [f64; 4], clip: Option<[f64; 4]>) {
        let mut svg = self.svg.borrow_mut();
        if svg.recording() {
            if let Ok(href) = image.to_data_url() {
                svg.image(&href, dest, clip);
            }
        }
    }

    /// Records a circle (the few strokes drawn without plotters) while an export runs.
    pub fn record_circle(&self, centre: (f64, f64), radius: f64, color: RGBColor, width: u32) {
        let mut svg = self.svg.borrow_mut();
        if svg.recording() {
            svg.circle(
                centre,
                radius,
                svg::Paint {
                    color: color.to_backend_color(),
                    fill: false,
                    width,
                },
            );
        }
    }

    /// Copies `image` (same pixel size) onto the whole canvas.
    pub fn copy_from(&self, image: &HtmlCanvasElement) -> DrawResult {
        let (w, h) = (f64::from(image.width()), f64::from(image.height()));
        self.record_image(image, [0.0, 0.0, w, h], None);
        self.context
            .draw_image_with_html_canvas_element(image, 0.0, 0.0)
            .map_err(|_| "the browser refused to draw a cached image".to_string())
    }

    /// Draws an off-screen canvas scaled onto the device-pixel rectangle `dest` (left, top,
    /// right, bottom), nearest neighbour (a raster of cells stays crisp), clipped to `clip`.
    pub fn blit_scaled(
        &self,
        image: &HtmlCanvasElement,
        dest: [f64; 4],
        clip: [f64; 4],
    ) -> DrawResult {
        self.record_image(image, dest, Some(clip));
        let c = &self.context;
        c.save();
        c.begin_path();
        c.rect(clip[0], clip[1], clip[2] - clip[0], clip[3] - clip[1]);
        c.clip();
        c.set_image_smoothing_enabled(false);
        let drawn = c.draw_image_with_html_canvas_element_and_dw_and_dh(
            image,
            dest[0],
            dest[1],
            dest[2] - dest[0],
            dest[3] - dest[1],
        );
        c.restore();
        drawn.map_err(|_| "the browser refused to draw a cached image".to_string())
    }

    /// Puts a `width × height` RGBA buffer at device pixel (x, y) with one `putImageData`.
    pub fn put_rgba(&self, rgba: &[u8], width: u32, height: u32, x: f64, y: f64) -> DrawResult {
        if width == 0 || height == 0 || rgba.len() != (width * height * 4) as usize {
            return Err("heat map buffer has the wrong size".into());
        }
        if self.svg.borrow().recording() {
            let raster = Surface::offscreen(rgba, width, height)?;
            let (x, y) = (x.round(), y.round());
            let dest = [x, y, x + f64::from(width), y + f64::from(height)];
            self.record_image(&raster, dest, None);
        }
        let image = ImageData::new_with_u8_clamped_array_and_sh(Clamped(rgba), width, height)
            .map_err(|_| "the browser refused the heat map image".to_string())?;
        self.context
            .put_image_data(&image, x.round(), y.round())
            .map_err(|_| "the browser refused to draw the heat map".to_string())
    }
}

/// Draws a one-line caption at the top left of a panel.
pub fn caption(area: &Area, surface: &Surface, text: &str) -> DrawResult {
    fitted_line(
        area,
        surface,
        text,
        palette::CAPTION_PX,
        INK,
        surface.px(6.0),
    )
}

/// Draws one line of text at the top left, `top` device pixels down, fitted to the panel's
/// width: a smaller font (down to 9.5 CSS px) when it does not fit at `size`, then cut with
/// "…" — a title never runs off the panel.
fn fitted_line(
    area: &Area,
    surface: &Surface,
    text: &str,
    size: f64,
    colour: RGBColor,
    top: i32,
) -> DrawResult {
    let left = surface.px(8.0);
    let room = (area.dim_in_pixel().0 as i32 - 2 * left).max(1) as u32;
    let fits = |px: f64, t: &str| -> Result<bool, String> {
        let (w, _) = area
            .estimate_text_size(t, &surface.font(px, colour))
            .map_err(text_err)?;
        Ok(w <= room)
    };
    let mut px = size;
    while px > 9.5 && !fits(px, text)? {
        px -= 0.5;
    }
    let mut line = text.to_string();
    if !fits(px, &line)? {
        let chars: Vec<char> = text.chars().collect();
        let (mut lo, mut hi) = (0, chars.len());
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            let candidate: String = chars[..mid].iter().collect::<String>() + "…";
            if fits(px, &candidate)? {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        line = chars[..lo]
            .iter()
            .collect::<String>()
            .trim_end()
            .to_string()
            + "…";
    }
    let style = surface
        .font(px, colour)
        .pos(Pos::new(HPos::Left, VPos::Top));
    area.draw_text(&line, &style, (left, top)).map_err(text_err)
}

/// Height (CSS px) reserved for the caption line at the top of each panel.
pub const CAPTION_BAND: f64 = 24.0;

/// Height (CSS px) of a panel's second caption line ([`subcaption`]).
pub const SUBCAPTION_BAND: f64 = 16.0;

/// Draws a second, smaller caption line in muted ink under the caption (the panel reserves
/// [`SUBCAPTION_BAND`] more at its top).
pub fn subcaption(area: &Area, surface: &Surface, text: &str) -> DrawResult {
    fitted_line(
        area,
        surface,
        text,
        palette::LABEL_PX,
        palette::MUTED_INK,
        surface.px(CAPTION_BAND),
    )
}

/// Bilinear-free nearest-neighbour upscale of a `gw × gh` grid of colours (row 0 at the top)
/// into a `width × height` RGBA buffer; `None` cells become transparent.
pub fn grid_to_rgba(
    grid: &[Option<[u8; 3]>],
    gw: usize,
    gh: usize,
    width: u32,
    height: u32,
) -> Vec<u8> {
    let (w, h) = (width as usize, height as usize);
    let mut out = vec![0u8; w * h * 4];
    if gw == 0 || gh == 0 || grid.len() != gw * gh {
        return out;
    }
    for py in 0..h {
        let gy = (py * gh / h.max(1)).min(gh - 1);
        for px in 0..w {
            let gx = (px * gw / w.max(1)).min(gw - 1);
            if let Some(c) = grid[gy * gw + gx] {
                let o = (py * w + px) * 4;
                out[o..o + 4].copy_from_slice(&[c[0], c[1], c[2], 255]);
            }
        }
    }
    out
}
