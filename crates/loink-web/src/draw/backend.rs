//! [`Canvas2d`]: plotters-canvas's backend with two changes to text.
//! - Text is measured with the canvas's own `measureText`. plotters' browser font code measures
//!   by appending a styled `<span>` to the page (a forced layout per label, blocked by the page's
//!   CSP and unwrapping when there is no body); this never touches the DOM.
//! - Text is drawn here, setting font, alignment, baseline and colour only when they differ
//!   from the last label's. plotters-canvas sets all four for every label, and each is a string
//!   decoded across the wasm boundary: in a profile of a drag, the font setter and the string
//!   decoding together took about as long as `fillText` itself.

use std::cell::RefCell;

use plotters::prelude::*;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontTransform,
};
use plotters_canvas::CanvasBackend;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

type CanvasError = <CanvasBackend as DrawingBackend>::ErrorType;

/// A canvas backend that measures text on the canvas and sets text state only on change.
pub struct Canvas2d {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
    /// Records every call as SVG while an export runs ([`super::svg`]).
    svg: super::svg::Shared,
    /// What the context holds now, as far as this backend set it (None: unknown).
    text: RefCell<TextState>,
}

/// The context's text state last set by [`Canvas2d`].
#[derive(Clone, Default)]
struct TextState {
    font: Option<String>,
    align: Option<&'static str>,
    baseline: Option<&'static str>,
    /// (r, g, b, alpha bits): other drawing sets the fill style too, so this is cleared then.
    fill: Option<(u8, u8, u8, u64)>,
}

impl Canvas2d {
    /// Wraps a canvas and its 2-D context; `svg` records the calls while it records.
    pub fn new(
        canvas: HtmlCanvasElement,
        context: CanvasRenderingContext2d,
        svg: super::svg::Shared,
    ) -> Option<Self> {
        Some(Canvas2d {
            inner: CanvasBackend::with_canvas_object(canvas)?,
            context,
            svg,
            text: RefCell::default(),
        })
    }

    /// Sets the font unless the context already has it.
    fn use_font(&self, font: String) {
        let mut state = self.text.borrow_mut();
        if state.font.as_deref() != Some(font.as_str()) {
            self.context.set_font(&font);
            state.font = Some(font);
        }
    }

    /// Records a shape while an export runs (a `dyn` call: one copy of the check for every
    /// drawing call of every style type).
    #[inline(never)]
    fn record(&self, shape: &mut dyn FnMut(&mut super::svg::Recorder)) {
        let mut svg = self.svg.borrow_mut();
        if svg.recording() {
            shape(&mut svg);
        }
    }

    /// Records a polyline or polygon while an export runs.
    #[inline(never)]
    fn record_path(&self, points: &[BackendCoord], paint: super::svg::Paint, closed: bool) {
        self.record(&mut |s| s.path(points, paint, closed));
    }

    /// The fill style was (or may have been) changed by a non-text drawing call.
    fn forget_fill(&self) {
        self.text.borrow_mut().fill = None;
    }

    /// Sets alignment, baseline and colour of a label, each only on change.
    fn use_label_style(&self, align: &'static str, baseline: &'static str, color: BackendColor) {
        let mut state = self.text.borrow_mut();
        if state.align != Some(align) {
            self.context.set_text_align(align);
            state.align = Some(align);
        }
        if state.baseline != Some(baseline) {
            self.context.set_text_baseline(baseline);
            state.baseline = Some(baseline);
        }
        let (r, g, b) = color.rgb;
        let key = (r, g, b, color.alpha.to_bits());
        if state.fill != Some(key) {
            self.context
                .set_fill_style_str(&format!("rgba({r},{g},{b},{})", color.alpha));
            state.fill = Some(key);
        }
    }
}

/// A canvas call of [`Canvas2d::draw_text`] threw (plotters' text error kind carries it; the
/// canvas error type of plotters-canvas has no public constructor).
#[derive(Debug)]
struct TextError(String);

