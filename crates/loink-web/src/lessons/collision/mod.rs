//! What a learned cost knows (`#lesson=collision`): the Panda reaching under a shelf board. The
//! cheapest posture of the joint centring alone (`panda.json`: no board in its cost) swings the
//! forearm into the board; LOInK trained with the board in its cost (`panda-shelf.json`) ducks
//! under it at no cost at solve time. Then the board moves in the page: the model still avoids
//! the board it learned — the scene is fixed at training time — and only a solver that reads the
//! scene when it solves (the reference) follows the board.
//!
//! Each answer is judged against the board where the page has it (the clearance of the robot's
//! spheres from everything it may not touch); the board's clearance of each answer is also swept
//! over every height the page offers.

use loink::problem::chain::collision::scene::{Cuboid, Object};
use loink::problem::collision_picture::Obstacle;
use loink::problem::Problem;
use loink::report::{Solution, Status};
use loink::solvers::reference;
use loink::solvers::registry::{SolverKind as Kind, SolverSettings};
use loink::surrogate::ChartSet;
use serde::Serialize;

mod draw;

use super::layout::{Control, Panel};
use super::lesson::Lesson;
use super::models::{self, Loaded, ModelFile};
use super::table::{SHELF_MAX, SHELF_MIN};
use crate::draw::{DrawResult, Surface};
use crate::settings::{Settings, SolverKind};
use crate::view::Viewport;

/// Polish steps each learned answer gets (the page's default refinement).
pub const REFINE: usize = 3;
/// The board's name in the shelf model's scene.
pub const BOARD: &str = "shelf";
/// Heights of the board's sweep, from [`SHELF_MIN`] to [`SHELF_MAX`].
const SWEEP_POINTS: usize = 41;

/// One answer, judged against the scene in the page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Posture {
    /// Which answer: `without` (no board in its cost), `with` (the shelf model), `reference`.
    pub solver: &'static str,
    /// Its joints.
    pub q: Vec<f64>,
    /// Its status as its solver reported it.
    pub status: &'static str,
    /// J under the page's cost (the joint centring plus the collision terms, the board where
    /// the page has it).
    pub cost: f64,
    /// Whether nothing overlaps in the page's scene.
    pub clear: bool,
    /// The smallest signed distance (mm; negative: that deep in).
    pub clearance_mm: Option<f64>,
    /// The clearance in words (`clear by … mm (…)`, `… touch (… mm deep)`).
    pub readout: String,
    /// The board's clearance of this posture at each height of the sweep (mm).
    pub board_mm: Vec<f64>,
}

/// `getState().lesson`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CollisionState {
    /// Lesson name.
    pub lesson: &'static str,
    /// The target (m).
    pub target: Vec<f64>,
    /// The board's height in the page (m, its centre).
    pub shelf_z: f64,
    /// The height the shelf model learned it at (m; null without the model).
    pub learned_z: Option<f64>,
    /// Whether the page's board is elsewhere than the one the model learned.
    pub moved: bool,
    /// `panda.json` + refine 3: the joint centring alone.
    pub without: Option<Posture>,
    /// `panda-shelf.json` + refine 3, judged against the page's board.
    pub with: Option<Posture>,
    /// The same answer judged against the board the model learned: whether it keeps clear of it.
    pub with_learned_clear: Option<bool>,
    /// Its clearance there (mm).
    pub with_learned_mm: Option<f64>,
    /// The reference optimum for the page's board (it reads the scene when it solves).
    pub reference: Option<Posture>,
    /// The board heights of the sweep (m).
    pub heights: Vec<f64>,
}

/// The computed lesson.
pub struct CollisionLesson {
    state: CollisionState,
    /// The page's problem: the shelf model's robot and cost, the board where the page has it.
    page: Option<Problem>,
    /// The boxes the model learned (drawn dashed when the page moved them).
    learned_boxes: Vec<Obstacle>,
    /// The answers as solutions (for the arm panels).
    answers: [Option<Solution>; 3],
    /// Why the lesson has no answer (its own reasons; the page lists missing model files).
    missing: Vec<String>,
}

/// The board of a scene and its height.
fn board(problem: &Problem) -> Option<&Cuboid> {
    problem.scene()?.boxes.iter().find(|b| b.name == BOARD)
}

