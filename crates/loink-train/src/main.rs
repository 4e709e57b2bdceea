//! `loink`: the native companion binary (train, eval, bench, check).
fn main() {}