impl std::fmt::Display for TextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "canvas text call failed: {}", self.0)
    }
}

impl std::error::Error for TextError {}

fn text_error(e: &wasm_bindgen::JsValue) -> DrawingErrorKind<CanvasError> {
    let reason = e
        .as_string()
        .unwrap_or_else(|| "the browser refused it".into());
    DrawingErrorKind::FontError(Box::new(TextError(reason)))
}

/// The CSS font string plotters-canvas sets for `style` (kept identical so measure = draw).
pub fn css_font<S: BackendTextStyle>(style: &S) -> String {
    format!(
        "{} {}px {}",
        style.style().as_str(),
        style.size(),
        style.family().as_str()
    )
}

fn paint(color: BackendColor, fill: bool, width: u32) -> super::svg::Paint {
    super::svg::Paint { color, fill, width }
}

impl DrawingBackend for Canvas2d {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.present()
    }
    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.forget_fill();
        self.record(&mut |s| s.rect(point, (point.0 + 1, point.1 + 1), paint(color, true, 1)));
        self.inner.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.record(&mut |s| s.line(from, to, paint(style.color(), false, style.stroke_width())));
        self.inner.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.forget_fill();
        self.record(&mut |s| {
            s.rect(
                upper_left,
                bottom_right,
                paint(style.color(), fill, style.stroke_width()),
            )
        });
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        // One concrete point type for every series: plotters-canvas's path code is compiled
        // once, not once per iterator (a smaller bundle), and the recorder can read it.
        let points: Vec<BackendCoord> = path.into_iter().collect();
        self.record_path(
            &points,
            paint(style.color(), false, style.stroke_width()),
            false,
        );
        self.inner.draw_path(points, style)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.forget_fill();
        let points: Vec<BackendCoord> = vert.into_iter().collect();
        self.record_path(&points, paint(style.color(), true, 1), true);
        self.inner.fill_polygon(points, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.forget_fill();
        self.record(&mut |s| {
            s.circle(
                (f64::from(center.0), f64::from(center.1)),
                f64::from(radius),
                paint(style.color(), fill, style.stroke_width()),
            )
        });
        self.inner.draw_circle(center, radius, style, fill)
    }
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let align = match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        };
        let baseline = match style.anchor().v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        };
        let quarter_turns = match style.transform() {
            FontTransform::None => 0.0,
            FontTransform::Rotate90 => 1.0,
            FontTransform::Rotate180 => 2.0,
            FontTransform::Rotate270 => 3.0,
        };
        self.record(&mut |s| {
            s.text(
                text,
                pos,
                (
                    style.style().as_str(),
                    style.family().as_str(),
                    style.size(),
                ),
                color,
                align,
                baseline,
                quarter_turns,
            )
        });
        let (mut x, mut y) = (f64::from(pos.0), f64::from(pos.1));
        // A rotated label is drawn between save and restore, which puts the context's text
        // state back as it was: so is the record of it.
        let saved = (quarter_turns != 0.0).then(|| self.text.borrow().clone());
        if saved.is_some() {
            self.context.save();
            let turned = self.context.translate(x, y).and_then(|()| {
                self.context
                    .rotate(quarter_turns * std::f64::consts::FRAC_PI_2)
            });
            if let Err(e) = turned {
                self.context.restore();
                return Err(text_error(&e));
            }
            (x, y) = (0.0, 0.0);
        }
        self.use_label_style(align, baseline, color);
        self.use_font(css_font(style));
        let drawn = self.context.fill_text(text, x, y);
        if let Some(saved) = saved {
            self.context.restore();
            *self.text.borrow_mut() = saved;
        }
        drawn.map_err(|e| text_error(&e))
    }
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        self.use_font(css_font(style));
        let width = self
            .context
            .measure_text(text)
            .map(|m| m.width())
            .unwrap_or(text.chars().count() as f64 * style.size() * 0.6);
        Ok((
            width.ceil().max(0.0) as u32,
            style.size().ceil().max(0.0) as u32,
        ))
    }
}