/// The problem with its board's centre at height `z` (itself when the board is there).
fn with_board_at(problem: &Problem, z: f64) -> Result<Problem, String> {
    let here = board(problem).ok_or("the shelf model's scene has no board")?;
    if (here.centre[2] - z).abs() < 1e-9 {
        return Ok(problem.clone());
    }
    let mut scene = problem.scene().cloned().unwrap_or_default();
    for b in scene.boxes.iter_mut().filter(|b| b.name == BOARD) {
        b.centre[2] = z;
    }
    problem.with_scene(scene).map_err(|e| e.to_string())
}

/// The sweep's board heights.
fn heights() -> Vec<f64> {
    (0..SWEEP_POINTS)
        .map(|k| SHELF_MIN + (SHELF_MAX - SHELF_MIN) * k as f64 / (SWEEP_POINTS - 1) as f64)
        .collect()
}

/// The board's clearance of posture q at each height (mm): its spheres (those of links the
/// board lets touch it aside) against the board moved there.
fn board_clearance(problem: &Problem, q: &[f64], heights: &[f64]) -> Vec<f64> {
    let (Some(here), Some(picture)) = (
        board(problem),
        problem.capabilities().space().and_then(|s| s.collision(q)),
    ) else {
        return vec![f64::NAN; heights.len()];
    };
    heights
        .iter()
        .map(|&z| {
            let mut moved = here.clone();
            moved.centre[2] = z;
            let object = Object::Box(&moved);
            picture
                .spheres
                .iter()
                .filter(|s| {
                    let link = picture.links.get(s.link).map_or("", |l| l.0.as_str());
                    !moved.touch.iter().any(|t| t == link)
                })
                .map(|s| object.distance(s.centre).0 - s.radius)
                .fold(f64::INFINITY, f64::min)
                * 1e3
        })
        .collect()
}

/// An answer judged against the page's problem.
fn judged(
    solver: &'static str,
    answer: &Solution,
    page: &Problem,
    learned: &Problem,
    heights: &[f64],
) -> Posture {
    let q = answer.q();
    let picture = page.capabilities().space().and_then(|s| s.collision(q));
    Posture {
        solver,
        q: q.to_vec(),
        status: answer.status().as_str(),
        cost: if q.is_empty() {
            f64::NAN
        } else {
            page.cost().value(q)
        },
        clear: picture.as_ref().is_some_and(|p| p.is_clear()),
        clearance_mm: picture
            .as_ref()
            .and_then(|p| p.clearance.as_ref())
            .map(|(d, _)| d * 1e3),
        readout: picture.map_or("no collision model".into(), |p| p.readout()),
        board_mm: board_clearance(learned, q, heights),
    }
}

/// LOInK + refine 3 on `set` for y.
fn refined(set: &ChartSet, y: &[f64]) -> Option<Solution> {
    let settings = SolverSettings {
        refine: REFINE,
        ..SolverSettings::new(Kind::LoinkRefine)
    };
    let mut solver = set.solver(&settings).ok()?;
    Some(solver.solve(y))
}

impl CollisionLesson {
    /// The lesson with no answer, saying why (a model file the page has not loaded is listed
    /// by the page itself).
    fn unanswered(target: &[f64], shelf: f64, why: String) -> Self {
        CollisionLesson {
            state: CollisionState {
                lesson: "collision",
                target: target.to_vec(),
                shelf_z: shelf,
                learned_z: None,
                moved: false,
                without: None,
                with: None,
                with_learned_clear: None,
                with_learned_mm: None,
                reference: None,
                heights: Vec::new(),
            },
            page: None,
            learned_boxes: Vec::new(),
            answers: [None, None, None],
            missing: vec![why],
        }
    }

