//! A chain's scene read back from a problem, and the same problem with the scene changed: what a
//! page needs to show a scene moved after training (the model keeps the scene it learned; a
//! solver that reads the scene when it solves answers for the new one).

use super::Scene;
use crate::error::{LoinkError, Result};
use crate::problem::chain::SerialChain;
use crate::problem::Problem;

fn no_collision_model(problem: &Problem) -> LoinkError {
    LoinkError::OutOfRange {
        what: "the scene".into(),
        detail: format!("'{}' has no collision model", problem.name()),
    }
}

impl Problem {
    /// The static scene of a serial chain with a collision model (None for any other problem).
    pub fn scene(&self) -> Option<&Scene> {
        let chain = self.kinematics().as_any().downcast_ref::<SerialChain>()?;
        chain.chain().collision.as_ref().map(|c| &c.scene)
    }

    /// The same problem (robot, limits and cost terms) in `scene` instead of its own: validated
    /// like a scene file, an error for a problem without a collision model. Nothing is changed
    /// on error.
    pub fn with_scene(&self, scene: Scene) -> Result<Problem> {
        let mut spec = self.spec();
        let collision = spec
            .chain
            .as_mut()
            .and_then(|c| c.collision.as_mut())
            .ok_or_else(|| no_collision_model(self))?;
        collision.scene = scene.normalised()?;
        Problem::from_spec(&spec, self.cost().spec().clone())
    }
}

#[cfg(all(test, feature = "urdf"))]
mod tests {
    use super::*;

    #[test]
    fn a_moved_board_is_a_new_problem_and_a_bad_one_changes_nothing() {
        let shelf = Problem::preset("panda-shelf").expect("the preset");
        let mut scene = shelf.scene().expect("a scene").clone();
        let board = scene
            .boxes
            .iter_mut()
            .find(|b| b.name == "shelf")
            .expect("the board");
        board.centre[2] -= 0.1;
        let moved = shelf.with_scene(scene.clone()).expect("a moved board");
        assert_eq!(moved.scene(), Some(&scene));
        assert_ne!(moved.scene(), shelf.scene());
        assert_eq!(moved.cost().spec(), shelf.cost().spec());
        // A posture clear of the board where it was can hit it where it is now: the distance
        // the problems report differs.
        let q = shelf.limits().centres();
        let at = |p: &Problem| p.capabilities().space().and_then(|s| s.collision(&q));
        assert!(at(&moved).is_some() && at(&moved) != at(&shelf));
        let mut bad = scene.clone();
        bad.boxes[0].size[0] = -1.0;
        assert!(shelf.with_scene(bad).is_err());
        let mut nan = scene;
        nan.boxes[0].centre[1] = f64::NAN;
        assert!(shelf.with_scene(nan).is_err());
        let panda = Problem::preset("panda").expect("the preset");
        assert!(panda.scene().is_none());
        assert!(panda.with_scene(Scene::default()).is_err());
    }
}
