//! [`Canvas2d`]: plotters-canvas's backend with one change — text is measured with the
//! canvas's own `measureText`. plotters' browser font code measures by appending a styled
//! `<span>` to the page (a forced layout per label, blocked by the page's CSP and unwrapping
//! when there is no body); this never touches the DOM.

use plotters::prelude::*;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

type CanvasError = <CanvasBackend as DrawingBackend>::ErrorType;

/// A canvas backend that measures text on the canvas.
pub struct Canvas2d {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
}

impl Canvas2d {
    /// Wraps a canvas and its 2-D context.
    pub fn new(canvas: HtmlCanvasElement, context: CanvasRenderingContext2d) -> Option<Self> {
        Some(Canvas2d {
            inner: CanvasBackend::with_canvas_object(canvas)?,
            context,
        })
    }
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
        self.inner.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_path(path, style)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.fill_polygon(vert, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_circle(center, radius, style, fill)
    }
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_text(text, style, pos)
    }
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        self.context.set_font(&css_font(style));
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
