//! The map between a panel's device pixels and world coordinates, shared by the drawing code
//! and by pointer handling, so a click lands exactly where the chart says it does.

use serde::Serialize;

/// A rectangle of device pixels showing a rectangle of world coordinates (y up).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Viewport {
    /// Plot area in device pixels: left, top, right, bottom.
    pub pixels: [f64; 4],
    /// World rectangle: x min, x max, y min, y max.
    pub world: [f64; 4],
}

impl Viewport {
    /// World ranges of equal scale on both axes that contain `[-half, half]²` and fill a plot
    /// area of `width × height` pixels.
    pub fn square_world(half: f64, width: f64, height: f64) -> ([f64; 2], [f64; 2]) {
        Self::fit_world([-half, half, -half, half], width, height)
    }

    /// World ranges of equal scale on both axes, centred on `bounds = [x0, x1, y0, y1]`, that
    /// contain it and fill a plot area of `width × height` pixels.
    pub fn fit_world(bounds: [f64; 4], width: f64, height: f64) -> ([f64; 2], [f64; 2]) {
        let [x0, x1, y0, y1] = bounds;
        let width = width.max(1.0);
        let height = height.max(1.0);
        let scale = ((x1 - x0) / width).max((y1 - y0) / height);
        let (hx, hy) = (0.5 * width * scale, 0.5 * height * scale);
        let (cx, cy) = (0.5 * (x0 + x1), 0.5 * (y0 + y1));
        ([cx - hx, cx + hx], [cy - hy, cy + hy])
    }

    /// Device pixel → world point.
    pub fn to_world(&self, px: f64, py: f64) -> [f64; 2] {
        let [l, t, r, b] = self.pixels;
        let [x0, x1, y0, y1] = self.world;
        [
            x0 + (px - l) / (r - l).max(1.0) * (x1 - x0),
            y1 - (py - t) / (b - t).max(1.0) * (y1 - y0),
        ]
    }

    /// World point → device pixel.
    pub fn to_pixel(&self, x: f64, y: f64) -> [f64; 2] {
        let [l, t, r, b] = self.pixels;
        let [x0, x1, y0, y1] = self.world;
        [
            l + (x - x0) / (x1 - x0) * (r - l),
            t + (y1 - y) / (y1 - y0) * (b - t),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixel_world_round_trip_and_orientation() {
        let v = Viewport {
            pixels: [40.0, 10.0, 440.0, 310.0],
            world: [-2.0, 2.0, -1.5, 1.5],
        };
        let p = v.to_pixel(0.3, -0.7);
        let w = v.to_world(p[0], p[1]);
        assert!((w[0] - 0.3).abs() < 1e-12 && (w[1] + 0.7).abs() < 1e-12);
        assert_eq!(v.to_world(40.0, 10.0), [-2.0, 1.5]);
        assert_eq!(v.to_world(440.0, 310.0), [2.0, -1.5]);
    }

    #[test]
    fn square_world_keeps_equal_scale() {
        let (x, y) = Viewport::square_world(1.0, 400.0, 200.0);
        assert!(((x[1] - x[0]) / 400.0 - (y[1] - y[0]) / 200.0).abs() < 1e-12);
        assert!(x[1] >= 1.0 && y[1] >= 1.0);
    }
}
