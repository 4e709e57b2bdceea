//! A drag on the 3-D arm panel: what it moves and where the pointer last was. The playground
//! holds one while a drag lasts; the 3-D view's input (`playground3d`) starts, moves and ends it.

use crate::draw::arm3d::Part;

/// What a drag on the 3-D arm panel moves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum GrabMode {
    /// The target, through this part of the panel.
    Target(Part),
    /// The view.
    Orbit,
    /// The target along the view's depth.
    Depth,
    /// The target's orientation, about the viewing axis (the ring around it).
    Ring,
    /// The target's orientation, about the viewing axis, by a two-finger twist: the second
    /// finger turning about the first, which stays at this pivot (CSS px).
    Twist([f64; 2]),
}

/// A drag in progress: what it moves and where the pointer last was (CSS px).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Grab {
    pub(crate) mode: GrabMode,
    pub(crate) last: [f64; 2],
    /// From the pointer to the target's mark when the press took the target in the main view
    /// (CSS px): the target keeps its place under the pointer instead of jumping to it.
    pub(crate) offset: [f64; 2],
}
