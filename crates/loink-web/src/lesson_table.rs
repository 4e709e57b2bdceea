//! The table of lessons as the playground knows it, without their code: each lesson's word,
//! title, line, playground link and hash keys ([`LESSONS`]), which lesson is open
//! ([`LessonKind`]) and the lesson part of the URL hash ([`LessonSettings`]). Always compiled:
//! the playground lists the lessons and keeps a lesson's hash entries when it rewrites the hash;
//! the lessons themselves are the `lessons` feature.

use serde::{Deserialize, Serialize};

/// One row of the table of lessons: its identity (its behaviour is `lessons::BEHAVIOURS`, at the
/// same index).
pub struct LessonEntry {
    /// The hash word (`lesson=<word>`).
    pub word: &'static str,
    /// The lesson's title.
    pub title: &'static str,
    /// What the lesson shows, in one line (the page's list of lessons).
    pub line: &'static str,
    /// The playground view with the lesson's model (the lesson's link back).
    pub playground: &'static str,
    /// The keys of [`LessonSettings`] the lesson uses, written into its hash.
    pub keys: &'static [&'static str],
}

/// The lessons, in course order. A new lesson is one file implementing `lesson::Lesson`, one
/// entry here and its behaviour at the same index of `lessons::BEHAVIOURS`.
pub const LESSONS: [LessonEntry; 13] = [
    LessonEntry {
        word: "averaging",
        title: "The averaging trap",
        line: "why a network trained to output joints lands between two answers, and what LOInK does instead",
        playground: "#model=planar2",
        keys: &[],
    },
    LessonEntry {
        word: "smoothness",
        title: "Smoothness and μ",
        line: "how μ sets how gently the joints follow a moving target",
        playground: "#model=planar3-mu0.2&play=1",
        keys: &["path"],
    },
    LessonEntry {
        word: "diversity",
        title: "Diversity and σ",
        line: "σ draws other near-optimal answers for the same target",
        playground: "#model=planar3&sigma=0.5&samples=8",
        keys: &[],
    },
    LessonEntry {
        word: "robustness",
        title: "Noise and backlash",
        line: "open and closed loop under joint noise and backlash",
        playground: "#model=planar2",
        keys: &["noise", "deadband"],
    },
    LessonEntry {
        word: "latent",
        title: "Redundancy and the latent origin",
        line: "the latent plane of a four-link arm, and where its optimum sits",
        playground: "#model=planar4",
        keys: &["z"],
    },
    LessonEntry {
        word: "charts",
        title: "Beyond one chart",
        line: "where joint limits cut the solutions into pieces, one chart fails and eight succeed",
        playground: "#model=planar3-wide-charts&solver=loink-refine",
        keys: &[],
    },
    LessonEntry {
        word: "model-free",
        title: "Model-free: a soft arm",
        line: "learned from data alone, counted in simulator calls",
        playground: "#model=soft4",
        keys: &[],
    },
    LessonEntry {
        word: "climbing",
        title: "Distribute the load",
        line: "a climbing robot from slope to ceiling: the posture that spares its upper magnets, and when posture matters at all",
        playground: "#model=climber&solver=loink-refine",
        keys: &["rule"],
    },
    LessonEntry {
        word: "redundancy-3d",
        title: "The elbow knob",
        line: "the Panda's elbow swung through LOInK's latent space with the hand fixed, and direct regression against it",
        playground: "#model=panda&solver=loink-refine&target=0.45,-0.2,0.35",
        keys: &[],
    },
    LessonEntry {
        word: "pieces",
        title: "The cheapest posture, in pieces",
        line: "why a local solver misses the cheapest posture of a hand held at one pose, and LOInK lands on it",
        playground: "#model=panda-pose&solver=loink-refine&refine=3",
        keys: &[],
    },
    LessonEntry {
        word: "training",
        title: "Watch G learn",
        line: "planar3's LOInK trained from scratch in the page: the posture at z = 0 moving onto the cheapest one",
        playground: "#model=planar3&train=1",
        keys: &[],
    },
    LessonEntry {
        word: "boundary",
        title: "The edge of reach",
        line: "a target swept out past the workspace's edge: which solver warns, which says unreachable, and re-seeding after a contact",
        playground: "#model=planar3&solver=dls",
        keys: &["edge"],
    },
    LessonEntry {
        word: "collision",
        title: "The shelf in the cost",
        line: "the cheapest posture under a shelf with and without the board in the cost, and what a learned cost cannot know: a board moved after training",
        playground: "#model=panda-shelf&solver=loink-refine",
        keys: &["shelf"],
    },
];

