//! Wider vectors where the CPU has them. On x86-64 the inverse's hot loops (a monotone layer's
//! Newton solve, the forward pass that seeds it, the section head) are compiled twice: for the
//! baseline (SSE2, two lanes) and with AVX2 and FMA (four lanes); the second runs where the CPU
//! reports both. Rust never fuses a multiply and an add, nor reorders a sum, on its own, so both
//! builds round alike: the answers are the same bits, only the vectors are wider. Elsewhere
//! (wasm32 with simd128, other CPUs) there is the one build.

/// Whether this CPU runs the wide build (AVX2 and FMA on x86-64; never elsewhere). The feature
/// test reads a flag the standard library caches after its first call.
#[inline]
pub fn wide() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::super::{InverseOptions, MonotoneLayer};

    /// Both builds of a Newton solve give the same bits (where this CPU has the wide one) on
    /// every width with a fixed-size kernel and one without.
    #[test]
    fn the_wide_build_rounds_like_the_baseline() {
        if !super::wide() {
            return;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for n in [2, 3, 6, 9] {
            let layer = MonotoneLayer::random(n, &[24, 24, 24], 0.4, 3.0, &mut rng).unwrap();
            let options = InverseOptions {
                warm_start: false,
                ..InverseOptions::default()
            };
            for _ in 0..20 {
                let y: Vec<f64> = (0..n).map(|_| rng.random_range(-2.0..2.0)).collect();
                let (mut narrow, mut wide) = (vec![0.0; n], vec![0.0; n]);
                let (mut s1, mut s2) = (layer.new_state(), layer.new_state());
                let a = layer.newton_solve(&y, &mut narrow, &mut s1, &options);
                // SAFETY: `wide()` said the CPU has AVX2 and FMA.
                let b = unsafe { layer.inverse_newton_wide(&y, &mut wide, &mut s2, &options) };
                assert!(a.stop.converged(), "width {n}: {a:?}");
                assert_eq!(a, b, "width {n}");
                assert_eq!(
                    narrow.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                    wide.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                    "width {n}"
                );
            }
        }
    }
}
