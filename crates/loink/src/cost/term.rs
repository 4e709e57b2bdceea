//! The cost terms by name: one [`Term`] per kind of term, and what each says of itself (its word
//! in the cost syntax, its formula, its description) in one table, [`TERMS`].
//!
//! Every build knows every term's name, so a file or a `--cost` naming a term parses the same
//! in every bundle; whether a term can be *evaluated* is the problem's to say when the cost is
//! bound ([`super::CostModel::new`]): the generic terms ([`super::generic`]) on any problem, the
//! others by the kind that knows them (`Kinematics::cost_term`).
//!
//! Adding a term: a [`Term`] variant, its row in [`TERMS`], and its evaluation: an arm of
//! [`super::generic::build`] when the joint box alone defines it, or the kind's `cost_term`.
//! Nothing else in the core matches on terms.

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
    /// Σ ((m − d)/m)³ over the robot's own sphere pairs closer than the margin m.
    SelfCollision,
    /// Σ ((m − d)/m)³ over each sphere and scene object closer than the margin m.
    SceneCollision,
    /// The cost a data file gave for its rows, whatever made it: no formula, so it evaluates to
    /// NaN (nothing can recompute it).
    Data,
}

/// What a term says of itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TermInfo {
    /// The term.
    pub term: Term,
    /// Its word in [`super::CostSpec::parse`]'s syntax (`limits=1,com=4`).
    pub word: &'static str,
    /// Its formula (weight left out).
    pub formula: &'static str,
    /// Its description in words (weight left out).
    pub words: &'static str,
}

/// `text` in a build with the kind `feature` names, else "" (a build without the kind cannot bind
/// its terms, so never describes them).
macro_rules! with_kind {
    ($feature:literal, $text:literal) => {
        if cfg!(feature = $feature) {
            $text
        } else {
            ""
        }
    };
}

/// Every term's row, in the order messages list them. A build without the kind that evaluates a
/// term cannot bind it, so never describes it: its formula and words are left out (the
/// playground's slim download does not carry them).
pub const TERMS: [TermInfo; 10] = [
    TermInfo {
        term: Term::JointLimit,
        word: "limits",
        formula: "Σ((qᵢ − cᵢ)/hᵢ)²",
        words: "joint centring (each joint's distance from mid-range)²",
    },
    TermInfo {
        term: Term::CentreOfMass,
        word: "com",
        formula: "com_x²",
        words: "the centre of mass's horizontal offset²",
    },
    TermInfo {
        term: Term::Effort,
        word: "effort",
        formula: "Σqᵢ²",
        words: "effort Σqᵢ²",
    },
    TermInfo {
        term: Term::Actuation,
        word: "actuation",
        formula: "Σ((qᵢ − lᵢ)/(uᵢ − lᵢ))²",
        words: "actuation (each joint's travel as a share of its range)²",
    },
    TermInfo {
        term: Term::Adhesion,
        word: "adhesion",
        formula: with_kind!("climber", "LSE_β(a_U, a_L)/W"),
        words: with_kind!(
            "climber",
            "the magnet pull the feet need (the larger pair's, smoothly, in body weights)"
        ),
    },
    TermInfo {
        term: Term::Ankles,
        word: "ankles",
        formula: with_kind!("climber", "Σ(uᵢ + uᵢ⁴)"),
        words: with_kind!("climber", "the passive ankles' distance from square"),
    },
    TermInfo {
        term: Term::Tilt,
        word: "tilt",
        formula: with_kind!("climber", "(1 − cos α)/(1 − cos α_ref)"),
        words: with_kind!("climber", "the body's tilt against the wall"),
    },
    TermInfo {
        term: Term::SelfCollision,
        word: "self",
        formula: with_kind!("chain", "Σ((m − dₐᵦ)/m)₊³"),
        words: with_kind!(
            "chain",
            "self-collision (each pair of link spheres closer than the margin)"
        ),
    },
    TermInfo {
        term: Term::SceneCollision,
        word: "scene",
        formula: with_kind!("chain", "Σ((m − dₛ)/m)₊³"),
        words: with_kind!(
            "chain",
            "scene collision (each link sphere closer to an obstacle than the margin)"
        ),
    },
    TermInfo {
        term: Term::Data,
        word: "data",
        formula: "J(data)",
        words: "the data file's own cost",
    },
];

impl Term {
    /// Its word, formula and description.
    pub fn info(self) -> TermInfo {
        // Every variant has its row (the test below checks it); the fallback is unreachable.
        TERMS
            .into_iter()
            .find(|row| row.term == self)
            .unwrap_or(TERMS[TERMS.len() - 1])
    }

    /// The term whose word is `word`.
    pub fn from_word(word: &str) -> Option<Term> {
        TERMS
            .iter()
            .find(|row| row.word == word)
            .map(|row| row.term)
    }

    /// Every term's word, in [`TERMS`] order.
    pub fn words() -> Vec<&'static str> {
        TERMS.iter().map(|row| row.word).collect()
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
        for row in TERMS {
            assert_eq!(Term::from_word(row.word), Some(row.term));
            assert_eq!(row.term.info(), row);
        }
        let distinct: std::collections::HashSet<Term> = TERMS.iter().map(|r| r.term).collect();
        assert_eq!(distinct.len(), TERMS.len(), "one row per term");
        // A kind's terms are described in a build with it (and only there).
        assert_eq!(
            Term::SelfCollision.info().formula.is_empty(),
            !cfg!(feature = "chain")
        );
        assert_eq!(
            Term::Adhesion.info().words.is_empty(),
            !cfg!(feature = "climber")
        );
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
