//! What a view draws of a robot's collision model (what [`super::capability::SpaceView`]
//! reports for a kind that keeps clear of things): the scene's boxes, the spheres placed at a
//! posture, which links overlap, and the clearance in words.

/// A fixed box of the scene, axis-aligned, in task coordinates (m).
#[derive(Debug, Clone, PartialEq)]
pub struct Obstacle {
    /// Its name in readouts.
    pub name: String,
    /// Its centre.
    pub centre: [f64; 3],
    /// Its full sizes along x, y and z.
    pub size: [f64; 3],
}

/// One sphere of the robot placed at a posture.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedSphere {
    /// Its centre (m).
    pub centre: [f64; 3],
    /// Its radius (m).
    pub radius: f64,
    /// Its link: an index into [`CollisionPicture::links`].
    pub link: usize,
}

/// The robot's collision model at one posture.
#[derive(Debug, Clone, PartialEq)]
pub struct CollisionPicture {
    /// Every sphere.
    pub spheres: Vec<PlacedSphere>,
    /// Each link's name and whether it overlaps another link or a scene object.
    pub links: Vec<(String, bool)>,
    /// The smallest signed distance over every checked pair (m; negative: overlapping by that
    /// much) and the two things it separates, in words; None when nothing is checked.
    pub clearance: Option<(f64, String)>,
}

impl CollisionPicture {
    /// Whether nothing overlaps.
    pub fn is_clear(&self) -> bool {
        self.clearance.as_ref().is_none_or(|(d, _)| *d > 0.0)
    }

    /// The readout: the clearance in mm and between what, or the two things that touch.
    pub fn readout(&self) -> String {
        match &self.clearance {
            None => "nothing to collide".into(),
            Some((d, between)) if *d > 0.0 => {
                format!("clear by {:.1} mm ({between})", d * 1e3)
            }
            Some((d, between)) => format!("{between} touch ({:.1} mm deep)", -d * 1e3),
        }
    }
}
