//! Fuzz the URDF reader: any bytes → `urdf::read` returns a typed error or a chain spec; a
//! chain that builds (followers and all) evaluates to finite positions and an analytic Jacobian
//! at mid-range.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loink::problem::chain::urdf::{read, ChainRead, ChainRequest};
use loink::problem::chain::SerialChain;
use loink::problem::Kinematics;

fuzz_target!(|data: &[u8]| {
    let request = ChainRequest {
        file: "fuzz.urdf",
        base: "panda_link0",
        tip: "panda_hand_tcp",
        held: &[],
    };
    let ChainRead { spec, limits, .. } = match read(data, &request) {
        Ok(found) => found,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let Ok(chain) = SerialChain::new("fuzz", spec, limits) else {
        return;
    };
    let q = chain.basics().limits.centres();
    let mut y = [0.0; 3];
    let mut jac = vec![0.0; 3 * q.len()];
    chain.jacobian_into(&q, &mut y, &mut jac);
    assert!(y.iter().chain(&jac).all(|v| v.is_finite()));
});
