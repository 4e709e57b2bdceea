//! What a drawing puts over the robot's panel besides the robot — legends, the loads bars, the
//! 3-D view's insets — and where it drew the robot, so the page can say both
//! (`loinkPlayground.overlays()`, `loinkPlayground.robotPoints()`) and a test can check that
//! nothing covers the robot or its target.

/// What an overlay box holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OverlayKind {
    /// A legend (in a column beside the plot, or one line above it).
    Legend,
    /// The loads bars of a robot that stands on contacts.
    Bars,
    /// An inset view (the 3-D panel's top and side views).
    Inset,
}

impl OverlayKind {
    /// The word the page reports (`legend`, `bars`, `inset`).
    pub fn as_str(self) -> &'static str {
        match self {
            OverlayKind::Legend => "legend",
            OverlayKind::Bars => "bars",
            OverlayKind::Inset => "inset",
        }
    }
}

/// One box drawn over the panel (device pixels: left, top, right, bottom).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Overlay {
    /// What it holds.
    pub kind: OverlayKind,
    /// Where it is.
    pub rect: [f64; 4],
}

impl Overlay {
    /// An overlay of `kind` over the integer pixel box `rect`.
    pub fn new(kind: OverlayKind, rect: [i32; 4]) -> Self {
        Overlay {
            kind,
            rect: rect.map(f64::from),
        }
    }
}

/// What one drawing of the arm panel put where (device pixels).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ArmDrawn {
    /// The boxes drawn over the panel.
    pub overlays: Vec<Overlay>,
    /// The robot's joints and the corners of its links as drawn.
    pub robot: Vec<[f64; 2]>,
}
