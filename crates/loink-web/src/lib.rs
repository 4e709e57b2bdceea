//! wasm-bindgen facade over `loink` (filled in by the playground issue).
