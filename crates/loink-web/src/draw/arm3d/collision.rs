//! The scene and the collision spheres on the 3-D arm panel, for a robot that keeps clear of
//! things: the scene's boxes (their faces that face the viewer, then their edges; a rectangle in
//! each inset), the spheres placed at the answer (every one when the reader shows them, else
//! only those of links that overlap something, in red) and the clearance readout.

use plotters::prelude::*;

use loink::problem::collision_picture::{CollisionPicture, Obstacle};

use super::{line, pixel, Layout};
use crate::draw::palette::{self, CONTACT, INK, MUTED, SOLUTION};
use crate::draw::{text_err, Area, DrawResult, Surface};

/// The eight corners of a box, corner k at the low or high end of axis i by bit i of k.
pub(super) fn corners(b: &Obstacle) -> [[f64; 3]; 8] {
    std::array::from_fn(|k| {
        std::array::from_fn(|i| {
            let sign = if k >> i & 1 == 1 { 0.5 } else { -0.5 };
            b.centre[i] + sign * b.size[i]
        })
    })
}

/// The box's faces: the four corners of each (in order round it) and its outward axis and side.
const FACES: [([usize; 4], usize, f64); 6] = [
    ([0, 2, 6, 4], 0, -1.0),
    ([1, 3, 7, 5], 0, 1.0),
    ([0, 1, 5, 4], 1, -1.0),
    ([2, 3, 7, 6], 1, 1.0),
    ([0, 1, 3, 2], 2, -1.0),
    ([4, 5, 7, 6], 2, 1.0),
];

/// The box's twelve edges, as corner pairs that differ in one bit.
fn edges() -> impl Iterator<Item = (usize, usize)> {
    (0..8usize).flat_map(|k| {
        (0..3)
            .map(move |i| (k, k | 1 << i))
            .filter(move |&(a, b)| a != b)
    })
}

/// The scene's boxes in the main view, drawn under the robot: the faces toward the viewer
/// filled faintly, every edge thin.
pub fn boxes(area: &Area, surface: &Surface, layout: &Layout, boxes: &[Obstacle]) -> DrawResult {
    for b in boxes {
        let c = corners(b);
        for (face, axis, side) in FACES {
            let mut outward = b.centre;
            outward[axis] += side;
            if layout.main.depth(outward) <= layout.main.depth(b.centre) {
                continue;
            }
            let points: Vec<(i32, i32)> = face
                .iter()
                .map(|&k| pixel(layout.main.to_pixel(c[k])))
                .collect();
            area.draw(&Polygon::new(points, MUTED.mix(0.22).filled()))
                .map_err(text_err)?;
        }
        for (a, e) in edges() {
            let ends = vec![
                pixel(layout.main.to_pixel(c[a])),
                pixel(layout.main.to_pixel(c[e])),
            ];
            line(area, ends, INK.mix(0.55).stroke_width(surface.stroke(1.0)))?;
        }
    }
    Ok(())
}

/// The boxes of the scene a model learned, where the page has since moved them: every edge
/// dashed, nothing filled (the boxes now are drawn by [`boxes`]).
pub fn learned_boxes(
    area: &Area,
    surface: &Surface,
    layout: &Layout,
    boxes: &[Obstacle],
) -> DrawResult {
    let style = INK.mix(0.8).stroke_width(surface.stroke(1.5));
    for b in boxes {
        let c = corners(b);
        for (a, e) in edges() {
            let ends = (layout.main.to_pixel(c[a]), layout.main.to_pixel(c[e]));
            super::dashed(area, surface, ends.0, ends.1, style)?;
        }
    }
    Ok(())
}

/// The scene's boxes in an inset showing world axes `axes`, through `flat`.
pub fn inset_boxes(
    area: &Area,
    surface: &Surface,
    boxes: &[Obstacle],
    axes: [usize; 2],
    flat: &dyn Fn([f64; 3]) -> (i32, i32),
) -> DrawResult {
    for b in boxes {
        let mut low = b.centre;
        let mut high = b.centre;
        for i in axes {
            low[i] -= 0.5 * b.size[i];
            high[i] += 0.5 * b.size[i];
        }
        let corners = [flat(low), flat(high)];
        area.draw(&Rectangle::new(corners, MUTED.mix(0.3).filled()))
            .map_err(text_err)?;
        area.draw(&Rectangle::new(
            corners,
            INK.mix(0.55).stroke_width(surface.stroke(1.0)),
        ))
        .map_err(text_err)?;
    }
    Ok(())
}

/// The spheres at the answer, back to front: every one when `all`, else the overlapping links'
/// alone. A link that overlaps something is red.
pub fn spheres(
    area: &Area,
    surface: &Surface,
    layout: &Layout,
    picture: &CollisionPicture,
    all: bool,
) -> DrawResult {
    let mut shown: Vec<_> = picture
        .spheres
        .iter()
        .filter(|s| all || picture.links.get(s.link).is_some_and(|(_, hit)| *hit))
        .collect();
    shown.sort_by(|a, b| {
        layout
            .main
            .depth(a.centre)
            .total_cmp(&layout.main.depth(b.centre))
    });
    for s in shown {
        let hit = picture.links.get(s.link).is_some_and(|(_, hit)| *hit);
        let colour = if hit { CONTACT } else { SOLUTION };
        let at = pixel(layout.main.to_pixel(s.centre));
        let r = (s.radius * layout.main.scale).round().max(1.0) as i32;
        area.draw(&Circle::new(at, r, colour.mix(0.18).filled()))
            .map_err(text_err)?;
        area.draw(&Circle::new(
            at,
            r,
            colour.mix(0.7).stroke_width(surface.stroke(1.0)),
        ))
        .map_err(text_err)?;
    }
    Ok(())
}

/// The clearance readout at the main view's foot, above the page's buttons there (on a phone
/// they span the panel's width): the millimetres and between what, or the two things that
/// touch (in red).
pub fn readout(
    area: &Area,
    surface: &Surface,
    layout: &Layout,
    picture: &CollisionPicture,
) -> DrawResult {
    let colour = if picture.is_clear() {
        palette::MUTED_INK
    } else {
        CONTACT
    };
    let font = surface.font(palette::LABEL_PX, colour);
    let [l, _, _, b] = layout.plot;
    let at = (
        l.round() as i32 + surface.px(4.0),
        b.round() as i32 - surface.px(palette::LABEL_PX + 4.0 + super::layout::BUTTON_ROOM),
    );
    area.draw_text(&format!("spheres: {}", picture.readout()), &font, at)
        .map_err(text_err)
}
