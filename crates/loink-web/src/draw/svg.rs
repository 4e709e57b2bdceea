//! Vector figures from the same drawing code: while a [`Recorder`] records, every call the
//! panels make through [`super::Canvas2d`] (plotters' lines, rectangles, paths, polygons,
//! circles and text) and through [`super::Surface`]'s few raster calls (heat maps and cached
//! images, embedded as PNG) is also written as an SVG element, in device pixels.

use std::cell::RefCell;
use std::fmt::Write as _;
use std::rc::Rc;

use plotters_backend::{BackendColor, BackendCoord};

/// The SVG body being recorded (None: not recording).
#[derive(Debug, Default)]
pub struct Recorder {
    body: Option<String>,
}

/// A recorder shared by a surface and the backends it hands out.
pub type Shared = Rc<RefCell<Recorder>>;

/// Text escaped for SVG content and attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// `v` with at most two decimals, by integer arithmetic (no float formatting in the bundle).
fn num(v: f64) -> String {
    if !v.is_finite() {
        return "0".into();
    }
    let hundredths = (v * 100.0).round() as i64;
    let (sign, abs) = if hundredths < 0 {
        ("-", -hundredths)
    } else {
        ("", hundredths)
    };
    match abs % 100 {
        0 => format!("{sign}{}", abs / 100),
        f if f % 10 == 0 => format!("{sign}{}.{}", abs / 100, f / 10),
        f => format!("{sign}{}.{f:02}", abs / 100),
    }
}

fn colour(c: BackendColor) -> String {
    let (r, g, b) = c.rgb;
    if c.alpha >= 1.0 {
        format!("rgb({r},{g},{b})")
    } else {
        format!("rgba({r},{g},{b},{})", num(c.alpha))
    }
}

/// How a shape is painted: filled, or stroked `width` px wide.
#[derive(Clone, Copy)]
pub struct Paint {
    /// Its colour.
    pub color: BackendColor,
    /// Fill instead of stroke.
    pub fill: bool,
    /// Stroke width in device pixels.
    pub width: u32,
}

impl Paint {
    fn attributes(self) -> String {
        if self.fill {
            format!(r#"fill="{}" stroke="none""#, colour(self.color))
        } else {
            format!(
                r#"fill="none" stroke="{}" stroke-width="{}" stroke-linejoin="round""#,
                colour(self.color),
                self.width.max(1)
            )
        }
    }
}

impl Recorder {
    /// Starts recording (an empty body).
    pub fn start(&mut self) {
        self.body = Some(String::new());
    }

    /// Stops recording and returns the body.
    pub fn finish(&mut self) -> String {
        self.body.take().unwrap_or_default()
    }

    /// Whether it records.
    pub fn recording(&self) -> bool {
        self.body.is_some()
    }

    fn push(&mut self, element: impl FnOnce(&mut String)) {
        if let Some(body) = self.body.as_mut() {
            element(body);
            body.push('\n');
        }
    }

    /// A straight line.
    #[inline(never)]
    pub fn line(&mut self, from: BackendCoord, to: BackendCoord, paint: Paint) {
        self.push(|b| {
            let _ = write!(
                b,
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}" {}/>"#,
                from.0,
                from.1,
                to.0,
                to.1,
                Paint {
                    fill: false,
                    ..paint
                }
                .attributes()
            );
        });
    }

    /// A rectangle.
    #[inline(never)]
    pub fn rect(&mut self, upper_left: BackendCoord, bottom_right: BackendCoord, paint: Paint) {
        let (x, y) = (
            upper_left.0.min(bottom_right.0),
            upper_left.1.min(bottom_right.1),
        );
        let (w, h) = (
            (bottom_right.0 - upper_left.0).abs(),
            (bottom_right.1 - upper_left.1).abs(),
        );
        self.push(|b| {
            let _ = write!(
                b,
                r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" {}/>"#,
                paint.attributes()
            );
        });
    }

