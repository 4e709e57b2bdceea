//! A drag on the 3-D arm panel in a bundle without the 3-D view (feature `view3d` off): none
//! can be in progress (`grab.rs` holds one while it lasts).

/// No drag in space.
#[derive(Debug, Clone, Copy)]
pub enum Grab {}
