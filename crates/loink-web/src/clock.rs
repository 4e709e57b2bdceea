//! A monotonic clock in microseconds that works on both targets: `performance.now()` in the
//! browser (where `std::time::Instant` panics) and `Instant` natively, so the same timing code
//! measures the wasm and the native solve for the bench ratio.

#[cfg(target_arch = "wasm32")]
mod imp {
    use wasm_bindgen::JsCast;

    /// The clock's step (µs): browsers coarsen `performance.now()` to 100 µs on a page that is
    /// not cross-origin isolated (this one is not: it must work in any iframe).
    pub const RESOLUTION_MICROS: f64 = 100.0;

    /// Microseconds since an arbitrary origin; 0 when no `performance` object exists
    /// (timings then read 0 instead of failing).
    pub fn now_micros() -> f64 {
        let global = js_sys::global();
        let performance = js_sys::Reflect::get(&global, &"performance".into())
            .ok()
            .and_then(|p| p.dyn_into::<web_sys::Performance>().ok());
        performance.map_or(0.0, |p| p.now() * 1e3)
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    use std::sync::OnceLock;
    use std::time::Instant;

    /// The clock's step (µs): sub-microsecond natively.
    pub const RESOLUTION_MICROS: f64 = 0.0;

    /// Microseconds since the first call.
    pub fn now_micros() -> f64 {
        static ORIGIN: OnceLock<Instant> = OnceLock::new();
        ORIGIN.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e6
    }
}

pub use imp::{now_micros, RESOLUTION_MICROS};
