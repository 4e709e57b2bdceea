//! The loads a robot's contacts carry (what [`super::capability::Statics`] reports), beside the
//! neutral posture's, for the bars a view draws against what the contacts can hold.

/// What one contact of the robot must hold at a configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct ContactLoad {
    /// The contact in words.
    pub label: &'static str,
    /// The force it needs (N; negative: none needed).
    pub needed: f64,
    /// The force it has (N).
    pub available: f64,
}

/// What an answer's contacts must hold, beside the neutral posture's for the same target.
#[derive(Debug, Clone, PartialEq)]
pub struct Loads {
    /// The answer's loads, one per contact.
    pub answer: Vec<ContactLoad>,
    /// The neutral posture's (None where it has none inside the joint box).
    pub neutral: Option<Vec<ContactLoad>>,
}

impl Loads {
    /// The loads of configuration `q` of `problem` and of its kind's neutral posture for
    /// target `y` (None for a kind without contacts or a q of the wrong size).
    pub fn of(problem: &super::Problem, q: &[f64], y: &[f64]) -> Option<Loads> {
        let statics = problem.capabilities().statics?;
        let answer = statics.contact_loads(q)?;
        let neutral = statics
            .neutral_pose(y)
            .filter(|x| problem.limits().margin(x) >= 0.0)
            .and_then(|x| statics.contact_loads(&x));
        Some(Loads { answer, neutral })
    }

    /// The neutral posture's load on contact `k` (N), if any.
    pub fn neutral_needed(&self, k: usize) -> Option<f64> {
        self.neutral.as_ref()?.get(k).map(|c| c.needed)
    }
}