/// Which lesson is open: an index into [`LESSONS`], written as the lesson's hash word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct LessonKind(usize);

impl LessonKind {
    /// All lessons in course order.
    pub fn all() -> impl Iterator<Item = LessonKind> {
        (0..LESSONS.len()).map(LessonKind)
    }

    /// The lesson's table entry.
    pub fn entry(self) -> &'static LessonEntry {
        &LESSONS[self.0]
    }

    /// Its index in [`LESSONS`].
    pub fn index(self) -> usize {
        self.0
    }

    /// The hash word (`lesson=<word>`).
    pub fn as_str(self) -> &'static str {
        self.entry().word
    }

    /// Parses the hash word.
    pub fn parse(word: &str) -> Option<LessonKind> {
        LESSONS.iter().position(|e| e.word == word).map(LessonKind)
    }

    fn known() -> String {
        LESSONS.map(|e| e.word).join(", ")
    }
}

impl TryFrom<String> for LessonKind {
    type Error = String;
    fn try_from(word: String) -> Result<Self, String> {
        LessonKind::parse(&word)
            .ok_or_else(|| format!("unknown lesson '{word}' (known: {})", LessonKind::known()))
    }
}

impl From<LessonKind> for String {
    fn from(kind: LessonKind) -> String {
        kind.as_str().to_string()
    }
}

/// The path the smoothness lesson's target follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum PathKind {
    /// A loop passing close to the base, where the cheapest pose turns the arm over fast.
    #[default]
    NearBase,
    /// A circle in open space, where the cheapest pose moves slowly.
    Circle,
    /// A figure-eight (Gerono lemniscate).
    FigureEight,
    /// A straight line, there and back.
    Line,
}

impl PathKind {
    /// All paths, menu order.
    pub const ALL: [PathKind; 4] = [
        PathKind::NearBase,
        PathKind::Circle,
        PathKind::FigureEight,
        PathKind::Line,
    ];
    /// The hash word.
    pub fn as_str(self) -> &'static str {
        match self {
            PathKind::NearBase => "near-base",
            PathKind::Circle => "circle",
            PathKind::FigureEight => "figure-eight",
            PathKind::Line => "line",
        }
    }
    /// Parses the hash word.
    pub fn parse(word: &str) -> Option<PathKind> {
        PathKind::ALL.into_iter().find(|k| k.as_str() == word)
    }
}

/// How the climbing lesson's robot shares its load between the feet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum RuleKind {
    /// Equally stiff joints: the problem's rule.
    #[default]
    Stiffness,
    /// Minimum-norm contact forces: Magneto's own controller.
    MinNorm,
}

impl RuleKind {
    /// Both rules, menu order.
    pub const ALL: [RuleKind; 2] = [RuleKind::Stiffness, RuleKind::MinNorm];
    /// The hash word.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleKind::Stiffness => "stiffness",
            RuleKind::MinNorm => "min-norm",
        }
    }
    /// Parses the hash word.
    pub fn parse(word: &str) -> Option<RuleKind> {
        RuleKind::ALL.into_iter().find(|k| k.as_str() == word)
    }
}

/// Which edge of planar3's workspace the boundary lesson's line crosses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum EdgeKind {
    /// The reach circle, where the arm is stretched straight (a singular posture).
    #[default]
    Reach,
    /// The edge the shoulder's joint limit draws inside the reach circle.
    Limit,
}