    /// The three answers at `target` with the board at height `shelf`.
    pub fn new(models: &Loaded, target: &[f64], shelf: f64) -> Self {
        let Some(shelf_model) = models.charts.get("shelf") else {
            return Self::unanswered(target, shelf, "the shelf model is not loaded".into());
        };
        let learned = shelf_model.problem();
        let page = match with_board_at(learned, shelf) {
            Ok(page) => page,
            Err(why) => return Self::unanswered(target, shelf, why),
        };
        let heights = heights();
        let learned_z = board(learned).map(|b| b.centre[2]);
        let with = refined(shelf_model, target);
        let without = models
            .loink
            .get("plain")
            .and_then(|m| refined(&ChartSet::from(m.clone()), target));
        let optimum =
            Some(reference::solve(&page, target)).filter(|s| s.status() == Status::Converged);
        let judge = |word, s: &Solution| judged(word, s, &page, learned, &heights);
        // The model's answer against the board it learned.
        let there = with.as_ref().and_then(|s| {
            learned
                .capabilities()
                .space()
                .and_then(|v| v.collision(s.q()))
        });
        let state = CollisionState {
            lesson: "collision",
            target: target.to_vec(),
            shelf_z: shelf,
            learned_z,
            moved: learned_z.is_some_and(|z| (z - shelf).abs() > 1e-9),
            without: without.as_ref().map(|s| judge("without", s)),
            with: with.as_ref().map(|s| judge("with", s)),
            with_learned_clear: there.as_ref().map(|p| p.is_clear()),
            with_learned_mm: there.and_then(|p| p.clearance).map(|(d, _)| d * 1e3),
            reference: optimum.as_ref().map(|s| judge("reference", s)),
            heights,
        };
        CollisionLesson {
            state,
            learned_boxes: learned
                .capabilities()
                .space()
                .map_or_else(Vec::new, |s| s.obstacles()),
            page: Some(page),
            answers: [without, with, optimum],
            missing: Vec::new(),
        }
    }

    /// The board's height in words.
    fn board_words(&self) -> String {
        let s = &self.state;
        match s.learned_z {
            Some(z) if s.moved => format!(
                "moved to z = {:.2} m; the shelf model learned it at z = {z:.2} m",
                s.shelf_z
            ),
            Some(z) => format!("at z = {z:.2} m, where the shelf model learned it"),
            None => format!("at z = {:.2} m", s.shelf_z),
        }
    }

    /// What the model knows, in words (a board moved since training).
    fn knows_words(&self) -> Option<String> {
        let s = &self.state;
        let (with, learned_clear) = (s.with.as_ref()?, s.with_learned_clear?);
        if !s.moved {
            return None;
        }
        let there = match (learned_clear, s.with_learned_mm) {
            (true, Some(mm)) => format!("clear of the board it learned by {mm:.1} mm"),
            (true, None) => "clear of the board it learned".into(),
            (false, _) => "not clear even of the board it learned".into(),
        };
        let here = if with.clear {
            format!("it clears the moved board too, by luck: {}", with.readout)
        } else {
            format!("against the board as moved: {}", with.readout)
        };
        Some(format!(
            "the scene is fixed at training time: its answer is {there}; {here}"
        ))
    }
}

/// A posture's readout row.
fn posture_row(label: &str, posture: &Option<Posture>) -> [String; 2] {
    [
        label.into(),
        posture.as_ref().map_or("no answer".into(), |p| {
            format!("J = {:.3}; {}", p.cost, p.readout)
        }),
    ]
}

