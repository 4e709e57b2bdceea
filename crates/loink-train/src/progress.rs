//! The progress bar of every command that can run past a few seconds (eval, bench, check,
//! targets, data): drawn on stderr when it is a terminal, hidden in pipes and logs.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar over `len` steps labelled `what` (e.g. "reference J*"), on stderr.
pub fn bar(len: usize, what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{prefix:>14} [{bar:28.cyan/blue}] {pos}/{len} {per_sec} | {elapsed_precise} ETA {eta_precise}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(what.to_string());
    bar
}
