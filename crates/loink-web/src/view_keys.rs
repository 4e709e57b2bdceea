//! The 3-D view's entries of the URL hash (feature `view3d`): `view=ψ,θ`, the arm panel's
//! orbit in degrees, and `axes=a,b`, the two latent axes the latent panel slices a latent space
//! of three or more coordinates along (counted from 1 in a link), and `spheres=1`, every
//! collision sphere drawn on a robot that has them. `view_keys_off.rs` is this
//! module in a bundle without the 3-D view: no entries, and `view`/`axes` are unknown keys.

use serde::{Deserialize, Serialize};

use crate::decimal::{number, parse_count, parse_number};
use crate::learned::MAX_PROBE_DIM;

/// Most latent axes a slice may name (the probe's limit).
const MAX_AXIS: usize = MAX_PROBE_DIM;

/// The 3-D view's part of the settings.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ViewKeys {
    /// The 3-D view's orbit, `[yaw, pitch]` in degrees; None: the view a fresh page shows
    /// ([`crate::orbit::DEFAULT_YAW`], [`crate::orbit::DEFAULT_PITCH`]).
    #[serde(default)]
    pub view: Option<[f64; 2]>,
    /// The two latent axes of the latent panel's slice, 0-based; None: the first two. The other
    /// coordinates stay at the probe's values (0 without a probe).
    #[serde(default)]
    pub axes: Option<[usize; 2]>,
    /// Every collision sphere drawn (a robot that keeps clear of things); off, only those of
    /// the links that overlap something.
    #[serde(default)]
    pub spheres: bool,
}

impl ViewKeys {
    /// Whether it holds nothing (a link without `view` or `axes`).
    pub fn is_empty(&self) -> bool {
        self.view.is_none() && self.axes.is_none() && !self.spheres
    }

    /// The latent slice's axes, if a link named them.
    pub fn axes(&self) -> Option<[usize; 2]> {
        self.axes
    }

    /// Whether `key` is one of its hash keys.
    pub fn owns(key: &str) -> bool {
        matches!(key, "view" | "axes" | "spheres")
    }

    /// Reads one of its hash entries ([`Self::owns`]).
    pub fn parse_entry(&mut self, key: &str, value: &str) -> Result<(), String> {
        match key {
            "view" => parse_view(value).map(|v| self.view = Some(v)),
            "spheres" => {
                self.spheres = match value {
                    "1" => true,
                    "0" => false,
                    _ => return Err(format!("spheres='{value}' is not 1 or 0")),
                };
                Ok(())
            }
            _ => parse_axes(value).map(|a| self.axes = Some(a)),
        }
    }

    /// Its hash entries, in the order links write them.
    pub fn hash_entries(&self, parts: &mut Vec<String>) {
        if let Some([yaw, pitch]) = self.view {
            parts.push(format!("view={},{}", number(yaw), number(pitch)));
        }
        if let Some([a, b]) = self.axes {
            parts.push(format!("axes={},{}", a + 1, b + 1));
        }
        if self.spheres {
            parts.push("spheres=1".into());
        }
    }
}

fn parse_view(text: &str) -> Result<[f64; 2], String> {
    let parts: Vec<&str> = text.split(',').collect();
    let [yaw, pitch] = parts[..] else {
        return Err(format!("view='{text}' is not YAW,PITCH (degrees)"));
    };
    let yaw = parse_number("view yaw", yaw, -360.0, 360.0)?;
    let [lo, hi] = crate::orbit::PITCH_RANGE;
    let pitch = parse_number("view pitch", pitch, lo, hi)?;
    Ok([crate::orbit::normal_yaw(yaw), pitch])
}

fn parse_axes(text: &str) -> Result<[usize; 2], String> {
    let parts: Vec<&str> = text.split(',').collect();
    let [a, b] = parts[..] else {
        return Err(format!("axes='{text}' is not two latent axes, such as 1,3"));
    };
    let a = parse_count("axes", a, MAX_AXIS as u64)? as usize;
    let b = parse_count("axes", b, MAX_AXIS as u64)? as usize;
    if a == 0 || b == 0 || a == b {
        return Err(format!(
            "axes='{text}' must name two different latent axes from 1"
        ));
    }
    Ok([a - 1, b - 1])
}

#[cfg(test)]
mod tests {
    use crate::settings::{format_hash, parse_hash, Settings};

    #[test]
    fn a_view_and_a_latent_slice_are_checked() {
        let parsed = parse_hash("#view=190,30&axes=1,3&spheres=1");
        assert_eq!(parsed.warnings, Vec::<String>::new());
        assert_eq!(parsed.settings.view3d.view, Some([-170.0, 30.0]));
        assert_eq!(parsed.settings.view3d.axes, Some([0, 2]));
        assert!(parsed.settings.view3d.spheres);
        for bad in [
            "#view=10",
            "#view=10,95",
            "#view=NaN,10",
            "#axes=1,1",
            "#axes=0,2",
            "#axes=1,2,3",
            "#axes=1,99",
            "#spheres=yes",
        ] {
            let parsed = parse_hash(bad);
            assert_eq!(parsed.warnings.len(), 1, "{bad}: {:?}", parsed.warnings);
            assert_eq!(parsed.settings, Settings::default(), "{bad}");
        }
        assert!(!format_hash(&Settings::default()).contains("view"));
    }

    #[test]
    fn a_view_and_a_slice_round_trip_through_a_link() {
        let mut s = Settings::default();
        s.view3d.view = Some([-12.5, 40.0]);
        s.view3d.axes = Some([2, 0]);
        s.view3d.spheres = true;
        let parsed = parse_hash(&format_hash(&s));
        assert_eq!(parsed.warnings, Vec::<String>::new());
        assert_eq!(parsed.settings, s);
    }
}