impl EdgeKind {
    /// Both edges, menu order.
    pub const ALL: [EdgeKind; 2] = [EdgeKind::Reach, EdgeKind::Limit];
    /// The hash word.
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Reach => "reach",
            EdgeKind::Limit => "limit",
        }
    }
    /// Parses the hash word.
    pub fn parse(word: &str) -> Option<EdgeKind> {
        EdgeKind::ALL.into_iter().find(|k| k.as_str() == word)
    }
}

/// Largest joint noise and dead band of the robustness lesson (rad).
pub const NOISE_MAX: f64 = 0.2;
/// The latent lesson's default point: inside the patch of the plane whose poses keep the limits.
pub const DEFAULT_Z: [f64; 2] = [0.8, 0.4];
/// Largest |z_i| of the latent lesson's point (normalised latent units).
pub const LATENT_MAX: f64 = 2.0;

/// The collision lesson's board height (m, its centre): where the shelf model learned it, and
/// how far the page may move it.
pub const SHELF_LEARNED: f64 = 0.45;
/// Lowest board height the collision lesson offers (m): the board stays above its targets.
pub const SHELF_MIN: f64 = 0.3;
/// Highest board height the collision lesson offers (m).
pub const SHELF_MAX: f64 = 0.7;

/// The lesson part of the page settings (a field of [`crate::settings::Settings`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LessonSettings {
    /// Which lesson is open (`None`: the plain playground).
    pub name: Option<LessonKind>,
    /// Smoothness: the target's path.
    pub path: PathKind,
    /// Robustness: standard deviation of the joint-angle noise (rad).
    pub noise: f64,
    /// Robustness: the dead band of each joint (rad) — commanded changes below it are lost.
    pub deadband: f64,
    /// Latent: the dragged latent point z (normalised units).
    pub z: [f64; 2],
    /// Climbing: the rule sharing the load between the feet.
    pub rule: RuleKind,
    /// Boundary: the edge the line crosses.
    pub edge: EdgeKind,
    /// Collision: the height of the shelf board's centre in the page (m).
    pub shelf: f64,
}

impl Default for LessonSettings {
    fn default() -> Self {
        LessonSettings {
            name: None,
            path: PathKind::default(),
            noise: 0.02,
            deadband: 0.01,
            z: DEFAULT_Z,
            rule: RuleKind::default(),
            edge: EdgeKind::default(),
            shelf: SHELF_LEARNED,
        }
    }
}

fn number(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else {
        format!("{v}")
    }
}

fn bounded(key: &str, text: &str, lo: f64, hi: f64) -> Result<f64, String> {
    let v = crate::decimal::parse_decimal(text)
        .ok_or_else(|| format!("{key}='{text}' is not a number"))?;
    if !(v.is_finite() && (lo..=hi).contains(&v)) {
        return Err(format!("{key}={text} is outside [{lo}, {hi}]"));
    }
    Ok(v)
}

impl LessonSettings {
    /// Whether `key` is a lesson key of the hash.
    pub fn owns(key: &str) -> bool {
        matches!(
            key,
            "lesson" | "path" | "noise" | "deadband" | "z" | "rule" | "edge" | "shelf"
        )
    }

