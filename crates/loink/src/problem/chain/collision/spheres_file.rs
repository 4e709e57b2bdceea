//! The spheres file `loink spheres` writes: each link's spheres in the link's own frame, how well
//! they cover its collision geometry, and the link pairs never checked (joined by a joint, or
//! disabled by the robot's SRDF). It names the URDF (and SRDF) it came from by SHA-256.

use serde::{Deserialize, Serialize};

use super::Sphere;
use crate::error::{LoinkError, Result};
use crate::problem::chain::ChainSource;

/// The format tag of a spheres file.
pub const FORMAT: &str = "loink-spheres/1";
/// Largest spheres file read (bytes).
pub const MAX_BYTES: usize = 4 * 1024 * 1024;

/// How well a link's spheres cover its collision geometry.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    /// Points of the geometry checked (mesh vertices, and points on the primitives' surfaces).
    pub points: usize,
    /// The share of them inside some sphere of the link (1 when they cover it).
    pub inside: f64,
    /// The largest distance of a sphere's surface outside the geometry (m): how much the
    /// spheres overstate the link.
    pub bulge_m: f64,
}

/// One link's spheres.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinkSpheres {
    /// The link's name in the URDF.
    pub link: String,
    /// Its spheres, centres in the link's frame.
    pub spheres: Vec<Sphere>,
    /// How well they cover the link.
    pub fit: Fit,
}

/// A spheres file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpheresFile {
    /// [`FORMAT`].
    pub format: String,
    /// The URDF the geometry was read from.
    pub urdf: ChainSource,
    /// The SRDF whose disabled pairs `skip` holds, if one was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub srdf: Option<ChainSource>,
    /// How the spheres were fitted, in words.
    pub method: String,
    /// The links.
    pub links: Vec<LinkSpheres>,
    /// Link pairs never checked, each sorted.
    pub skip: Vec<[String; 2]>,
}

impl SpheresFile {
    /// Reads and checks a spheres file.
    pub fn from_json(bytes: &[u8]) -> Result<Self> {
        let bad = |detail: String| LoinkError::RobotFile(format!("spheres file: {detail}"));
        if bytes.len() > MAX_BYTES {
            return Err(bad(format!("{} bytes (at most {MAX_BYTES})", bytes.len())));
        }
        let file: SpheresFile =
            serde_json::from_slice(bytes).map_err(|e| bad(format!("not a spheres file ({e})")))?;
        if file.format != FORMAT {
            return Err(bad(format!(
                "format '{}' (expected '{FORMAT}')",
                file.format
            )));
        }
        for link in &file.links {
            for s in &link.spheres {
                crate::error::ensure_finite(&format!("a sphere of '{}'", link.link), &s.centre)?;
                if !(s.radius.is_finite() && s.radius > 0.0 && s.radius < 10.0) {
                    return Err(bad(format!(
                        "a sphere of '{}' has radius {} (must be in (0, 10) m)",
                        link.link, s.radius
                    )));
                }
            }
        }
        Ok(file)
    }

    /// Whether the pair (a, b) is never checked.
    pub fn skips(&self, a: &str, b: &str) -> bool {
        self.skip
            .iter()
            .any(|[x, y]| (x == a && y == b) || (x == b && y == a))
    }
}
