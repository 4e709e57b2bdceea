//! Continuation along a path of equally spaced targets (the landscape curve's latent axis, a row
//! of a latent map): each inverse's warm start is predicted linearly from the two solutions
//! before it, x_next ≈ 2·x_k − x_{k−1}, per monotone layer (see [`BiLipState::extrapolate`]).

use super::bilipnet::BiLipState;

/// Remembers the last two warm starts of a path and sets the next one.
///
/// Call [`Self::predict`] before each solve of the path with the state the solves share: the
/// first two points start from the state's plain warm start, every later one from the linear
/// prediction. A copy taken after a point (state and predictor together) continues the path
/// from that point in another direction.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PathPredictor {
    before: Vec<f64>,
    last: Vec<f64>,
    points: usize,
}

impl PathPredictor {
    /// A predictor at the start of a path.
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a new path: the next two points start plainly.
    pub fn restart(&mut self) {
        self.points = 0;
    }

    /// Sets `state`'s warm start for the next point of the path.
    pub fn predict(&mut self, state: &mut BiLipState) {
        state.warm_starts(&mut self.last);
        if self.points >= 2 {
            state.extrapolate(&self.before);
        }
        std::mem::swap(&mut self.before, &mut self.last);
        self.points += 1;
    }
}
