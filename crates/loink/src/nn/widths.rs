//! The input widths n with kernels of their own: rows of fixed size the compiler unrolls and
//! vectorises. Widths 2–4 (the planar arms and the soft robot) are in every build; 5 (the
//! climber), 6 and 7 (the Panda's position and pose) are the `spatial` feature, which the
//! page's slim bundle leaves out. Any other width runs on slices.

/// A kernel written once for every width: [`by_width`] calls its fixed-size form where the
/// width has one, its slice form otherwise.
pub(crate) trait ByWidth {
    /// What the kernel gives back.
    type Output;
    /// The kernel on rows of `N` entries.
    fn fixed<const N: usize>(self) -> Self::Output;
    /// The kernel on slices of any width.
    fn any(self) -> Self::Output;
}

/// Runs `kernel` on width `n`.
#[inline(always)]
pub(crate) fn by_width<K: ByWidth>(n: usize, kernel: K) -> K::Output {
    match n {
        2 => kernel.fixed::<2>(),
        3 => kernel.fixed::<3>(),
        4 => kernel.fixed::<4>(),
        #[cfg(feature = "spatial")]
        5 => kernel.fixed::<5>(),
        #[cfg(feature = "spatial")]
        6 => kernel.fixed::<6>(),
        #[cfg(feature = "spatial")]
        7 => kernel.fixed::<7>(),
        _ => kernel.any(),
    }
}