    /// An open polyline (`closed`: a polygon).
    #[inline(never)]
    pub fn path(&mut self, points: &[BackendCoord], paint: Paint, closed: bool) {
        if points.is_empty() {
            return;
        }
        let list: Vec<String> = points.iter().map(|p| format!("{},{}", p.0, p.1)).collect();
        let tag = if closed { "polygon" } else { "polyline" };
        self.push(|b| {
            let _ = write!(
                b,
                r#"<{tag} points="{}" {}/>"#,
                list.join(" "),
                paint.attributes()
            );
        });
    }

    /// A circle of `radius` px.
    #[inline(never)]
    pub fn circle(&mut self, centre: (f64, f64), radius: f64, paint: Paint) {
        self.push(|b| {
            let _ = write!(
                b,
                r#"<circle cx="{}" cy="{}" r="{}" {}/>"#,
                num(centre.0),
                num(centre.1),
                num(radius),
                paint.attributes()
            );
        });
    }

    /// A label at `pos`, anchored (`start`/`middle`/`end`, `top`/`middle`/`bottom`), turned
    /// by `quarter_turns` × 90°.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    pub fn text(
        &mut self,
        text: &str,
        pos: BackendCoord,
        font: (&str, &str, f64),
        color: BackendColor,
        anchor: &str,
        baseline: &str,
        quarter_turns: f64,
    ) {
        let (style, family, size) = font;
        let baseline = match baseline {
            "top" => "text-before-edge",
            "middle" => "central",
            _ => "text-after-edge",
        };
        let anchor = match anchor {
            "center" => "middle",
            "start" => "start",
            _ => "end",
        };
        let turn = if quarter_turns == 0.0 {
            String::new()
        } else {
            format!(
                r#" transform="rotate({} {} {})""#,
                num(quarter_turns * 90.0),
                pos.0,
                pos.1
            )
        };
        // plotters names a bold face exactly "bold" (and a substring search would cost the
        // playground's download 1.5 kB of code).
        let weight = if style == "bold" { "bold" } else { "normal" };
        self.push(|b| {
            let _ = write!(
                b,
                r#"<text x="{}" y="{}" font-family="{}" font-size="{}" font-weight="{weight}" fill="{}" text-anchor="{anchor}" dominant-baseline="{baseline}"{turn}>{}</text>"#,
                pos.0,
                pos.1,
                escape(family),
                num(size),
                colour(color),
                escape(text)
            );
        });
    }

    /// A raster image (a data URL) on the device-pixel rectangle `dest`, clipped to `clip`.
    #[inline(never)]
    pub fn image(&mut self, href: &str, dest: [f64; 4], clip: Option<[f64; 4]>) {
        let [x0, y0, x1, y1] = dest;
        self.push(|b| {
            let image = format!(
                r#"<image href="{}" x="{}" y="{}" width="{}" height="{}" preserveAspectRatio="none" image-rendering="optimizeSpeed"/>"#,
                escape(href),
                num(x0),
                num(y0),
                num(x1 - x0),
                num(y1 - y0)
            );
            match clip {
                Some([cx0, cy0, cx1, cy1]) => {
                    let _ = write!(
                        b,
                        r#"<svg x="{x}" y="{y}" width="{w}" height="{h}" viewBox="{x} {y} {w} {h}" overflow="hidden">{image}</svg>"#,
                        x = num(cx0),
                        y = num(cy0),
                        w = num(cx1 - cx0),
                        h = num(cy1 - cy0)
                    );
                }
                None => b.push_str(&image),
            }
        });
    }
}

/// The whole document: `body` in a `width × height` device-pixel view box shown at `css`
/// size, titled, with the view's link in its metadata.
pub fn document(body: &str, size: (u32, u32), css: (f64, f64), title: &str, link: &str) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" data-panel-title="{}">
<title>{}</title>
<metadata><link xmlns="http://www.w3.org/1999/xhtml" rel="canonical" href="{}"/>{}</metadata>
<rect width="100%" height="100%" fill="white"/>
{body}</svg>
"#,
        num(css.0),
        num(css.1),
        size.0,
        size.1,
        escape(title),
        escape(title),
        escape(link),
        escape(link)
    )
}
