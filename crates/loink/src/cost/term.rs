//! The cost terms by name: one [`Term`] per kind of term, and what each says of itself (its word
//! in the cost syntax, its formula, its description) in one table, [`Term::info`].
//!
//! Every build knows every term's name, so a file or a `--cost` naming a term parses the same
//! in every bundle; whether a term can be *evaluated* is the problem's to say when the cost is
//! bound ([`super::CostModel::new`]): the generic terms ([`super::generic`]) on any problem, the
//! others by the kind that knows them (`Kinematics::cost_term`).
//!
//! Adding a term: a [`Term`] variant, its row in [`Term::info`], and its evaluation: an arm of
//! [`super::generic::build`] when the joint box alone defines it, or the kind's `cost_term`.

use serde::{Deserialize, Serialize};

/// The kinds of cost term. Files store the snake-case name (`"joint_limit"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Term {
    /// Σ ((q_i − c_i)/h_i)², c_i and h_i the centre and half-width of joint i's range.
    JointLimit,
    /// com_x², the planar arms' centre-of-mass offset.
    CentreOfMass,
    /// Σ q_i².
    Effort,
    /// Σ ((q_i − lower_i)/(upper_i − lower_i))².
    Actuation,
    /// The magnet pull the climber's feet need, a smooth maximum over its leg pairs, in body
    /// weights.
    Adhesion,
    /// Σ (u_i + u_i⁴) of the climber's passive ankles (u = 1 at their limit).
    Ankles,
    /// (1 − cos α)/(1 − cos α_ref): the climber's body tilt against its wall.
    Tilt,
    /// The cost a data file gave for its rows, whatever made it: no formula, so it evaluates to
    /// NaN (nothing can recompute it).
    Data,
}

/// What a term says of itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TermInfo {
    /// Its word in [`super::CostSpec::parse`]'s syntax (`limits=1,com=4`).
    pub word: &'static str,
    /// Its formula (weight left out).
    pub formula: &'static str,
    /// Its description in words (weight left out).
    pub words: &'static str,
}

impl Term {
    /// Every term, in the order messages list them.
    pub const ALL: [Term; 8] = [
        Term::JointLimit,
        Term::CentreOfMass,
        Term::Effort,
        Term::Actuation,
        Term::Adhesion,
        Term::Ankles,
        Term::Tilt,
        Term::Data,
    ];

    /// Its word, formula and description.
    pub fn info(self) -> TermInfo {
        let word = match self {
            Term::JointLimit => "limits",
            Term::CentreOfMass => "com",
            Term::Effort => "effort",
            Term::Actuation => "actuation",
            Term::Adhesion => "adhesion",
            Term::Ankles => "ankles",
            Term::Tilt => "tilt",
            Term::Data => "data",
        };
        let (formula, words) = match self {
            Term::JointLimit => (
                "Σ((qᵢ − cᵢ)/hᵢ)²",
                "joint centring (each joint's distance from mid-range)²",
            ),
            Term::CentreOfMass => ("com_x²", "the centre of mass's horizontal offset²"),
            Term::Effort => ("Σqᵢ²", "effort Σqᵢ²"),
            Term::Actuation => (
                "Σ((qᵢ − lᵢ)/(uᵢ − lᵢ))²",
                "actuation (each joint's travel as a share of its range)²",
            ),
            Term::Data => ("J(data)", "the data file's own cost"),
            #[cfg(feature = "climber")]
            Term::Adhesion => (
                "LSE_β(a_U, a_L)/W",
                "the magnet pull the feet need (the larger pair's, smoothly, in body weights)",
            ),
            #[cfg(feature = "climber")]
            Term::Ankles => ("Σ(uᵢ + uᵢ⁴)", "the passive ankles' distance from square"),
            #[cfg(feature = "climber")]
            Term::Tilt => (
                "(1 − cos α)/(1 − cos α_ref)",
                "the body's tilt against the wall",
            ),
            // A build without the climber cannot bind its terms, so never describes them (and
            // the playground's download does not carry the words).
            #[allow(unreachable_patterns)]
            _ => ("", ""),
        };
        TermInfo {
            word,
            formula,
            words,
        }
    }

    /// The term whose word is `word`.
    pub fn from_word(word: &str) -> Option<Term> {
        Term::ALL.into_iter().find(|t| t.info().word == word)
    }

    /// Every term's word, in [`Term::ALL`] order.
    pub fn words() -> Vec<&'static str> {
        Term::ALL.iter().map(|t| t.info().word).collect()
    }
}

/// One weighted term as a file stores it: `{"term": "joint_limit", "weight": 1.0}`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TermSpec {
    /// Which term.
    pub term: Term,
    /// Its weight (finite, ≥ 0).
    pub weight: f64,
}

impl TermSpec {
    /// `weight · term`.
    pub const fn new(term: Term, weight: f64) -> Self {
        Self { term, weight }
    }

    /// Its weight.
    pub fn weight(&self) -> f64 {
        self.weight
    }

    /// Its word in [`super::CostSpec::parse`]'s syntax.
    pub fn word(&self) -> &'static str {
        self.term.info().word
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_names_one_term() {
        for term in Term::ALL {
            assert_eq!(Term::from_word(term.info().word), Some(term));
        }
        assert_eq!(Term::from_word("nonsense"), None);
    }

    #[test]
    fn a_term_reads_and_writes_the_file_form() {
        let spec = TermSpec::new(Term::CentreOfMass, 4.0);
        let json = serde_json::to_string(&spec).unwrap();
        assert_eq!(json, r#"{"term":"centre_of_mass","weight":4.0}"#);
        let back: TermSpec =
            serde_json::from_str(r#"{"weight":4.0,"term":"centre_of_mass","x":1}"#).unwrap();
        assert_eq!(back, spec);
        assert!(serde_json::from_str::<TermSpec>(r#"{"term":"gravity","weight":1}"#).is_err());
    }
}
