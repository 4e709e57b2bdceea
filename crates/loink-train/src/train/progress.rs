//! The training progress bar (indicatif): epoch, losses and ETA. When stderr is not a terminal
//! the bar is hidden and one line per epoch is printed instead, so logs still show progress.

use indicatif::{ProgressBar, ProgressStyle};

/// Progress over all optimiser steps.
pub struct Progress {
    bar: ProgressBar,
    epochs: usize,
    /// "chart k/K " when training one chart of several (else empty).
    chart: String,
}

impl Progress {
    /// A bar over `epochs × steps_per_epoch` steps; `chart` = (index, count) when the run trains
    /// one chart of several (every line and the bar then say which).
    pub fn new(epochs: usize, steps_per_epoch: usize, chart: Option<(usize, usize)>) -> Self {
        let chart = chart
            .map(|(k, count)| format!("chart {}/{count} ", k + 1))
            .unwrap_or_default();
        let bar = ProgressBar::new((epochs * steps_per_epoch) as u64);
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix:>20} [{bar:28.cyan/blue}] {percent:>3}% {msg} | {elapsed_precise} ETA {eta_precise}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        bar.set_prefix(format!("{chart}epoch 1/{epochs}"));
        Self { bar, epochs, chart }
    }

    /// One optimiser step done; `loss` is the running mean training loss of this epoch.
    pub fn step(&self, loss: f64) {
        self.bar.inc(1);
        if self.bar.position().is_multiple_of(16) {
            self.bar.set_message(format!("loss {loss:.4}"));
        }
    }

    /// An epoch ended with these losses.
    pub fn epoch(&self, epoch: usize, train_loss: f64, val_task: f64, val_cost: f64, best: bool) {
        let line = format!(
            "{}epoch {:>3}/{}  train loss {train_loss:.5}  val task {val_task:.5}  val cost {val_cost:.5}{}",
            self.chart,
            epoch + 1,
            self.epochs,
            if best { "  *" } else { "" }
        );
        self.note(&line);
        self.bar.set_prefix(format!(
            "{}epoch {}/{}",
            self.chart,
            (epoch + 2).min(self.epochs),
            self.epochs
        ));
    }

    /// A line about the run (above the bar, or on stderr when the bar is hidden).
    pub fn note(&self, line: &str) {
        if self.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