impl Lesson for CollisionLesson {
    const WORD: &'static str = "collision";
    const TEXT: &'static str = "Put a shelf board over the front of the Panda's table and ask \
for a point under it. The cheapest posture by joint centring alone swings the forearm up into the \
board. Add the board to the cost — a penalty on every sphere of the robot that comes within a \
centimetre of it — and train LOInK with that cost: the model puts the cheapest clear posture at \
z = 0, so the arm ducks under the board at no cost when it solves. What it learned is the scene \
at training time: move the board and the model still avoids the old one.";
    const TRY: &'static str = "Lower the board with the slider: the shelf model's answer keeps \
clear of the dashed board it learned and runs into the new one, while the reference — which reads \
the scene each time it solves — ducks under the board where it is now. Move the target in the \
playground: the model's posture follows the target, never the board.";
    const PROBLEM: &'static str = "panda-shelf";
    const SOLVER: SolverKind = SolverKind::LoinkRefine;
    /// Under the board, in front of the robot and to its right.
    const TARGET: &'static [f64] = &[0.62, -0.15, 0.2];
    const MODELS: &'static [ModelFile] = &[models::PANDA_SHELF, models::PANDA_PLAIN];
    const PANELS: &'static [Panel] = &[
        Panel::new(
            "without",
            "The cheapest posture by joint centring alone (panda.json + refine 3), in the board",
            false,
        ),
        Panel::new(
            "with",
            "LOInK trained with the board in its cost (panda-shelf.json + refine 3), under it",
            false,
        ),
        Panel::new(
            "sweep",
            "Each answer's clearance from the board as the board moves up and down",
            false,
        ),
    ];
    type State = CollisionState;

    fn controls(settings: &Settings) -> Vec<Control> {
        vec![Control::range(
            "shelf",
            "shelf board height (m)",
            [SHELF_MIN, SHELF_MAX, 0.01],
            settings.lesson.shelf,
        )]
    }

    /// The answers at the page target (the lesson's own where it has none of three
    /// coordinates).
    fn compute(models: &Loaded, settings: &Settings) -> Self {
        let t = &settings.target;
        let target = if t.len() == 3 && t.iter().all(|v| v.is_finite()) {
            t.clone()
        } else {
            Self::TARGET.to_vec()
        };
        CollisionLesson::new(models, &target, settings.lesson.shelf)
    }

    fn state(&self) -> CollisionState {
        self.state.clone()
    }

    fn readouts(&self) -> Vec<[String; 2]> {
        let s = &self.state;
        let mut rows = vec![
            [
                "target".to_string(),
                format!(
                    "({:.2}, {:.2}, {:.2}) m",
                    s.target[0], s.target[1], s.target[2]
                ),
            ],
            ["shelf board".to_string(), self.board_words()],
            posture_row("without the board in the cost", &s.without),
            posture_row("with the board in the cost (LOInK)", &s.with),
        ];
        if let Some(words) = self.knows_words() {
            rows.push(["what the model knows".into(), words]);
        }
        rows.push(posture_row(
            "reference (reads the scene when it solves)",
            &s.reference,
        ));
        for why in &self.missing {
            rows.push(["missing".into(), why.clone()]);
        }
        rows
    }

    fn draw(&self, name: &str, surface: &Surface) -> DrawResult<Option<Viewport>> {
        match name {
            "without" => self.draw_arm(surface, 0).map(|_| None),
            "with" => self.draw_arm(surface, 1).map(|_| None),
            "sweep" => self.draw_sweep(surface).map(|_| None),
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::table::SHELF_LEARNED;
    use super::*;

    /// The lesson's claims on the shipped models: without the board in the cost the answer is
    /// in it; with it, clear; and a board lowered after training is hit by the model's answer
    /// (still clear of the board it learned) while the reference ducks under it.
    #[test]
    fn the_model_avoids_the_board_it_learned_not_the_board_moved() {
        let models = models::shipped::<CollisionLesson>();
        let at = CollisionLesson::new(&models, CollisionLesson::TARGET, SHELF_LEARNED);
        let s = at.state();
        assert_eq!(s.learned_z, Some(SHELF_LEARNED));
        assert!(!s.moved);
        let (without, with) = (s.without.unwrap(), s.with.unwrap());
        assert!(!without.clear, "{}", without.readout);
        assert!(with.clear, "{}", with.readout);
        assert_eq!(with.status, "converged");
        assert!(s.reference.unwrap().clear);
        // The sweep at the learned height agrees with the page's own clearance of the board.
        let k = s
            .heights
            .iter()
            .position(|h| (h - SHELF_LEARNED).abs() < 1e-9)
            .expect("the learned height is swept");
        assert!(with.board_mm[k] >= with.clearance_mm.unwrap() - 1e-6);
        assert!(without.board_mm[k] < 0.0);

        let lowered = CollisionLesson::new(&models, CollisionLesson::TARGET, 0.36);
        let m = lowered.state();
        assert!(m.moved);
        let moved_with = m.with.unwrap();
        assert!(!moved_with.clear, "{}", moved_with.readout);
        assert_eq!(
            moved_with.q, with.q,
            "the model's answer does not follow the board"
        );
        assert_eq!(m.with_learned_clear, Some(true));
        let reference = m.reference.unwrap();
        assert!(reference.clear, "{}", reference.readout);
        let words = lowered.knows_words().expect("words for a moved board");
        assert!(words.contains("fixed at training time"), "{words}");
    }

    /// A model file that is missing leaves the lesson saying so, not panicking.
    #[test]
    fn without_the_models_the_lesson_says_what_is_missing() {
        let lesson = CollisionLesson::new(&Loaded::default(), CollisionLesson::TARGET, 0.5);
        assert!(lesson.state().with.is_none());
        assert!(lesson.readouts().iter().any(|r| r[0] == "missing"));
    }
}