    /// Reads one hash entry (a key for which [`Self::owns`] is true); a bad value keeps the
    /// default and says why.
    pub fn parse_entry(&mut self, key: &str, value: &str) -> Result<(), String> {
        match key {
            "lesson" => {
                self.name = Some(LessonKind::try_from(value.to_string())?);
            }
            "path" => {
                self.path = PathKind::parse(value).ok_or_else(|| {
                    format!(
                        "unknown path '{value}' (known: {})",
                        PathKind::ALL.map(PathKind::as_str).join(", ")
                    )
                })?;
            }
            "rule" => {
                self.rule = RuleKind::parse(value).ok_or_else(|| {
                    format!(
                        "unknown rule '{value}' (known: {})",
                        RuleKind::ALL.map(RuleKind::as_str).join(", ")
                    )
                })?;
            }
            "edge" => {
                self.edge = EdgeKind::parse(value).ok_or_else(|| {
                    format!(
                        "unknown edge '{value}' (known: {})",
                        EdgeKind::ALL.map(EdgeKind::as_str).join(", ")
                    )
                })?;
            }
            "noise" => self.noise = bounded(key, value, 0.0, NOISE_MAX)?,
            "deadband" => self.deadband = bounded(key, value, 0.0, NOISE_MAX)?,
            "shelf" => self.shelf = bounded(key, value, SHELF_MIN, SHELF_MAX)?,
            "z" => {
                let (a, b) = value
                    .split_once(',')
                    .ok_or_else(|| format!("z='{value}' is not Z1,Z2"))?;
                self.z = [
                    bounded("z1", a, -LATENT_MAX, LATENT_MAX)?,
                    bounded("z2", b, -LATENT_MAX, LATENT_MAX)?,
                ];
            }
            _ => return Err(format!("'{key}' is not a lesson setting")),
        }
        Ok(())
    }

    /// The hash entries of the open lesson (nothing when no lesson is open): `lesson=…` and
    /// the keys that lesson uses.
    pub fn hash_entries(&self) -> Vec<String> {
        let Some(kind) = self.name else {
            return Vec::new();
        };
        let mut out = vec![format!("lesson={}", kind.as_str())];
        for key in kind.entry().keys {
            out.push(match *key {
                "path" => format!("path={}", self.path.as_str()),
                "noise" => format!("noise={}", number(self.noise)),
                "deadband" => format!("deadband={}", number(self.deadband)),
                "rule" => format!("rule={}", self.rule.as_str()),
                "edge" => format!("edge={}", self.edge.as_str()),
                "shelf" => format!("shelf={}", number(self.shelf)),
                _ => format!("z={},{}", number(self.z[0]), number(self.z[1])),
            });
        }
        out
    }

    /// Clamps every value into its range (settings that came from JavaScript).
    pub fn clamped(mut self) -> Self {
        let fix = |v: f64, hi: f64, d: f64| if v.is_finite() { v.clamp(0.0, hi) } else { d };
        let d = LessonSettings::default();
        self.noise = fix(self.noise, NOISE_MAX, d.noise);
        self.deadband = fix(self.deadband, NOISE_MAX, d.deadband);
        self.shelf = if self.shelf.is_finite() {
            self.shelf.clamp(SHELF_MIN, SHELF_MAX)
        } else {
            d.shelf
        };
        for (i, v) in self.z.iter_mut().enumerate() {
            *v = if v.is_finite() {
                v.clamp(-LATENT_MAX, LATENT_MAX)
            } else {
                d.z[i]
            };
        }
        self
    }
}

#[cfg(test)]
mod hash_tests {
    use super::*;
    use crate::settings::{format_hash, parse_hash};

    #[test]
    fn lesson_hashes_round_trip() {
        for hash in [
            "#lesson=averaging",
            "#lesson=smoothness&path=figure-eight",
            "#lesson=robustness&noise=0.05&deadband=0.02",
            "#lesson=latent&z=-0.5,1.25",
            "#lesson=diversity&sigma=0.7&seed=12",
            "#lesson=boundary&edge=limit",
            "#lesson=collision&shelf=0.38",
        ] {
            let parsed = parse_hash(hash);
            assert!(parsed.warnings.is_empty(), "{hash}: {:?}", parsed.warnings);
            let again = parse_hash(&format_hash(&parsed.settings));
            assert_eq!(again.settings, parsed.settings, "{hash}");
        }
    }

    #[test]
    fn bad_lesson_entries_warn_and_keep_defaults() {
        let parsed = parse_hash("#lesson=magic&noise=5&z=1&path=spiral");
        assert_eq!(parsed.warnings.len(), 4, "{:?}", parsed.warnings);
        assert_eq!(parsed.settings.lesson, LessonSettings::default());
        assert!(!format_hash(&parsed.settings).contains("lesson"));
    }
}
